import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import { MAX_STRETCH, MIN_DIFFERENCE } from '../../workers/alternatives.js';
import { Activity, ACTIVITIES } from '../../contracts/activity.js';
import type { DirectionsOutput, LonLat, RouteResult } from '../../contracts/routing.js';
import type { TaskFailure } from '../../contracts/task-failure.js';
import { RouteEngine } from '../../workers/route-engine.js';
import { seeded } from './routing-oracle.js';
import { latOf, lonOf } from '../../data/region/region-graph.js';

let region: Region;
let engine: RouteEngine;

beforeAll(() => {
  region = buildDemoRegion();
  engine = new RouteEngine(region.graph, region.dem, { kernel: { build: 'debug' } });
});

/** Two points across the demo valley with several ways between them. */
const ACROSS: LonLat[] = [
  [1.551, 42.4952],
  [1.5703, 42.5049],
];

function routes(out: DirectionsOutput | TaskFailure): RouteResult[] {
  expect(out.ok, JSON.stringify(out)).toBe(true);
  return (out as DirectionsOutput).routes;
}

/** Rounded-to-the-micro-degree points of a route, each visited stretch once (the route's footprint). */
function pieces(r: RouteResult): Map<string, number> {
  const out = new Map<string, number>();
  const c = r.coordinates;
  for (let i = 0; i + 5 < c.length; i += 3) {
    const a = `${c[i]!.toFixed(6)},${c[i + 1]!.toFixed(6)}`;
    const b = `${c[i + 3]!.toFixed(6)},${c[i + 4]!.toFixed(6)}`;
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    const len = Math.hypot((c[i + 3]! - c[i]!) * Math.cos((c[i + 1]! * Math.PI) / 180), c[i + 4]! - c[i + 1]!);
    out.set(key, len);
  }
  return out;
}

/** Fraction of `a`'s footprint that `b` does not share. */
function offShare(a: Map<string, number>, b: Map<string, number>): number {
  let total = 0;
  let off = 0;
  for (const [k, len] of a) {
    total += len;
    if (!b.has(k)) off += len;
  }
  return off / total;
}

describe('alternative routes', () => {
  it('without alternatives asked for, the answer is the single best route, as before', () => {
    const plain = routes(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: ACROSS }));
    const zero = routes(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: ACROSS, alternatives: 0 }));
    expect(plain).toHaveLength(1);
    expect(zero).toEqual(plain);
  });

  it('the first route is unchanged by asking for alternatives, and the valley crossing has at least one', () => {
    const plain = routes(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: ACROSS }));
    const withAlternatives = routes(engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: ACROSS, alternatives: 3 }));
    expect(withAlternatives[0]).toEqual(plain[0]);
    expect(withAlternatives.length).toBeGreaterThan(1);
    expect(withAlternatives.length).toBeLessThanOrEqual(4);
  });

  it('every pair of routes differs by at least 20% of each one length, and none is past the stretch limit (seeded pairs)', () => {
    const rnd = seeded(7);
    const g = region.graph;
    let withAlternatives = 0;
    for (let n = 0; n < 40; n++) {
      const activity = ACTIVITIES[n % ACTIVITIES.length]!;
      const a = Math.floor(rnd() * g.nodeCount);
      const b = Math.floor(rnd() * g.nodeCount);
      const waypoints: LonLat[] = [
        [lonOf(g, a), latOf(g, a)],
        [lonOf(g, b), latOf(g, b)],
      ];
      const out = engine.directions({ activity, waypoints, alternatives: 3 });
      if (!out.ok) continue;
      const rs = out.routes;
      if (rs.length > 1) withAlternatives++;
      const footprints = rs.map(pieces);
      for (let i = 0; i < rs.length; i++) {
        if (i > 0) expect(rs[i]!.duration).toBeLessThanOrEqual(rs[0]!.duration * MAX_STRETCH + 1e-6);
        for (let j = 0; j < rs.length; j++) {
          if (i === j) continue;
          // Measured on the returned geometry (independently of the engine's edge bookkeeping), with a
          // little slack for the partial first and last edges.
          expect(offShare(footprints[i]!, footprints[j]!)).toBeGreaterThanOrEqual(MIN_DIFFERENCE - 0.02);
        }
      }
      for (let i = 2; i < rs.length; i++) expect(rs[i]!.duration).toBeGreaterThanOrEqual(rs[i - 1]!.duration - 1e-6);
    }
    expect(withAlternatives).toBeGreaterThan(5);
  });

  it('each alternative follows the avoidance rule: a masked pass only when it crosses an avoided hazard', () => {
    const rs = routes(
      engine.directions({
        activity: Activity.HIKING_AND_TRAIL,
        waypoints: ACROSS,
        avoid: ['TOLLWAY', 'RESTRICTED_ACCESS'],
        alternatives: 3,
      }),
    );
    for (const r of rs) {
      const restrictive = r.advisories.filter((a) => a.isRestriction || a.kind === 'TOLLWAY');
      if (r.avoidance === 'NO_ROUTE') expect(restrictive.length).toBeGreaterThan(0);
      else expect(restrictive).toEqual([]);
    }
  });

  it('refuses a number of alternatives outside 0–3 at its input path', () => {
    for (const alternatives of [-1, 4, 1.5]) {
      const out = engine.directions({ activity: Activity.HIKING_AND_TRAIL, waypoints: ACROSS, alternatives });
      expect(out).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'alternatives'] });
    }
  });

  it('a neutral penalty routes at the same cost as the hierarchy', () => {
    const g = region.graph;
    const kernel = engine.kernel;
    engine.prepare(Activity.WALKING);
    const rnd = seeded(11);
    for (let n = 0; n < 30; n++) {
      const from = { edge: Math.floor(rnd() * g.edgeCount), fraction: 0.5 };
      const to = { edge: Math.floor(rnd() * g.edgeCount), fraction: 0.25 };
      const direct = kernel.route(from, to, 1, 0);
      const penalised = kernel.routePenalised(from, to, 1, 0, kernel.newPenalty());
      expect(penalised === null).toBe(direct === null);
      if (direct && penalised) expect(penalised.cost).toBeCloseTo(direct.cost, 3);
    }
  });
});
