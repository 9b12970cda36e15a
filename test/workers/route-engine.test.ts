import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import {
  EdgeFlag,
  edgeFlags,
  edgeLength,
  edgeSac,
  edgeTarget,
  latOf,
  lonOf,
  outEdges,
  type RegionGraph,
  wayOf,
} from '../../data/region/region-graph.js';
import { Activity, ACTIVITIES } from '../../contracts/activity.js';
import { Hazard, profileFor } from '../../workers/profiles.js';
import type { DirectionsOutput, LonLat, RouteResult } from '../../contracts/routing.js';
import { RouteEngine } from '../../workers/route-engine.js';
import { costsFor, firstDiscontinuity, hazardsFor, oracleCost, seeded } from './routing-oracle.js';

let region: Region;
let g: RegionGraph;
let engine: RouteEngine;

beforeAll(() => {
  region = buildDemoRegion();
  g = region.graph;
  engine = new RouteEngine(g, region.dem, { kernel: { build: 'debug' } });
});

const at = (v: number): LonLat => [lonOf(g, v), latOf(g, v)];
function route(out: ReturnType<RouteEngine['directions']>): RouteResult {
  expect(out.ok, JSON.stringify(out)).toBe(true);
  return (out as DirectionsOutput).routes[0]!;
}
/** Nodes of way `w` that end it (one incident edge of that way). */
function wayEnds(w: number): number[] {
  const deg = new Map<number, number>();
  for (let e = 0; e < g.edgeCount; e++) if (wayOf(g, e) === w) deg.set(edgeTarget(g, e), (deg.get(edgeTarget(g, e)) ?? 0) + 1);
  return [...deg].filter(([, d]) => d === 1).map(([v]) => v);
}
function sourceOf(e: number): number {
  return engine.kernel.sourceOf(e);
}

