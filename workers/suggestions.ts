// Route ideas for a target distance or duration: loops from a start, or point-to-point routes to an end that
// take a detour to reach the target. Every idea is routed with toll and access-restricted ways removed from
// the network (no opt-out: a suggestion is something we propose, not something the user drew).
//
// Loops are triangles start → A → B → start, with A and B placed around the start at a radius guessed from
// the target (trails wind: a detour factor of 1.3), for 12 bearings and both turning senses; each is routed
// once, then rescaled once by target / actual. Point-to-point ideas go through one via point beside the
// straight line, on either side at three positions. Ideas are ranked by closeness to the target, then ascent
// per kilometre, then the hardest difficulty on the way; one sharing most of its edges with a better idea
// is dropped, so the ideas differ.

import { failure, type TaskFailure } from '../contracts/task-failure.js';
import {
  type LonLat,
  type MeasuredLine,
  type Suggestion,
  SUGGESTION_LIMITS,
  type SuggestionsInput,
  type SuggestionsOutput,
} from '../contracts/routing.js';
import { HAZARD_BITS } from './profiles.js';
import { M_PER_DEG_LAT, metresPerDegLon } from './local-plane.js';
import type { RouteEngine } from './route-engine.js';

const AVOID = HAZARD_BITS.TOLLWAY | HAZARD_BITS.RESTRICTED_ACCESS;
const DETOUR = 1.3;
const BEARINGS = 12;
/** Ideas sharing more than this fraction of their edges with a better one are dropped. */
const MAX_OVERLAP = 0.6;
/** Ideas after the first must be within this fraction of the target. */
const MAX_MISS = 0.35;
const DIFFICULTY_RANK: Record<string, number> = { UNKNOWN: 0, T1: 1, T2: 2, T3: 3, T4: 4, T5: 5, T6: 6 };

interface Candidate {
  suggestion: Suggestion;
  edges: Set<number>;
  /** |achieved − target| / target. */
  closeness: number;
  score: number;
}

export function suggestRoutes(engine: RouteEngine, input: SuggestionsInput): SuggestionsOutput | TaskFailure {
  const byDuration = input.targetDuration !== undefined;
  const target = (byDuration ? input.targetDuration : input.targetDistance) as number;
  const measure = (line: MeasuredLine) => (byDuration ? line.duration : line.distance);
  // A first guess of the distance to cover: for a duration, at the pace the profile keeps on this network.
  const pace = byDuration ? probePace(engine, input) : 1;
  if (pace === undefined) return noIdea();
  const distance = byDuration ? target * pace : target;

  const candidates: Candidate[] = [];
  const tryRoute = (points: LonLat[], kind: Suggestion['kind']): MeasuredLine | undefined => {
    const routed = engine.measuredRoute(points, input.activity, AVOID);
    if (!routed || routed.route.distance === 0) return undefined;
    const suggestion: Suggestion = { ...routed.route, kind, via: points };
    const closeness = Math.abs(measure(suggestion) - target) / target;
    candidates.push({ suggestion, edges: new Set(routed.edges), closeness, score: score(suggestion, closeness) });
    return routed.route;
  };

  if (input.end) {
    const direct = tryRoute([input.start, input.end], 'POINT_TO_POINT');
    if (!direct) return noIdea();
    for (const side of [1, -1]) {
      for (const along of [0.3, 0.5, 0.7]) {
        let offset = detourOffset(input.start, input.end, distance / DETOUR);
        if (offset === 0) continue;
        for (let attempt = 0; attempt < 2; attempt++) {
          const via = beside(input.start, input.end, along, side * offset);
          const line = tryRoute([input.start, via, input.end], 'POINT_TO_POINT');
          if (!line) break;
          offset *= Math.max(0.5, Math.min(2, target / measure(line)));
        }
      }
    }
  } else {
    for (let b = 0; b < BEARINGS; b++) {
      for (const turn of [60, -60]) {
        let radius = distance / (3 * DETOUR);
        for (let attempt = 0; attempt < 2; attempt++) {
          const bearing = (360 / BEARINGS) * b;
          const a = offsetPoint(input.start, bearing, radius);
          const c = offsetPoint(input.start, bearing + turn, radius);
          const line = tryRoute([input.start, a, c, input.start], 'LOOP');
          if (!line) break;
          radius *= Math.max(0.5, Math.min(2, target / measure(line)));
        }
      }
    }
  }

  candidates.sort((x, y) => x.score - y.score);
  const chosen: Candidate[] = [];
  const limit = input.limit ?? SUGGESTION_LIMITS.limit.default;
  for (const c of candidates) {
    if (chosen.length >= limit) break;
    // Past the first, an idea far from the target is not worth proposing.
    if (chosen.length > 0 && c.closeness > MAX_MISS) break;
    if (chosen.some((k) => overlap(c.edges, k.edges) > MAX_OVERLAP)) continue;
    chosen.push(c);
  }
  if (chosen.length === 0) return noIdea();
  return { ok: true, suggestions: chosen.map((c) => c.suggestion) };
}

