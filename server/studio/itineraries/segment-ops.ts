// Plans of the segment operations (append, insert, update, delete, merge, split, mode): which parts each
// must hold locked, and how it builds the next chain. Positions are chain indexes: segment k runs from
// waypoint k to waypoint k + 1.

import type { SegmentEngine } from '../../../data/model/segment.js';
import { ApiError } from '../../errors.js';
import {
  type Chain,
  joinedHazards,
  type ChainSegment,
  joinLines,
  type MeasuredGeometry,
  newSegment,
  newWaypoint,
  samePlace,
  segmentIndex,
  splitHazards,
  toCoord,
  withLine,
} from './chain.js';
import type { EditPlan } from './chain-edit.js';
import { type FieldPath, type LineSplit, measureFreehand, type RouteContext, routeSmart, splitLineAt } from './chain-routing.js';

// Failure paths name fields of the operation's input.
const field = (...path: (string | number)[]): FieldPath => path;
const seg = (id: string) => ({ type: 'segment' as const, id });
const wpt = (id: string) => ({ type: 'waypoint' as const, id });

/** The index of the segment named in the path; 404 when it is not in this itinerary. */
export function segmentAt(chain: Chain, id: string): number {
  const k = segmentIndex(chain, id);
  if (k < 0) throw new ApiError('NOT_FOUND');
  return k;
}

/** A line from `points` for `engine` (smart: routed between the first and last; freehand: as drawn). */
export function lineFor(
  route: RouteContext,
  engine: SegmentEngine,
  points: (readonly number[])[],
  path: FieldPath,
): Promise<MeasuredGeometry> {
  return engine === 'smart' ? routeSmart(route, [points[0]!, points[points.length - 1]!], path) : measureFreehand(route, points, path);
}

/** Re-shapes `s` so that it runs from `from` to `to` (smart: re-routed; freehand: end vertices moved). */
export async function reattach(
  route: RouteContext,
  s: ChainSegment,
  from: readonly number[],
  to: readonly number[],
  path: FieldPath,
): Promise<ChainSegment> {
  if (s.engine === 'smart') return withLine(s, await routeSmart(route, [from, to], path));
  const pts: number[][] = s.geometry.map((c) => [...c]);
  pts[0] = [...from];
  pts[pts.length - 1] = [...to];
  return withLine(s, await measureFreehand(route, pts, path));
}

export type AppendBody = { engine: 'smart'; to: number[]; from?: number[] } | { engine: 'freehand'; coordinates: number[][] };

export function planAppend(input: AppendBody): (chain: Chain) => EditPlan {
  return (chain) => {
    const empty = chain.segments.length === 0;
    if (input.engine === 'smart' && empty && !input.from)
      throw ApiError.validation([{ path: field('from'), messageKey: 'VALIDATION_FAILED.required' }]);
    if (input.engine === 'freehand') {
      const end = chain.waypoints[chain.waypoints.length - 1]?.coord;
      const pts = !end || samePlace(input.coordinates[0]!, end) ? input.coordinates : [end, ...input.coordinates];
      if (pts.length < 2) throw ApiError.validation([{ path: field('coordinates'), messageKey: 'VALIDATION_FAILED.one_position' }]);
    }
    return {
      guard: [],
      async build(next, route) {
        const end = next.waypoints[next.waypoints.length - 1]?.coord;
        let line: MeasuredGeometry;
        let start: number[];
        if (input.engine === 'smart') {
          start = end ? [...end] : input.from!;
          line = await routeSmart(route, [start, input.to], field('to'), end ? undefined : field('from'));
        } else {
          const pts = !end || samePlace(input.coordinates[0]!, end) ? input.coordinates : [end, ...input.coordinates];
          start = pts[0]!;
          line = await measureFreehand(route, pts, field('coordinates'));
        }
        if (!end) next.waypoints.push(newWaypoint(toCoord(start)));
        next.waypoints.push(newWaypoint(line.geometry[line.geometry.length - 1]!));
        next.segments.push(newSegment(input.engine, line));
        return next;
      },
    };
  };
}