describe('routes on the demo region', () => {
  it('route costs equal a plain Dijkstra oracle on 60 seeded node pairs per activity', () => {
    const rnd = seeded(42);
    for (const activity of ACTIVITIES) {
      const cost = costsFor(g, profileFor(activity));
      // Nodes the activity may leave by some edge (a road bike's network is a small part of the valley's).
      const usable = [...Array(g.nodeCount).keys()].filter((v) => outEdges(g, v).some((e) => cost[e]! < Infinity));
      let compared = 0;
      for (let i = 0; i < 60; i++) {
        const s = usable[Math.floor(rnd() * usable.length)]!;
        const t = usable[Math.floor(rnd() * usable.length)]!;
        const want = oracleCost(g, cost, s, t);
        const got = engine.routeNodes(s, t, activity)?.cost ?? Infinity;
        if (want === Infinity) expect(got).toBe(Infinity);
        else {
          expect(Math.abs(got - want)).toBeLessThanOrEqual(want * 1e-3 + 1e-6);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    }
  });

  it('masked routes equal the oracle with hazard edges removed', () => {
    const rnd = seeded(7);
    const p = profileFor(Activity.HIKING_AND_TRAIL);
    const cost = costsFor(g, p);
    const haz = hazardsFor(g, p);
    const mask = Hazard.Toll | Hazard.Restricted;
    engine.prepare(Activity.HIKING_AND_TRAIL);
    for (let i = 0; i < 80; i++) {
      const s = Math.floor(rnd() * g.nodeCount);
      const t = Math.floor(rnd() * g.nodeCount);
      const want = oracleCost(g, cost, s, t, (e) => (haz[e]! & mask) !== 0);
      const pos = (v: number) => ({ edge: outEdges(g, v)[0]!, fraction: 0 });
      const got = engine.kernel.route(pos(s), pos(t), p.id, mask)?.cost ?? Infinity;
      if (want === Infinity) expect(got).toBe(Infinity);
      else expect(Math.abs(got - want)).toBeLessThanOrEqual(want * 1e-3 + 1e-6);
    }
  });

  it('directions between node waypoints lasts the oracle cost and its coordinates follow graph edges', () => {
    const rnd = seeded(3);
    const cost = costsFor(g, profileFor(Activity.HIKING_AND_TRAIL));
    let checked = 0;
    while (checked < 20) {
      const s = Math.floor(rnd() * g.nodeCount);
      const t = Math.floor(rnd() * g.nodeCount);
      const want = oracleCost(g, cost, s, t);
      if (want === Infinity || s === t) continue;
      const r = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(s), at(t)] }));
      expect(Math.abs(r.duration - want)).toBeLessThanOrEqual(want * 1e-3 + 1e-6);
      expect(firstDiscontinuity(g, r.coordinates)).toBe(-1);
      checked++;
    }
  });

  it('a route between points inside edges starts and ends at the snapped points', () => {
    const r = route(
      engine.directions({
        activity: Activity.HIKING_AND_TRAIL,
        waypoints: [
          [1.551, 42.4952],
          [1.5703, 42.5049],
        ],
      }),
    );
    const n = r.coordinates.length / 3;
    expect(r.coordinates[0]).toBeCloseTo(r.snapped[0]!.lon, 9);
    expect(r.coordinates[1]).toBeCloseTo(r.snapped[0]!.lat, 9);
    expect(r.coordinates[(n - 1) * 3]).toBeCloseTo(r.snapped[1]!.lon, 9);
    expect(r.coordinates[(n - 1) * 3 + 1]).toBeCloseTo(r.snapped[1]!.lat, 9);
    expect(firstDiscontinuity(g, r.coordinates)).toBe(-1);
    expect(r.distance).toBeGreaterThan(0);
    expect(r.duration).toBeGreaterThan(0);
  });

  it('routes through several waypoints join legs at the snapped waypoints', () => {
    const wps: LonLat[] = [
      [1.551, 42.4952],
      [1.56, 42.5],
      [1.5703, 42.5049],
    ];
    const r = route(engine.directions({ activity: Activity.WALKING, waypoints: wps }));
    const one = route(engine.directions({ activity: Activity.WALKING, waypoints: [wps[0]!, wps[1]!] }));
    const two = route(engine.directions({ activity: Activity.WALKING, waypoints: [wps[1]!, wps[2]!] }));
    expect(r.distance).toBeCloseTo(one.distance + two.distance, 3);
    expect(r.duration).toBeCloseTo(one.duration + two.duration, 3);
  });
});

