// Property: whatever sequence of chain operations a client sends (append, insert, split, merge, delete,
// mode, waypoint move and delete, groups), the chain stays continuous to the coordinate, positions run
// 0..n-1 and waypoints sit on the joints; and any refused operation (lock held by another member, bad
// input, unroutable line) leaves the itinerary exactly as it was. In-process through the real pipeline
// with a real worker pool routing on the demo region.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedResult } from '../../../../data/seed.js';
import { expectContinuousChain, networkPoints, type Send } from './chain-helpers.js';
import { type InProcessStudio, startInProcessStudio } from './in-process-studio.js';

let studio: InProcessStudio;
let seeded: SeedResult;
let owner: Send;
let other: Send;
let otherId: string;

beforeAll(async () => {
  studio = await startInProcessStudio();
  ({ seeded, otherId } = studio);
  const client = studio.client;
  const key = seeded.publishableKey.key;
  owner = client({ 'X-API-Key': key, 'X-User-Id': seeded.owner.id });
  other = client({ 'X-API-Key': key, 'X-User-Id': otherId });
});

afterAll(async () => {
  await studio?.close();
});

type Engine = 'smart' | 'freehand';
type Action =
  | { op: 'append'; engine: Engine; p: number; jitter: number }
  | { op: 'insert'; s: number; p: number; engine: Engine }
  | { op: 'split'; s: number; f: number }
  | { op: 'merge'; s: number; next: boolean }
  | { op: 'deleteSegment'; s: number }
  | { op: 'mode'; s: number; engine: Engine }
  | { op: 'moveWaypoint'; w: number; p: number }
  | { op: 'deleteWaypoint'; w: number }
  | { op: 'group'; s: number; len: number }
  | { op: 'lockedOut'; s: number }
  | { op: 'badInput'; s: number; which: number };

const engine = fc.constantFrom<Engine>('smart', 'freehand');
const idx = fc.nat(50);
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('append' as const), engine, p: idx, jitter: fc.integer({ min: -3, max: 3 }) }), weight: 4 },
  fc.record({ op: fc.constant('insert' as const), s: idx, p: idx, engine }),
  fc.record({ op: fc.constant('split' as const), s: idx, f: fc.double({ min: 0.05, max: 0.95, noNaN: true }) }),
  fc.record({ op: fc.constant('merge' as const), s: idx, next: fc.boolean() }),
  fc.record({ op: fc.constant('deleteSegment' as const), s: idx }),
  fc.record({ op: fc.constant('mode' as const), s: idx, engine }),
  fc.record({ op: fc.constant('moveWaypoint' as const), w: idx, p: idx }),
  fc.record({ op: fc.constant('deleteWaypoint' as const), w: idx }),
  fc.record({ op: fc.constant('group' as const), s: idx, len: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('lockedOut' as const), s: idx }),
  fc.record({ op: fc.constant('badInput' as const), s: idx, which: fc.nat(3) }),
);

/**
 * The status of each step that must succeed whenever it applies: every point is on the demo region's network, so
 * any line between them routes. Merges and groups may be refused by the chain's rules (400), and the steps made to
 * be refused expect a refusal.
 */
const SUCCESS: Partial<Record<Action['op'], number>> = {
  append: 201,
  insert: 201,
  split: 200,
  deleteSegment: 200,
  mode: 200,
  moveWaypoint: 200,
  deleteWaypoint: 200,
};

const pick = <T>(items: readonly T[], i: number): T | undefined => (items.length === 0 ? undefined : items[i % items.length]);

/**
 * True when `point` lies on one of the itinerary's waypoints: a step there would make a segment of no length, which
 * the chain's rules may refuse ("a freehand segment needs at least one position beyond the current end").
 */
function onAWaypoint(it: any, point: number[]): boolean {
  return it.waypoints.some((w: any) => w.coordinates[0] === point[0] && w.coordinates[1] === point[1]);
}

