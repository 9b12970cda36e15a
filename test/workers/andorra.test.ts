import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleDem } from '../../data/region/dem.js';
import { importRegion } from '../../data/region/import-region.js';
import { loadRegion } from '../../data/region/region-folder.js';
import type { Region } from '../../data/region/region.js';
import {
  EdgeFlag,
  edgeFlags,
  edgeLength,
  edgeSac,
  edgeTarget,
  latOf,
  lonOf,
  type RegionGraph,
  wayOf,
} from '../../data/region/region-graph.js';
import { Activity, ACTIVITIES } from '../../contracts/activity.js';
import { profileFor } from '../../workers/profiles.js';
import type { LonLat, RouteResult } from '../../contracts/routing.js';
import { RouteEngine } from '../../workers/route-engine.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from '../data/region/shared-data.js';
import { costsFor, firstDiscontinuity, oracleCost, seeded } from './routing-oracle.js';

const OSM = ANDORRA_PBF;
const DEM = ANDORRA_HGT;
const present = haveData(OSM, DEM);

let dir = '';
let region: Region;
let g: RegionGraph;
let engine: RouteEngine;

beforeAll(async () => {
  if (!present) return;
  dir = mkdtempSync(join(tmpdir(), 'cairn-andorra-'));
  await importRegion({ osm: OSM, dem: [DEM], out: dir });
  region = loadRegion(dir);
  g = region.graph;
  engine = new RouteEngine(g, region.dem, { kernel: { build: 'debug' } });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const at = (v: number): LonLat => [lonOf(g, v), latOf(g, v)];
function ok(out: ReturnType<RouteEngine['directions']>): RouteResult {
  if (!out.ok) throw new Error(JSON.stringify(out));
  return out.routes[0]!;
}

describe.skipIf(!present)('routing on Andorra', () => {
  it('route costs equal a plain Dijkstra oracle within 0.1% on 400 seeded node pairs', () => {
    const rnd = seeded(2013);
    let routed = 0;
    for (const activity of ACTIVITIES) {
      const cost = costsFor(g, profileFor(activity));
      for (let i = 0; i < 80; i++) {
        const s = Math.floor(rnd() * g.nodeCount);
        const t = Math.floor(rnd() * g.nodeCount);
        const want = oracleCost(g, cost, s, t);
        const got = engine.routeNodes(s, t, activity)?.cost ?? Infinity;
        if (want === Infinity) expect(got, `${activity} ${s}->${t}`).toBe(Infinity);
        else {
          expect(Math.abs(got - want), `${activity} ${s}->${t}`).toBeLessThanOrEqual(want * 1e-3 + 1e-6);
          routed++;
        }
      }
    }
    expect(routed).toBeGreaterThan(100);
  });

  it('consecutive coordinates of routes are joined by graph edges', () => {
    const rnd = seeded(5);
    const cost = costsFor(g, profileFor(Activity.HIKING_AND_TRAIL));
    let checked = 0;
    while (checked < 15) {
      const s = Math.floor(rnd() * g.nodeCount);
      const t = Math.floor(rnd() * g.nodeCount);
      if (s === t || oracleCost(g, cost, s, t) === Infinity) continue;
      const r = ok(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(s), at(t)] }));
      expect(firstDiscontinuity(g, r.coordinates)).toBe(-1);
      checked++;
    }
  });

  it('a sac_scale trail yields its difficulty stretch', () => {
    // The longest run of one sac_scale way: route between its two ends.
    const lengths = new Map<number, number>();
    for (let e = 0; e < g.edgeCount; e++)
      if (edgeSac(g, e) > 0) lengths.set(wayOf(g, e), (lengths.get(wayOf(g, e)) ?? 0) + edgeLength(g, e) / 2);
    const [way, length] = [...lengths].sort((a, b) => b[1] - a[1])[0]!;
    const sacEdge = [...Array(g.edgeCount).keys()].find((e) => wayOf(g, e) === way)!;
    const sac = edgeSac(g, sacEdge);
    const deg = new Map<number, number>();
    for (let e = 0; e < g.edgeCount; e++) if (wayOf(g, e) === way) deg.set(edgeTarget(g, e), (deg.get(edgeTarget(g, e)) ?? 0) + 1);
    const ends = [...deg].filter(([, d]) => d === 1).map(([v]) => v);
    const r = ok(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(ends[0]!), at(ends[1]!)] }));
    const label = `T${sac}`;
    const onTrail = r.trailDifficultyInfo.filter((s) => s.difficulty === label).reduce((sum, s) => sum + s.toDistance - s.fromDistance, 0);
    expect(onTrail).toBeGreaterThan(0.5 * length);
    for (const s of r.trailDifficultyInfo) expect(s.toIndex).toBeGreaterThan(s.fromIndex);
  });

  it('ascent on a climb is at least the elevation gain and close to the DEM along the line', () => {
    const cost = costsFor(g, profileFor(Activity.HIKING_AND_TRAIL));
    const rnd = seeded(9);
    let best: { s: number; t: number; gain: number } | null = null;
    for (let i = 0; i < 60; i++) {
      const s = Math.floor(rnd() * g.nodeCount);
      const t = Math.floor(rnd() * g.nodeCount);
      const gain = g.nodeEle[t]! - g.nodeEle[s]!;
      if (gain > (best?.gain ?? 300) && oracleCost(g, cost, s, t) < Infinity) best = { s, t, gain };
    }
    expect(best).not.toBeNull();
    const r = ok(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(best!.s), at(best!.t)] }));
    expect(r.ascent).toBeGreaterThanOrEqual(best!.gain * 0.95);
    expect(r.ascent - r.descent).toBeCloseTo(best!.gain, -1);
    let demAscent = 0;
    let prev = NaN;
    for (let i = 0; i < r.coordinates.length; i += 3) {
      const h = sampleDem(region.dem!, r.coordinates[i]!, r.coordinates[i + 1]!);
      if (h > prev) demAscent += h - prev;
      prev = h;
    }
    expect(r.ascent).toBeLessThanOrEqual(demAscent * 1.2 + 20);
    expect(r.ascent).toBeGreaterThanOrEqual(demAscent * 0.6);
  });

  it('avoiding a toll way that a route cannot do without gives NO_ROUTE, and the route with its toll', () => {
    const toll = [...Array(g.edgeCount).keys()].filter((e) => (edgeFlags(g, e) & EdgeFlag.Toll) !== 0);
    expect(toll.length).toBeGreaterThan(0);
    const e = toll[0]!;
    const a = engine.kernel.sourceOf(e);
    const b = edgeTarget(g, e);
    const out = ok(engine.directions({ activity: Activity.ROAD_CYCLING, waypoints: [at(a), at(b)], avoid: ['TOLLWAY'] }));
    expect(['APPLIED', 'NO_ROUTE']).toContain(out.avoidance);
    // Andorra's five toll ways (the Envalira tunnel's approaches) are the only way on for every route that takes
    // them: a plain Dijkstra without toll edges finds none, so the answer must be NO_ROUTE, with the toll route.
    // No waypoints on this extract reach APPLIED (a search of every activity between nodes near the toll ways found
    // none); route-engine.test.ts shows APPLIED, with no toll edge, on a made-up graph.
    const withoutToll = oracleCost(g, costsFor(g, profileFor(Activity.ROAD_CYCLING)), a, b, (x) => (edgeFlags(g, x) & EdgeFlag.Toll) !== 0);
    expect(withoutToll).toBe(Infinity);
    expect(out.avoidance).toBe('NO_ROUTE');
    expect(out.advisories.some((x) => x.kind === 'TOLLWAY')).toBe(true);
  });
});