export interface InsertBody {
  before_segment_id: string;
  point: number[];
  engine: SegmentEngine;
}

export function planInsert(input: InsertBody): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentIndex(chain, input.before_segment_id);
    if (k < 0) throw ApiError.validation([{ path: field('before_segment_id'), messageKey: 'VALIDATION_FAILED.unknown_segment' }]);
    const guard = [...(k > 0 ? [seg(chain.segments[k - 1]!.id)] : []), seg(chain.segments[k]!.id)];
    return {
      guard,
      async build(next, route) {
        const point = toCoord(input.point);
        const following = next.segments[k]!;
        if (k === 0) {
          const line = await lineFor(route, input.engine, [point, next.waypoints[0]!.coord], field('point'));
          next.segments.unshift(newSegment(input.engine, line));
          next.waypoints.unshift(newWaypoint(point));
          return next;
        }
        const from = next.waypoints[k]!.coord;
        const line = await lineFor(route, input.engine, [from, point], field('point'));
        const inserted = newSegment(input.engine, line);
        const previous = next.segments[k - 1]!;
        if (previous.groupId !== null && previous.groupId === following.groupId) inserted.groupId = previous.groupId;
        next.segments[k] = await reattach(route, following, point, next.waypoints[k + 1]!.coord, field('point'));
        next.segments.splice(k, 0, inserted);
        next.waypoints.splice(k + 1, 0, newWaypoint(point));
        return next;
      },
    };
  };
}

export interface SegmentUpdateBody {
  name?: string | null;
  description?: string | null;
  group_id?: string | null;
  coordinates?: number[][];
}

/** True when every group's segments sit next to each other. */
export function groupsContiguous(chain: Chain): boolean {
  const seen = new Set<string>();
  let prev: string | null = null;
  for (const s of chain.segments) {
    if (s.groupId !== null && s.groupId !== prev) {
      if (seen.has(s.groupId)) return false;
      seen.add(s.groupId);
    }
    prev = s.groupId;
  }
  return true;
}

export function planUpdate(segmentId: string, input: SegmentUpdateBody): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentAt(chain, segmentId);
    const s = chain.segments[k]!;
    const errors: { path: FieldPath }[] = [];
    if (input.coordinates) {
      const c = input.coordinates;
      if (s.engine !== 'freehand') errors.push({ path: field('coordinates') });
      else {
        if (!samePlace(c[0]!, chain.waypoints[k]!.coord)) errors.push({ path: field('coordinates', 0) });
        if (!samePlace(c[c.length - 1]!, chain.waypoints[k + 1]!.coord)) errors.push({ path: field('coordinates', c.length - 1) });
      }
    }
    if (input.group_id !== undefined) {
      const trial = structuredClone(chain);
      trial.segments[k]!.groupId = input.group_id;
      const known = input.group_id === null || chain.groups.some((g) => g.id === input.group_id);
      if (!known || !groupsContiguous(trial)) errors.push({ path: field('group_id') });
    }
    if (errors.length > 0) throw ApiError.validation(errors);
    return {
      guard: [seg(s.id)],
      async build(next, route) {
        let target = next.segments[k]!;
        if (input.coordinates) target = withLine(target, await measureFreehand(route, input.coordinates, field('coordinates')));
        if (input.name !== undefined) target.name = input.name;
        if (input.description !== undefined) target.description = input.description;
        if (input.group_id !== undefined) target.groupId = input.group_id;
        next.segments[k] = target;
        return next;
      },
    };
  };
}

export function planDelete(segmentId: string): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentAt(chain, segmentId);
    const middle = k > 0 && k < chain.segments.length - 1;
    return {
      // A middle segment's removal reshapes the following one, so that one is changed too.
      guard: [seg(segmentId), ...(middle ? [seg(chain.segments[k + 1]!.id)] : [])],
      async build(next, route) {
        const last = next.segments.length - 1;
        if (k === 0 || k === last) {
          next.segments.splice(k, 1);
          next.waypoints.splice(k === 0 ? 0 : k + 1, 1);
          return next;
        }
        // A middle segment: its end waypoint goes and the following segment starts where it started.
        next.segments[k + 1] = await reattach(route, next.segments[k + 1]!, next.waypoints[k]!.coord, next.waypoints[k + 2]!.coord, [
          'segment_id',
        ]);
        next.segments.splice(k, 1);
        next.waypoints.splice(k + 1, 1);
        return next;
      },
    };
  };
}

