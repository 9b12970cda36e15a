// The itinerary operations (DESIGN §6: 18, 20–24, 30–44), transport-free: the record (create, read, update,
// delete, duplicate, publish), its soft locks, and the chain edits (segments, segment groups, waypoints),
// each of which runs through editChain (plan, route on the pool, one write). Each declares its input from the
// request schemas (./itinerary-schemas.ts: ranges included), checked before it runs whatever the transport;
// failure paths are relative to each operation's input.

import type { LockPart } from '../../../data/model/lock.js';
import type { Access } from '../../auth/access.js';
import { defineOperation, inputObject, type Operation, SHARED_READ_REACH, STUDIO_REACH } from '../../core/operation.js';
import { actorOf } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type EditPlan, editChain } from './chain-edit.js';
import * as S from './itinerary-schemas.js';
import type { Chain } from './chain.js';
import type { Itinerary } from '../../../data/model/itinerary.js';
import { type GroupCreateBody, type GroupUpdateBody, planGroupCreate, planGroupDelete, planGroupUpdate } from './group-ops.js';
import {
  type CreateBody,
  createItinerary,
  deleteItinerary,
  type PatchBody,
  patchItinerary,
  readVisibleItinerary,
} from './itinerary-service.js';
import type { GroupView, ItineraryView } from '../../../contracts/itinerary-view.js';
import { groupView } from './itinerary-view.js';
import { listLocks, type LockView, releaseLocks, takeLocks } from './lock-service.js';
import { type DuplicateBody, duplicateItinerary, publishItinerary } from './publish-service.js';
import {
  type AppendBody,
  type InsertBody,
  planAppend,
  planDelete,
  planInsert,
  planMerge,
  planMode,
  planSplit,
  planUpdate,
  type SegmentUpdateBody,
} from './segment-ops.js';
import type { SegmentEngine } from '../../../data/model/segment.js';
import { planWaypointDelete, planWaypointUpdate, type WaypointUpdateBody } from './waypoint-ops.js';

type ItineraryId = { itinerary_id: string };
type SegmentId = ItineraryId & { segment_id: string };
type GroupId = ItineraryId & { group_id: string };
type WaypointId = ItineraryId & { waypoint_id: string };
type Plan = (chain: Chain, itinerary: Itinerary) => EditPlan;

const reads = { scope: 'resources' as const, writes: false, reach: STUDIO_REACH };
const sharedReads = { scope: 'resources' as const, writes: false, reach: SHARED_READ_REACH };
const writes = { scope: 'resources' as const, writes: true, reach: STUDIO_REACH };

/** The member a write acts as (the access layer requires one for every write; 403 otherwise). */
function actor(caller: Access): string {
  const id = actorOf(caller);
  if (!id) throw new ApiError('FORBIDDEN');
  return id;
}