describe('avoidance and advisories on the demo region', () => {
  const tollEdges = (): number[] => [...Array(g.edgeCount).keys()].filter((e) => (edgeFlags(g, e) & EdgeFlag.Toll) !== 0);

  /** Waypoints just off both ends of the toll road: a node next to each end, not on the toll road. */
  function aroundToll(): LonLat[] {
    const toll = tollEdges();
    const way = wayOf(g, toll[0]!);
    const ends = wayEnds(way);
    expect(ends.length).toBe(2);
    return ends.map((v) => {
      for (const e of outEdges(g, v)) if (!(edgeFlags(g, e) & EdgeFlag.Toll)) return at(edgeTarget(g, e));
      throw new Error('toll end without another way');
    });
  }

  it('without avoid the route over the toll road reports a TOLLWAY advisory and NOT_NEEDED', () => {
    const r = route(engine.directions({ activity: Activity.ROAD_CYCLING, waypoints: aroundToll() }));
    expect(r.avoidance).toBe('NOT_NEEDED');
    const adv = r.advisories.find((a) => a.kind === 'TOLLWAY');
    expect(adv).toBeDefined();
    expect(adv!.isRestriction).toBe(true);
    expect(adv!.toDistance).toBeGreaterThan(adv!.fromDistance);
    expect(adv!.toIndex).toBeGreaterThan(adv!.fromIndex);
  });

  it('avoiding TOLLWAY gives APPLIED with a longer route that crosses no toll edge', () => {
    const wps = aroundToll();
    const plain = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: wps }));
    expect(plain.advisories.some((a) => a.kind === 'TOLLWAY')).toBe(true);
    const avoided = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: wps, avoid: ['TOLLWAY'] }));
    expect(avoided.avoidance).toBe('APPLIED');
    expect(avoided.duration).toBeGreaterThan(plain.duration);
    expect(avoided.advisories.some((a) => a.kind === 'TOLLWAY')).toBe(false);
    expect(firstDiscontinuity(g, avoided.coordinates)).toBe(-1);
  });

  it('a waypoint on the toll road itself with avoid TOLLWAY gives NO_ROUTE', () => {
    const toll = tollEdges();
    const mid = toll[Math.floor(toll.length / 2)]!;
    const a = sourceOf(mid);
    const b = edgeTarget(g, mid);
    const onToll: LonLat = [(lonOf(g, a) + lonOf(g, b)) / 2, (latOf(g, a) + latOf(g, b)) / 2];
    const r = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [aroundToll()[0]!, onToll], avoid: ['TOLLWAY'] }));
    expect(r.avoidance).toBe('NO_ROUTE');
    expect(r.advisories.some((a) => a.kind === 'TOLLWAY')).toBe(true);
  });

  it('restricted and permissive ways are reported with their access values', () => {
    const p = profileFor(Activity.HIKING_AND_TRAIL);
    const haz = hazardsFor(g, p);
    for (const [bit, kind, restriction] of [
      [Hazard.Restricted, 'RESTRICTED_ACCESS', true],
      [Hazard.Permissive, 'PERMISSIVE', false],
    ] as const) {
      const e = [...Array(g.edgeCount).keys()].find((x) => (haz[x]! & bit) !== 0 && costsFor(g, p)[x]! < Infinity)!;
      const r = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(sourceOf(e)), at(edgeTarget(g, e))] }));
      const adv = r.advisories.find((a) => a.kind === kind);
      expect(adv, kind).toBeDefined();
      expect(adv!.isRestriction).toBe(restriction);
      expect(adv!.osmWayId).toBe(g.wayOsmId[wayOf(g, e)]);
      expect(adv!.access).not.toBe('yes');
    }
  });
});

