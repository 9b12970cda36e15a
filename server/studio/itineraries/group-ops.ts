// Plans of the segment-group operations: create (a run of neighbouring, ungrouped segments), update
// (name, color, speed), delete (ungroups its segments). Groups are flat.

import { ApiError } from '../../errors.js';
import { type Chain, newId } from './chain.js';
import type { EditPlan } from './chain-edit.js';

// Failure paths name fields of the operation's input.
const field = (...path: (string | number)[]) => path;
const grp = (id: string) => ({ type: 'segment_group' as const, id });

export interface GroupCreateBody {
  name: string;
  color: string;
  speed?: number | null;
  segment_ids: string[];
}

/** The create plan; `created.id` holds the new group's id once built. */
export function planGroupCreate(input: GroupCreateBody, created: { id?: string }): (chain: Chain) => EditPlan {
  return (chain) => {
    const errors: { path: (string | number)[] }[] = [];
    const indexes = input.segment_ids.map((id, i) => {
      const k = chain.segments.findIndex((s) => s.id === id);
      if (k < 0 || chain.segments[k]!.groupId !== null || input.segment_ids.indexOf(id) !== i)
        errors.push({ path: field('segment_ids', i) });
      return k;
    });
    if (errors.length > 0) throw ApiError.validation(errors);
    const sorted = [...indexes].sort((a, b) => a - b);
    if (sorted.some((k, i) => i > 0 && k !== sorted[i - 1]! + 1))
      throw ApiError.validation([{ path: field('segment_ids'), messageKey: 'VALIDATION_FAILED.not_neighbours' }]);
    return {
      guard: [],
      build(next) {
        const id = newId();
        created.id = id;
        next.groups.push({ id, name: input.name, color: input.color, speed: input.speed ?? null });
        for (const k of indexes) next.segments[k]!.groupId = id;
        return next;
      },
    };
  };
}

function groupAt(chain: Chain, id: string): number {
  const g = chain.groups.findIndex((x) => x.id === id);
  if (g < 0) throw new ApiError('NOT_FOUND');
  return g;
}

export interface GroupUpdateBody {
  name?: string;
  color?: string;
  speed?: number | null;
}

export function planGroupUpdate(groupId: string, input: GroupUpdateBody): (chain: Chain) => EditPlan {
  return (chain) => {
    const g = groupAt(chain, groupId);
    return {
      guard: [grp(groupId)],
      build(next) {
        const group = next.groups[g]!;
        if (input.name !== undefined) group.name = input.name;
        if (input.color !== undefined) group.color = input.color;
        if (input.speed !== undefined) group.speed = input.speed;
        return next;
      },
    };
  };
}

export function planGroupDelete(groupId: string): (chain: Chain) => EditPlan {
  return (chain) => {
    groupAt(chain, groupId);
    return {
      guard: [grp(groupId)],
      build(next) {
        next.groups = next.groups.filter((x) => x.id !== groupId);
        for (const s of next.segments) if (s.groupId === groupId) s.groupId = null;
        return next;
      },
    };
  };
}
