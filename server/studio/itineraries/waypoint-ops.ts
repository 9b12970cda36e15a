// Plans of the waypoint operations: update (rename, re-kind, describe, move: smart neighbours re-route, freehand
// ones move their end vertex) and delete (the neighbours join into one segment).

import { ApiError } from '../../errors.js';
import { type Chain, type ChainSegment, joinedHazards, joinLines, toCoord, waypointIndex, withLine } from './chain.js';
import type { EditPlan } from './chain-edit.js';
import { routeSmart } from './chain-routing.js';
import { reattach, seg, wpt } from './segment-ops.js';

function waypointAt(chain: Chain, id: string): number {
  const j = waypointIndex(chain, id);
  if (j < 0) throw new ApiError('NOT_FOUND');
  return j;
}

/** The waypoint and the segments on either side of it. */
function guardOf(chain: Chain, j: number) {
  return [
    wpt(chain.waypoints[j]!.id),
    ...(j > 0 ? [seg(chain.segments[j - 1]!.id)] : []),
    ...(j < chain.segments.length ? [seg(chain.segments[j]!.id)] : []),
  ];
}

export interface WaypointUpdateBody {
  name?: string | null;
  kind?: string | null;
  description?: string | null;
  coordinates?: number[];
}

export function planWaypointUpdate(waypointId: string, input: WaypointUpdateBody): (chain: Chain) => EditPlan {
  return (chain) => {
    const j = waypointAt(chain, waypointId);
    return {
      guard: guardOf(chain, j),
      async build(next, route) {
        const w = next.waypoints[j]!;
        if (input.name !== undefined) w.name = input.name;
        if (input.kind !== undefined) w.kind = input.kind;
        if (input.description !== undefined) w.description = input.description;
        if (input.coordinates) {
          const to = toCoord(input.coordinates);
          const path = ['coordinates'];
          if (j > 0) next.segments[j - 1] = await reattach(route, next.segments[j - 1]!, next.waypoints[j - 1]!.coord, to, path);
          if (j < next.segments.length) next.segments[j] = await reattach(route, next.segments[j]!, to, next.waypoints[j + 1]!.coord, path);
          w.coord = to;
        }
        return next;
      },
    };
  };
}

export function planWaypointDelete(waypointId: string): (chain: Chain) => EditPlan {
  return (chain) => {
    const j = waypointAt(chain, waypointId);
    return {
      guard: guardOf(chain, j),
      async build(next, route) {
        const last = next.waypoints.length - 1;
        if (next.segments.length === 1) return { waypoints: [], segments: [], groups: [] };
        if (j === 0 || j === last) {
          next.waypoints.splice(j, 1);
          next.segments.splice(j === 0 ? 0 : j - 1, 1);
          return next;
        }
        const a = next.segments[j - 1]!;
        const b = next.segments[j]!;
        let merged: ChainSegment;
        if (a.engine === 'smart') {
          const line = await routeSmart(route, [next.waypoints[j - 1]!.coord, next.waypoints[j + 1]!.coord], ['waypoint_id']);
          merged = withLine(a, line);
        } else {
          merged = withLine(a, {
            geometry: joinLines(a.geometry, b.geometry),
            distance: a.distance + b.distance,
            ascent: a.ascent + b.ascent,
            descent: a.descent + b.descent,
            duration: a.duration + b.duration,
            hazards: joinedHazards(a, b),
          });
        }
        merged.groupId = a.groupId === b.groupId ? a.groupId : null;
        next.segments.splice(j - 1, 2, merged);
        next.waypoints.splice(j, 1);
        return next;
      },
    };
  };
}
