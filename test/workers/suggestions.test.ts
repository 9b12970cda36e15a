// Route ideas on the demo region: loops that come back to the start near the target, point-to-point ideas
// that reach the end, none ever on a toll or access-restricted way (the demo valley has both), and a
// NOT_FOUND when no such idea can be made.

import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import { EdgeFlag, edgeFlags, edgeTarget, latOf, lonOf, outEdges, type RegionGraph, wayOf } from '../../data/region/region-graph.js';
import { Activity } from '../../contracts/activity.js';
import type { LonLat, SuggestionsOutput } from '../../contracts/routing.js';
import { RouteEngine } from '../../workers/route-engine.js';
import { suggestRoutes } from '../../workers/suggestions.js';

let region: Region;
let g: RegionGraph;
let engine: RouteEngine;

beforeAll(() => {
  region = buildDemoRegion();
  g = region.graph;
  engine = new RouteEngine(g, region.dem, { kernel: { build: 'debug' } });
});

const village = (): LonLat => {
  const v = [...region.places].find((p) => p.name === 'Vilanova de Cairn');
  if (!v) throw new Error('the demo village is missing');
  return [v.lon, v.lat];
};
const at = (v: number): LonLat => [lonOf(g, v), latOf(g, v)];
const tollEdges = () => [...Array(g.edgeCount).keys()].filter((e) => (edgeFlags(g, e) & EdgeFlag.Toll) !== 0);
/** A node at each end of the toll road that is not on it. */
function aroundToll(): LonLat[] {
  const way = wayOf(g, tollEdges()[0]!);
  const degree = new Map<number, number>();
  for (let e = 0; e < g.edgeCount; e++) if (wayOf(g, e) === way) degree.set(edgeTarget(g, e), (degree.get(edgeTarget(g, e)) ?? 0) + 1);
  const ends = [...degree].filter(([, d]) => d === 1).map(([v]) => v);
  return ends.map((v) => {
    for (const e of outEdges(g, v)) if (!(edgeFlags(g, e) & EdgeFlag.Toll)) return at(edgeTarget(g, e));
    throw new Error('toll end without another way');
  });
}
const metres = (a: readonly number[], b: readonly number[]) =>
  Math.hypot((a[0]! - b[0]!) * 111_320 * Math.cos((a[1]! * Math.PI) / 180), (a[1]! - b[1]!) * 110_540);
const hazardKinds = new Set(['TOLLWAY', 'RESTRICTED_ACCESS']);

describe('route suggestions', () => {
  it('loops for a target distance: back at the start, the best within 20% of the target, distinct, hazard-free', () => {
    const out = suggestRoutes(engine, { activity: Activity.HIKING_AND_TRAIL, start: village(), targetDistance: 5000 }) as SuggestionsOutput;
    expect(out.ok).toBe(true);
    expect(out.suggestions.length).toBeGreaterThanOrEqual(2);
    expect(out.suggestions.length).toBeLessThanOrEqual(3);
    expect(Math.abs(out.suggestions[0]!.distance - 5000) / 5000).toBeLessThan(0.2);
    for (const s of out.suggestions) {
      expect(s.kind).toBe('LOOP');
      const c = s.coordinates;
      expect(metres(c.slice(0, 2), c.slice(-3, -1))).toBeLessThan(1); // ends where it started
      expect(s.advisories.filter((a) => hazardKinds.has(a.kind))).toEqual([]);
    }
    const lengths = out.suggestions.map((s) => Math.round(s.distance));
    expect(new Set(lengths).size).toBe(lengths.length);
  });

  it('a target duration is met on duration, not distance', () => {
    const out = suggestRoutes(engine, {
      activity: Activity.WALKING,
      start: village(),
      targetDuration: 3600,
      limit: 1,
    }) as SuggestionsOutput;
    expect(out.suggestions).toHaveLength(1);
    expect(Math.abs(out.suggestions[0]!.duration - 3600) / 3600).toBeLessThan(0.25);
  });

  it('between the two ends of the toll road, the idea goes around it (the shortest way would take it)', () => {
    const [from, to] = aroundToll() as [LonLat, LonLat];
    const plain = engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [from, to] });
    if (!plain.ok) throw new Error('no plain route');
    expect(plain.routes[0]!.advisories.some((a) => a.kind === 'TOLLWAY')).toBe(true);
    const out = suggestRoutes(engine, {
      activity: Activity.HIKING_AND_TRAIL,
      start: from,
      end: to,
      targetDistance: Math.round(plain.routes[0]!.distance),
    }) as SuggestionsOutput;
    expect(out.ok).toBe(true);
    for (const s of out.suggestions) {
      expect(s.kind).toBe('POINT_TO_POINT');
      expect(s.advisories.filter((a) => hazardKinds.has(a.kind))).toEqual([]);
      expect(metres(s.coordinates.slice(-3, -1), to)).toBeLessThan(60);
    }
  });

  it('fails with NOT_FOUND when every idea would need a toll way (a start on the toll road)', () => {
    const e = tollEdges()[3]!;
    const a = engine.kernel.sourceOf(e);
    const b = edgeTarget(g, e);
    const onToll: LonLat = [(lonOf(g, a) + lonOf(g, b)) / 2, (latOf(g, a) + latOf(g, b)) / 2];
    expect(suggestRoutes(engine, { activity: Activity.ROAD_CYCLING, start: onToll, targetDistance: 3000 })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
  });
});