/** A request for the action on the current itinerary, or undefined when it does not apply. */
function request(
  it: any,
  a: Action,
): { method: string; path: string; body?: unknown; expectRefusal?: boolean; mayBeRefused?: boolean } | undefined {
  const base = `/v1/itineraries/${it.id}`;
  const pts = networkPoints();
  const point = (p: number, jitter = 0): number[] => {
    const [lon, lat] = pick(pts, p)!;
    return [lon + jitter * 0.0004, lat + jitter * 0.0003];
  };
  const seg = pick<any>(it.segments, 'p' in a ? 0 : 'w' in a ? a.w : a.s);
  switch (a.op) {
    case 'append': {
      const to = point(a.p, a.engine === 'freehand' ? a.jitter : 0);
      const mayBeRefused = onAWaypoint(it, to);
      if (a.engine === 'smart')
        return { method: 'POST', path: `${base}/segments`, body: { engine: 'smart', to, from: point(a.p + 7) }, mayBeRefused };
      const from = it.segments.length === 0 ? [point(a.p + 3, a.jitter)] : [];
      return { method: 'POST', path: `${base}/segments`, body: { engine: 'freehand', coordinates: [...from, to] }, mayBeRefused };
    }
    case 'insert':
      return (
        seg && {
          method: 'POST',
          path: `${base}/segments/insert`,
          body: { before_segment_id: seg.id, point: point(a.p), engine: a.engine },
          mayBeRefused: onAWaypoint(it, point(a.p)),
        }
      );
    case 'split': {
      if (!seg) return undefined;
      const c: number[][] = seg.geometry.coordinates;
      const x = a.f * (c.length - 1);
      const i = Math.min(c.length - 2, Math.floor(x));
      const t = x - i;
      const at = [c[i]![0]! + (c[i + 1]![0]! - c[i]![0]!) * t, c[i]![1]! + (c[i + 1]![1]! - c[i]![1]!) * t];
      // A segment of no length (a routed step onto the point where the chain already ended) has no inside to split at.
      const noLength = c.every((q) => q[0] === c[0]![0] && q[1] === c[0]![1]);
      return { method: 'POST', path: `${base}/segments/${seg.id}/split`, body: { point: at }, mayBeRefused: noLength };
    }
    case 'merge': {
      const k = it.segments.indexOf(seg);
      const nb = it.segments[a.next ? k + 1 : k - 1];
      return seg && nb && { method: 'POST', path: `${base}/segments/${seg.id}/merge`, body: { with_segment_id: nb.id } };
    }
    case 'deleteSegment':
      return seg && { method: 'DELETE', path: `${base}/segments/${seg.id}` };
    case 'mode':
      return seg && { method: 'PATCH', path: `${base}/segments/${seg.id}/mode`, body: { engine: a.engine } };
    case 'moveWaypoint': {
      const w = pick<any>(it.waypoints, a.w);
      return (
        w && {
          method: 'PUT',
          path: `${base}/waypoints/${w.id}`,
          body: { coordinates: point(a.p), name: `W${a.p}` },
          mayBeRefused: onAWaypoint(it, point(a.p)),
        }
      );
    }
    case 'deleteWaypoint': {
      const w = pick<any>(it.waypoints, a.w);
      return w && { method: 'DELETE', path: `${base}/waypoints/${w.id}` };
    }
    case 'group': {
      const k = it.segments.indexOf(seg);
      const ids = it.segments.slice(k, k + a.len).map((s: any) => s.id);
      return seg && { method: 'POST', path: `${base}/segment-groups`, body: { name: 'G', color: '#abcdef', segment_ids: ids } };
    }
    case 'lockedOut':
      return seg && { method: 'DELETE', path: `${base}/segments/${seg.id}`, expectRefusal: true };
    case 'badInput': {
      if (!seg) return undefined;
      const bodies = [
        { method: 'POST', path: `${base}/segments/${seg.id}/split`, body: { point: [500, 0] } },
        { method: 'POST', path: `${base}/segments/${seg.id}/merge`, body: { with_segment_id: seg.id } },
        { method: 'PUT', path: `${base}/segments/${seg.id}`, body: { mode: 'smart' } },
        { method: 'POST', path: `${base}/segments/insert`, body: { before_segment_id: seg.id, point: [10, 10], engine: 'smart' } },
      ];
      return { ...bodies[a.which % bodies.length]!, expectRefusal: true };
    }
  }
}

describe('chain operations, property-based', () => {
  it('keep the chain continuous after every step, and a refused step changes nothing', async () => {
    let run = 0;
    const stats = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 16 }), async (actions) => {
        const created = await owner('POST', '/v1/itineraries', { name: `Property ${++run}` });
        expect(created.status).toBe(201);
        const id = created.body.data.id;
        const read = async () => (await owner('GET', `/v1/itineraries/${id}`)).body.data;
        for (const a of actions) {
          const before = await read();
          const req = request(before, a);
          if (!req) continue;
          if (a.op === 'lockedOut') {
            await owner('DELETE', `/v1/itineraries/${id}/locks`);
            const taken = await other('POST', `/v1/itineraries/${id}/locks`, { parts: 'all' });
            expect(taken.status).toBe(200);
          } else if (before.segments.length > 0) {
            expect((await owner('POST', `/v1/itineraries/${id}/locks`, { parts: 'all' })).status).toBe(200);
          }
          const res = await owner(req.method, req.path, req.body);
          const after = await read();
          if (process.env.CHAIN_STATS) stats.set(`${a.op} ${res.status}`, (stats.get(`${a.op} ${res.status}`) ?? 0) + 1);
          expect(res.status).toBeLessThan(500);
          if (req.expectRefusal) expect(res.status).toBeGreaterThanOrEqual(400);
          const success = SUCCESS[a.op];
          if (success !== undefined && !req.mayBeRefused) expect(res.status, `${a.op}: ${JSON.stringify(res.body)}`).toBe(success);
          if (a.op === 'lockedOut') {
            expect(res.status).toBe(409);
            expect(res.body.extensions.metadata.holder.id).toBe(otherId);
            await other('DELETE', `/v1/itineraries/${id}/locks`);
          }
          if (res.status >= 400) {
            expect(after).toEqual(before);
          } else {
            expect(after.version).toBe(before.version + 1);
          }
          expectContinuousChain(after);
        }
      }),
      { numRuns: 150, endOnFailure: true },
    );
    if (process.env.CHAIN_STATS) console.log([...stats].sort().join('\n'));
  }, 240_000);
});
