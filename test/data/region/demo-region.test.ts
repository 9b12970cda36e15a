// The built-in demo region: deterministic, and holding every feature a real import has.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEM_VOID } from '../../../data/region/dem-grid.js';
import { buildDemoRegion, writeDemoRegion } from '../../../data/region/demo-region.js';
import { unpackAccess } from '../../../data/region/osm-tags.js';
import { encodeRegionFiles } from '../../../data/region/region-folder.js';
import {
  AccessClass,
  AccessMode,
  EdgeFlag,
  edgeFlags,
  edgeRise,
  edgeSources,
  edgeTarget,
  HighwayClass,
  outEdges,
  wayOf,
} from '../../../data/region/region-graph.js';
import { nearestEdgeReference } from '../../../geo-wasm/reference/routing.js';
import { expectWellFormed } from './graph-checks.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-demo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const demo = buildDemoRegion();
const g = demo.graph;

describe('demo region', () => {
  it('is deterministic: two builds write the same bytes', () => {
    const a = encodeRegionFiles(demo);
    const b = encodeRegionFiles(buildDemoRegion());
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [name, bytes] of a) expect(Buffer.from(bytes).equals(Buffer.from(b.get(name)!))).toBe(true);
    writeDemoRegion(join(work, 'one'));
    writeDemoRegion(join(work, 'two'));
    for (const f of readdirSync(join(work, 'one'))) {
      expect(readFileSync(join(work, 'one', f)).equals(readFileSync(join(work, 'two', f)))).toBe(true);
    }
  });

  it('has a few thousand nodes in one connected, well-formed graph', () => {
    expect(g.nodeCount).toBeGreaterThan(2_000);
    expect(g.nodeCount).toBeLessThan(10_000);
    expectWellFormed(g);
    const seen = new Uint8Array(g.nodeCount);
    const stack = [0];
    seen[0] = 1;
    let reached = 0;
    while (stack.length > 0) {
      const n = stack.pop()!;
      reached++;
      for (const e of outEdges(g, n)) {
        const m = edgeTarget(g, e);
        if (!seen[m]) {
          seen[m] = 1;
          stack.push(m);
        }
      }
    }
    expect(reached).toBe(g.nodeCount);
  });

  it('mixes paths with sac_scale T1 to T6, tracks, steps, roads and a bike oneway', () => {
    const sac = new Set(g.waySac);
    for (let t = 1; t <= 6; t++) expect(sac.has(t)).toBe(true);
    const hw = new Set(g.wayHighway);
    for (const c of [
      HighwayClass.Path,
      HighwayClass.Track,
      HighwayClass.Steps,
      HighwayClass.Footway,
      HighwayClass.Residential,
      HighwayClass.Secondary,
      HighwayClass.Cycleway,
      HighwayClass.Bridleway,
    ]) {
      expect(hw.has(c)).toBe(true);
    }
    const flags = Array.from({ length: g.edgeCount }, (_, e) => edgeFlags(g, e));
    expect(flags.some((f) => (f & EdgeFlag.OnewayForBikes) !== 0)).toBe(true);
    expect(flags.some((f) => (f & EdgeFlag.Bridge) !== 0)).toBe(true);
    expect(g.surfaces).toContain('gravel');
  });

  it('has exactly one toll road and ways with private, customers, destination, permissive and no access', () => {
    const toll = demo.hazards.filter((h) => h.kinds.includes('TOLLWAY'));
    expect(toll).toHaveLength(1);
    const tollWays = new Set<number>();
    for (let e = 0; e < g.edgeCount; e++) if (edgeFlags(g, e) & EdgeFlag.Toll) tollWays.add(wayOf(g, e));
    expect([...tollWays]).toEqual([toll[0]!.way]);
    const foot = new Set(Array.from(g.wayAccess, (a) => unpackAccess(a, AccessMode.Foot)));
    for (const a of [AccessClass.Private, AccessClass.Customers, AccessClass.Destination, AccessClass.Permissive, AccessClass.No]) {
      expect(foot.has(a)).toBe(true);
    }
    expect(demo.hazards.filter((h) => h.kinds.includes('RESTRICTED_ACCESS')).length).toBeGreaterThanOrEqual(3);
    expect(demo.hazards.some((h) => h.kinds.includes('PERMISSIVE'))).toBe(true);
  });

  it('has peaks, huts, a shelter, a viewpoint, a village and house numbers on a street', () => {
    const kinds = new Set([...demo.places].map((p) => p.kind));
    for (const k of ['peak', 'alpine_hut', 'wilderness_hut', 'shelter', 'viewpoint', 'village', 'hamlet', 'address'] as const) {
      expect(kinds.has(k)).toBe(true);
    }
    const peak = demo.places.search('pic de cairn')[0]!;
    expect(peak.kind).toBe('peak');
    expect(Math.abs(peak.ele! - peak.eleTag!)).toBeLessThan(20);
    const house = demo.places.search('Carrer Major 3')[0]!;
    expect(house.houseNumber).toBe('3');
    expect(house.street).toBe('Carrer Major');
    expect([...demo.places].some((p) => p.osmType === 'way' && p.kind === 'address')).toBe(true);
  });

  it('has an elevation grid with a valley floor and summits, and a hiking route over the graph', () => {
    const dem = demo.dem!;
    expect(dem.samples[0]).toBe(DEM_VOID);
    const valid = Array.from(dem.samples).filter((v) => v !== DEM_VOID);
    expect(Math.min(...valid)).toBeLessThan(1300);
    expect(Math.max(...valid)).toBeGreaterThan(2800);
    expect(g.nodeEle.every((v) => Number.isFinite(v))).toBe(true);
    let climb = 0;
    for (let e = 0; e < g.edgeCount; e++) climb += Math.max(0, edgeRise(g, e));
    expect(climb).toBeGreaterThan(5_000);
    const gr = demo.routes.find((r) => r.ref === 'GR-C1')!;
    expect(gr.ways.length).toBeGreaterThan(3);
    expect(gr.ways.every((w) => w >= 0)).toBe(true);
  });

  it('snaps the village centre to a street within 100 m', () => {
    const village = [...demo.places].find((p) => p.kind === 'village')!;
    const snap = nearestEdgeReference(g, edgeSources(g), village.lon, village.lat);
    expect(snap!.distance).toBeLessThan(100);
  });
});