describe('difficulty, snapping and analysis on the demo region', () => {
  it('the T5 ridge path yields a T5 difficulty stretch', () => {
    const e5 = [...Array(g.edgeCount).keys()].find((e) => edgeSac(g, e) === 5)!;
    const way = wayOf(g, e5);
    const [s, t] = wayEnds(way);
    let wayLength = 0;
    for (let e = 0; e < g.edgeCount; e++) if (wayOf(g, e) === way) wayLength += edgeLength(g, e) / 2;
    const r = route(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [at(s!), at(t!)] }));
    const t5 = r.trailDifficultyInfo.filter((x) => x.difficulty === 'T5').reduce((sum, x) => sum + x.toDistance - x.fromDistance, 0);
    expect(t5).toBeGreaterThan(0.9 * wayLength);
    const walking = engine.directions({ activity: Activity.WALKING, waypoints: [at(s!), at(t!)] });
    if (walking.ok) expect(walking.routes[0]!.trailDifficultyInfo.some((x) => x.difficulty === 'T5')).toBe(false);
  });

  it('a freehand line snaps to the network keeping its exact start and end', () => {
    const drawn: LonLat[] = [
      [1.5512, 42.4955],
      [1.556, 42.4975],
      [1.5625, 42.5003],
      [1.5701, 42.5046],
    ];
    const out = engine.snapLine({ activity: Activity.HIKING_AND_TRAIL, coordinates: drawn });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const c = out.route.coordinates;
    const n = c.length / 3;
    expect([c[0], c[1]]).toEqual(drawn[0]);
    expect([c[(n - 1) * 3], c[(n - 1) * 3 + 1]]).toEqual(drawn[3]);
    expect(out.route.distance).toBeGreaterThan(0);
  });

  it('analysis of a line drawn along the toll road reports it', () => {
    const toll = [...Array(g.edgeCount).keys()].filter((e) => (edgeFlags(g, e) & EdgeFlag.Toll) !== 0);
    const way = wayOf(g, toll[0]!);
    const [s] = wayEnds(way);
    // Walk the toll way from one end, taking its nodes as a drawn line.
    const line: LonLat[] = [at(s!)];
    let v = s!;
    let prev = -1;
    for (;;) {
      let next = -1;
      for (const e of outEdges(g, v)) if (wayOf(g, e) === way && edgeTarget(g, e) !== prev) next = edgeTarget(g, e);
      if (next < 0) break;
      line.push(at(next));
      prev = v;
      v = next;
    }
    const out = engine.analyze({ activity: Activity.HIKING_AND_TRAIL, coordinates: line });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.analysis.matchedFraction).toBeGreaterThan(0.95);
    const adv = out.analysis.advisories.filter((a) => a.kind === 'TOLLWAY');
    expect(adv.length).toBe(1);
    expect(adv[0]!.fromIndex).toBe(0);
    expect(adv[0]!.toIndex).toBe(line.length - 1);
  });

  it('reachable area times equal the oracle and grow with the budget', () => {
    const cost = costsFor(g, profileFor(Activity.WALKING));
    const rnd = seeded(11);
    let v = 0;
    do v = Math.floor(rnd() * g.nodeCount);
    while (oracleCost(g, cost, v, (v + 1) % g.nodeCount) === Infinity);
    const small = engine.reachable({ activity: Activity.WALKING, center: at(v), budget: 300 });
    const big = engine.reachable({ activity: Activity.WALKING, center: at(v), budget: 900 });
    if (!small.ok || !big.ok) throw new Error('reachable failed');
    expect(big.points.length).toBeGreaterThan(small.points.length);
    const byPos = new Map<string, number>();
    for (let u = 0; u < g.nodeCount; u++) byPos.set(`${lonOf(g, u)},${latOf(g, u)}`, u);
    for (let i = 0; i < big.points.length; i += 3 * 7) {
      const u = byPos.get(`${big.points[i]},${big.points[i + 1]}`)!;
      const t = big.points[i + 2]!;
      expect(t).toBeLessThanOrEqual(900);
      expect(Math.abs(t - oracleCost(g, cost, v, u))).toBeLessThanOrEqual(0.01);
    }
  });

  it('a freehand line that starts far from the network is a failure value naming its first point', () => {
    const out = engine.snapLine({
      activity: Activity.HIKING_AND_TRAIL,
      coordinates: [
        [2.5, 43.5],
        [1.56, 42.5],
      ],
    });
    expect(out).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'coordinates', 0] });
  });

  it('unroutable or invalid input comes back as failure values', () => {
    const far = engine.directions({
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [
        [10, 10],
        [1.56, 42.5],
      ],
    });
    expect(far).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'waypoints', 0] });
    const one = engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: [[1.56, 42.5]] });
    expect(one).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
    const bad = engine.directions({
      activity: 'SKIING' as Activity,
      waypoints: [
        [1.56, 42.5],
        [1.57, 42.5],
      ],
    });
    expect(bad).toMatchObject({ ok: false, path: ['input', 'activity'] });
  });

  it('names the kind of each failure: a point off the network, or a bad field', () => {
    const directions = (waypoints: LonLat[]) => engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints });
    expect(
      directions([
        [1.56, 42.5],
        [10, 10],
      ]),
    ).toMatchObject({ ok: false, kind: 'off_network', path: ['input', 'waypoints', 1] });
    expect(directions([[1.56, 42.5]])).toMatchObject({ ok: false, kind: 'bad_input', path: ['input', 'waypoints'] });
    const line = engine.snapLine({
      activity: Activity.HIKING_AND_TRAIL,
      coordinates: [
        [1.56, 42.5],
        [2.5, 43.5],
      ],
    });
    expect(line).toMatchObject({ ok: false, kind: 'off_network', path: ['input', 'coordinates', 1] });
    expect(engine.snap({ activity: Activity.HIKING_AND_TRAIL, point: [10, 10] })).toMatchObject({
      ok: false,
      kind: 'off_network',
      path: ['input', 'point'],
    });
  });
});