/** Sum of two consecutive segments' measures over their joined line. */
function joined(a: ChainSegment, b: ChainSegment): MeasuredGeometry {
  return {
    geometry: joinLines(a.geometry, b.geometry),
    distance: a.distance + b.distance,
    ascent: a.ascent + b.ascent,
    descent: a.descent + b.descent,
    duration: a.duration + b.duration,
    hazards: joinedHazards(a, b),
  };
}

export function planMerge(segmentId: string, withId: string): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentAt(chain, segmentId);
    const m = segmentIndex(chain, withId);
    const ok = m >= 0 && Math.abs(k - m) === 1 && chain.segments[m]!.engine === chain.segments[k]!.engine;
    if (!ok) throw ApiError.validation([{ path: field('with_segment_id'), messageKey: 'VALIDATION_FAILED.merge_neighbour' }]);
    return {
      guard: [seg(segmentId), seg(withId)],
      build(next) {
        const a = Math.min(k, m);
        const first = next.segments[a]!;
        const second = next.segments[a + 1]!;
        const kept = next.segments[k]!;
        const merged: ChainSegment = {
          ...withLine(kept, joined(first, second)),
          groupId: first.groupId === second.groupId ? first.groupId : null,
        };
        next.segments.splice(a, 2, merged);
        next.waypoints.splice(a + 1, 1);
        return next;
      },
    };
  };
}

/** Splits a segment at the point nearest the requested one (projected on the pool before the write). */
export function planSplit(segmentId: string, point: number[]): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentAt(chain, segmentId);
    const s = chain.segments[k]!;
    let split: LineSplit | undefined;
    return {
      guard: [seg(segmentId)],
      async prepare(route) {
        split = await splitLineAt(route, s.geometry, point, field('point'));
        if (samePlace(split.at, s.geometry[0]!) || samePlace(split.at, s.geometry[s.geometry.length - 1]!)) {
          throw ApiError.validation([{ path: field('point'), messageKey: 'VALIDATION_FAILED.split_at_end' }]);
        }
      },
      build(next) {
        const { at, head, tail, headMeasures: h, tailMeasures: t } = split as LineSplit;
        // The segment's measures (routed or analysed) are shared in the proportions of the parts' own.
        const share = (a: number, b: number) => (a + b > 0 ? a / (a + b) : 0.5);
        const hazards = splitHazards(s.hazards, s.distance * share(h.distance, t.distance));
        const part = (mine: typeof h, other: typeof h): MeasuredGeometry => ({
          geometry: mine === h ? head : tail,
          distance: s.distance * share(mine.distance, other.distance),
          ascent: s.ascent * share(mine.ascent, other.ascent),
          descent: s.descent * share(mine.descent, other.descent),
          duration: s.duration * share(mine.distance, other.distance),
          hazards: mine === h ? hazards[0] : hazards[1],
        });
        const second = { ...newSegment(s.engine, part(t, h)), groupId: s.groupId };
        next.segments.splice(k, 1, withLine(s, part(h, t)), second);
        next.waypoints.splice(k + 1, 0, newWaypoint(at));
        return next;
      },
    };
  };
}

export function planMode(segmentId: string, engine: SegmentEngine): (chain: Chain) => EditPlan {
  return (chain) => {
    const k = segmentAt(chain, segmentId);
    return {
      guard: [seg(segmentId)],
      async build(next, route) {
        const s = next.segments[k]!;
        if (s.engine === engine) return next;
        if (engine === 'freehand') next.segments[k] = { ...s, engine };
        else next.segments[k] = withLine(s, await routeSmart(route, s.geometry, field('engine')), 'smart');
        return next;
      },
    };
  };
}

export { seg, wpt };