function noIdea(): TaskFailure {
  return failure('not_found', 'no route idea here avoids toll and access-restricted ways', ['input', 'start']);
}

/** Metres per second the profile keeps around the start: a short out-and-back probe; undefined when none routes. */
function probePace(engine: RouteEngine, input: SuggestionsInput): number | undefined {
  for (let b = 0; b < BEARINGS; b++) {
    const probe = engine.measuredRoute([input.start, offsetPoint(input.start, (360 / BEARINGS) * b, 1000)], input.activity, AVOID);
    if (probe && probe.route.duration > 0) return probe.route.distance / probe.route.duration;
  }
  return undefined;
}

/** Lower is better: closeness to the target first, then climbing per kilometre, then the hardest stretch. */
function score(s: Suggestion, closeness: number): number {
  const climb = s.distance > 0 ? s.ascent / (s.distance / 1000) : 0; // m per km
  const hardest = Math.max(0, ...s.trailDifficultyInfo.map((t) => DIFFICULTY_RANK[t.difficulty] ?? 0));
  return closeness + 0.001 * climb + 0.01 * hardest;
}

function overlap(a: Set<number>, b: Set<number>): number {
  let shared = 0;
  for (const e of a) if (b.has(e)) shared++;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

/** The point `metres` from `from` on `bearing` (degrees clockwise from north), on a local plane. */
function offsetPoint(from: LonLat, bearing: number, metres: number): LonLat {
  const rad = (bearing * Math.PI) / 180;
  const kx = metresPerDegLon(from[1]);
  return [from[0] + (Math.sin(rad) * metres) / kx, from[1] + (Math.cos(rad) * metres) / M_PER_DEG_LAT];
}

/** How far beside the straight line a via point must sit for start → via → end to be `length` long (0: no detour needed). */
function detourOffset(start: LonLat, end: LonLat, length: number): number {
  const d = planeDistance(start, end);
  return length > d ? Math.sqrt((length / 2) ** 2 - (d / 2) ** 2) : 0;
}

/** The point at fraction `along` of start → end, moved `offset` metres to its left (negative: right). */
function beside(start: LonLat, end: LonLat, along: number, offset: number): LonLat {
  const kx = metresPerDegLon(start[1]);
  const dx = (end[0] - start[0]) * kx;
  const dy = (end[1] - start[1]) * M_PER_DEG_LAT;
  const len = Math.hypot(dx, dy) || 1;
  const x = dx * along - (dy / len) * offset;
  const y = dy * along + (dx / len) * offset;
  return [start[0] + x / kx, start[1] + y / M_PER_DEG_LAT];
}

function planeDistance(a: LonLat, b: LonLat): number {
  const kx = metresPerDegLon(a[1]);
  return Math.hypot((b[0] - a[0]) * kx, (b[1] - a[1]) * M_PER_DEG_LAT);
}
