// Publishing (an immutable snapshot of the draft) and duplicating (optionally into another organization,
// optionally a continuous run of the chain).

import type { Access } from '../../auth/access.js';
import { writerIn } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Chain, loadChain, newId, saveChain, sealChain } from './chain.js';
import { insertItinerary } from './itinerary-service.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { itineraryView } from './itinerary-view.js';
import { encodeSnapshot, publishedView, snapshotOf } from './published-snapshot.js';
import { requireNoOtherLocks } from './lock-service.js';

/** postItineraryPublish: 409 when another member holds any lock; answers the published view. */
export async function publishItinerary(deps: StudioDeps, access: Access, id: string): Promise<ItineraryView> {
  const { actor } = await deps.policy.writableItinerary(access, id);
  await deps.writes.settled();
  return deps.writes.write(async ({ emit }) => {
    const it = await deps.stores.itineraries.get(id);
    if (!it) throw new ApiError('NOT_FOUND');
    await requireNoOtherLocks(deps, id, actor);
    const chain = await loadChain(deps.stores, id);
    const snapshot = snapshotOf(it, chain);
    const published = await deps.stores.itineraries.publish(id, encodeSnapshot(snapshot));
    if (!published) throw new ApiError('NOT_FOUND');
    emit({
      type: 'itinerary.published',
      organizationId: it.organizationId,
      itineraryId: id,
      version: published.publishedVersion as number,
    });
    return publishedView(published, snapshot);
  });
}

export interface DuplicateBody {
  name?: string;
  organization_id?: string;
  segment_ids?: string[];
  waypoint_ids?: string[];
}

// Failure paths name fields of the operation's input.
const field = (...path: (string | number)[]) => path;

/** The kept run of segments [first, last] (inclusive); 400 when the choice is not one continuous run. */
function keptRun(chain: Chain, input: DuplicateBody): [number, number] | undefined {
  const n = chain.segments.length;
  const run = (ids: string[], all: { id: string }[], name: string): number[] => {
    const errors: { path: (string | number)[] }[] = [];
    const idx = ids.map((id, i) => {
      const k = all.findIndex((x) => x.id === id);
      if (k < 0 || ids.indexOf(id) !== i) errors.push({ path: field(name, i) });
      return k;
    });
    if (errors.length > 0) throw ApiError.validation(errors);
    idx.sort((a, b) => a - b);
    if (idx.some((k, i) => i > 0 && k !== idx[i - 1]! + 1))
      throw ApiError.validation([{ path: field(name), messageKey: 'VALIDATION_FAILED.not_neighbours' }]);
    return idx;
  };
  let range: [number, number] | undefined;
  if (input.segment_ids) {
    const idx = run(input.segment_ids, chain.segments, 'segment_ids');
    range = idx.length > 0 ? [idx[0]!, idx[idx.length - 1]!] : undefined;
    if (!range) throw ApiError.validation([{ path: field('segment_ids'), messageKey: 'VALIDATION_FAILED.unknown_segment' }]);
  }
  if (input.waypoint_ids) {
    const idx = run(input.waypoint_ids, chain.waypoints, 'waypoint_ids');
    const fromWaypoints: [number, number] | undefined = idx.length >= 2 ? [idx[0]!, idx[idx.length - 1]! - 1] : undefined;
    const agrees = fromWaypoints && (!range || (range[0] === fromWaypoints[0] && range[1] === fromWaypoints[1]));
    if (!agrees) throw ApiError.validation([{ path: field('waypoint_ids'), messageKey: 'VALIDATION_FAILED.waypoints_mismatch' }]);
    range = fromWaypoints;
  }
  return range ?? (n > 0 ? [0, n - 1] : undefined);
}

/** A copy of segments [a, b] with their joints and groups, every part under a new id. */
function copyRun(chain: Chain, range: [number, number] | undefined): Chain {
  if (!range) return { waypoints: [], segments: [], groups: [] };
  const [a, b] = range;
  const groupIds = new Map<string, string>();
  const segments = chain.segments.slice(a, b + 1).map((s) => {
    let groupId: string | null = null;
    if (s.groupId !== null) {
      groupId = groupIds.get(s.groupId) ?? newId();
      groupIds.set(s.groupId, groupId);
    }
    return { ...structuredClone(s), id: newId(), groupId };
  });
  const waypoints = chain.waypoints.slice(a, b + 2).map((w) => ({ ...structuredClone(w), id: newId() }));
  const groups = chain.groups.filter((g) => groupIds.has(g.id)).map((g) => ({ ...g, id: groupIds.get(g.id)! }));
  return sealChain({ waypoints, segments, groups });
}

/** postItineraryDuplicate. */
export async function duplicateItinerary(
  deps: StudioDeps,
  access: Access,
  id: string,
  input: DuplicateBody,
  actor: string,
): Promise<ItineraryView> {
  await deps.writes.settled();
  const source = await deps.policy.readableItinerary(access, id);
  const target = input.organization_id ?? (access.kind === 'key' ? access.organization.id : source.organizationId);
  if (writerIn(access, target) === undefined) throw new ApiError('FORBIDDEN');
  const chain = await loadChain(deps.stores, id);
  const copy = copyRun(chain, keptRun(chain, input));
  const name = input.name ?? `${source.name.slice(0, 193)} (copy)`;
  return deps.writes.write(async (scope) => {
    const it = await insertItinerary(deps, scope, {
      organizationId: target,
      actorUserId: actor,
      name,
      description: source.description,
      activity: source.activity,
      privacy: source.privacy,
    });
    await saveChain(deps.stores, it.id, { waypoints: [], segments: [], groups: [] }, copy);
    return itineraryView(it, copy);
  });
}