export function itineraryOperations(deps: StudioDeps) {
  /** A chain edit answering the itinerary's view; `checks` is its input schema and cross-field rules. */
  const chainEdit = <I extends ItineraryId>(
    id: string,
    checks: Pick<Operation<I, ItineraryView>, 'input' | 'refine'>,
    plan: (input: I) => Plan,
  ) =>
    defineOperation({
      id,
      ...writes,
      ...checks,
      async run(caller, input: I, { signal }): Promise<ItineraryView> {
        return (await editChain(deps, caller, input.itinerary_id, plan(input), { signal })).view;
      },
    });

  return {
    postItinerary: defineOperation({
      id: 'postItinerary',
      ...writes,
      input: inputObject({ body: S.ItineraryCreateParams }),
      run: (caller, input: CreateBody): Promise<ItineraryView> => createItinerary(deps, caller, input, actor(caller)),
    }),

    /** The draft (default) or the published snapshot; share tokens read the published one only. */
    getItinerary: defineOperation({
      id: 'getItinerary',
      ...sharedReads,
      input: inputObject({ params: S.ItineraryParams, query: S.ItineraryReadQuery }),
      run: (caller, input: ItineraryId & { version?: 'draft' | 'published' }): Promise<ItineraryView> =>
        readVisibleItinerary(deps, caller, input.itinerary_id, input.version),
    }),

    patchItinerary: defineOperation({
      id: 'patchItinerary',
      ...writes,
      input: inputObject({ params: S.ItineraryParams, body: S.ItineraryPatchParams }),
      run: (caller, { itinerary_id: id, ...fields }: ItineraryId & PatchBody, context): Promise<ItineraryView> =>
        patchItinerary(deps, caller, id, fields, context),
    }),

    deleteItinerary: defineOperation({
      id: 'deleteItinerary',
      ...writes,
      input: inputObject({ params: S.ItineraryParams }),
      run: (caller, input: ItineraryId): Promise<void> => deleteItinerary(deps, caller, input.itinerary_id),
    }),

    postItineraryDuplicate: defineOperation({
      id: 'postItineraryDuplicate',
      ...writes,
      input: inputObject({ params: S.ItineraryParams, body: S.ItineraryDuplicateParams }),
      run: (caller, { itinerary_id: id, ...fields }: ItineraryId & DuplicateBody): Promise<ItineraryView> =>
        duplicateItinerary(deps, caller, id, fields, actor(caller)),
    }),

    postItineraryPublish: defineOperation({
      id: 'postItineraryPublish',
      ...writes,
      input: inputObject({ params: S.ItineraryParams }),
      run: (caller, input: ItineraryId): Promise<ItineraryView> => publishItinerary(deps, caller, input.itinerary_id),
    }),

    getItineraryLocks: defineOperation({
      id: 'getItineraryLocks',
      ...reads,
      input: inputObject({ params: S.ItineraryParams }),
      run: (caller, input: ItineraryId): Promise<LockView[]> => listLocks(deps, caller, input.itinerary_id),
    }),

    /** All or nothing: 409 naming the holder when another member holds any part. */
    postItineraryLock: defineOperation({
      id: 'postItineraryLock',
      ...writes,
      input: inputObject({ params: S.ItineraryParams, body: S.ItineraryLockParams }),
      run: (caller, input: ItineraryId & { parts: LockPart[] | 'all' }): Promise<LockView[]> =>
        takeLocks(deps, caller, input.itinerary_id, input.parts),
    }),

    deleteItineraryLock: defineOperation({
      id: 'deleteItineraryLock',
      ...writes,
      input: inputObject({ params: S.ItineraryParams }),
      run: (caller, input: ItineraryId): Promise<void> => releaseLocks(deps, caller, input.itinerary_id),
    }),

    postItinerarySegment: chainEdit<ItineraryId & AppendBody>(
      'postItinerarySegment',
      {
        input: inputObject({ params: S.ItineraryParams, body: S.SegmentCreateParams }),
        refine: (input) => S.appendFieldsBroken(input as unknown as Record<string, unknown>),
      },
      (input) => planAppend(input),
    ),
    postItinerarySegmentInsert: chainEdit<ItineraryId & InsertBody>(
      'postItinerarySegmentInsert',
      { input: inputObject({ params: S.ItineraryParams, body: S.SegmentInsertParams }) },
      (input) => planInsert(input),
    ),
    putItinerarySegment: chainEdit<SegmentId & SegmentUpdateBody>(
      'putItinerarySegment',
      { input: inputObject({ params: S.SegmentParams, body: S.SegmentUpdateParams }) },
      (input) => planUpdate(input.segment_id, input),
    ),
    deleteItinerarySegment: chainEdit<SegmentId>('deleteItinerarySegment', { input: inputObject({ params: S.SegmentParams }) }, (input) =>
      planDelete(input.segment_id),
    ),
    postItinerarySegmentMerge: chainEdit<SegmentId & { with_segment_id: string }>(
      'postItinerarySegmentMerge',
      { input: inputObject({ params: S.SegmentParams, body: S.SegmentMergeParams }) },
      (input) => planMerge(input.segment_id, input.with_segment_id),
    ),
    postItinerarySegmentSplit: chainEdit<SegmentId & { point: number[] }>(
      'postItinerarySegmentSplit',
      { input: inputObject({ params: S.SegmentParams, body: S.SegmentSplitParams }) },
      (input) => planSplit(input.segment_id, input.point),
    ),
    patchItinerarySegmentMode: chainEdit<SegmentId & { engine: SegmentEngine }>(
      'patchItinerarySegmentMode',
      { input: inputObject({ params: S.SegmentParams, body: S.SegmentModeParams }) },
      (input) => planMode(input.segment_id, input.engine),
    ),

    /** Groups a run of neighbouring segments; answers the new group. */
    postItinerarySegmentGroup: defineOperation({
      id: 'postItinerarySegmentGroup',
      ...writes,
      input: inputObject({ params: S.ItineraryParams, body: S.SegmentGroupCreateParams }),
      async run(caller, input: ItineraryId & GroupCreateBody, { signal }): Promise<GroupView> {
        const created: { id?: string } = {};
        const { chain } = await editChain(deps, caller, input.itinerary_id, planGroupCreate(input, created), { signal });
        return groupView(chain.groups.find((g) => g.id === created.id)!);
      },
    }),

    putItinerarySegmentGroup: defineOperation({
      id: 'putItinerarySegmentGroup',
      ...writes,
      input: inputObject({ params: S.GroupParams, body: S.SegmentGroupUpdateParams }),
      async run(caller, input: GroupId & GroupUpdateBody, { signal }): Promise<GroupView> {
        const { chain } = await editChain(deps, caller, input.itinerary_id, planGroupUpdate(input.group_id, input), { signal });
        return groupView(chain.groups.find((g) => g.id === input.group_id)!);
      },
    }),

    /** Deletes the group; its segments stay, ungrouped. */
    deleteItinerarySegmentGroup: defineOperation({
      id: 'deleteItinerarySegmentGroup',
      ...writes,
      input: inputObject({ params: S.GroupParams }),
      async run(caller, input: GroupId, { signal }): Promise<void> {
        await editChain(deps, caller, input.itinerary_id, planGroupDelete(input.group_id), { signal });
      },
    }),

    putItineraryWaypoint: chainEdit<WaypointId & WaypointUpdateBody>(
      'putItineraryWaypoint',
      { input: inputObject({ params: S.WaypointParams, body: S.WaypointUpdateParams }) },
      (input) => planWaypointUpdate(input.waypoint_id, input),
    ),
    deleteItineraryWaypoint: chainEdit<WaypointId>(
      'deleteItineraryWaypoint',
      { input: inputObject({ params: S.WaypointParams }) },
      (input) => planWaypointDelete(input.waypoint_id),
    ),
  };
}
