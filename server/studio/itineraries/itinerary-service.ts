// Itinerary records: create (also from imported lines), read (draft or published snapshot), rename and
// describe, delete. Chain edits go through chain-edit.ts, publish and duplicate live in publish-service.ts.

import { isConflict } from '../../../data/model/conflict.js';
import type { Activity, Itinerary } from '../../../data/model/itinerary.js';
import type { Privacy } from '../../../data/model/collection.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { ApiError, type ErrorPath } from '../../errors.js';
import type { WriteScope } from '../../core/unit-of-work.js';
import type { Collection } from '../../../data/model/collection.js';
import { collectionChanged } from '../collections/collection-operations.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Chain, type ChainWaypoint, loadChain, newSegment, newWaypoint, saveChain, sealChain, toCoord, withLine } from './chain.js';
import { measureRecordedLines, nearestPoints, routeSmart } from './chain-routing.js';
import { editChain } from './chain-edit.js';
import { creatingOrganization } from '../../core/policy.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { itineraryView, withRecord } from './itinerary-view.js';
import { decodeSnapshot, publishedView } from './published-snapshot.js';
import type { CancelSignal } from '../../../lib/cancel-signal.js';

const EMPTY_CHAIN: Chain = { waypoints: [], segments: [], groups: [] };

/** 409 CONFLICT naming the itinerary that holds the name (ResponseMetadataPostItinerary / …Patch…). */
export function nameConflict(itineraryId: string): ApiError {
  return new ApiError('CONFLICT', [{ code: 'CONFLICT', messageKey: 'CONFLICT.itinerary_name' }], { itinerary: { id: itineraryId } });
}

export interface NewItinerary {
  organizationId: string;
  actorUserId: string | null;
  name: string;
  description?: string;
  activity?: Activity;
  privacy?: Privacy;
  collectionId?: string;
}

/**
 * Creates inside a unit of work: plan limit, name, collection, then the record; announces the new draft (and
 * the collection it was filed in).
 */
export async function insertItinerary(
  deps: StudioDeps,
  { emit }: WriteScope,
  input: NewItinerary,
  collectionPath: ErrorPath = ['collection_id'],
): Promise<Itinerary> {
  const { itineraries, organizations, collections } = deps.stores;
  const organization = await organizations.get(input.organizationId);
  if (!organization) throw new ApiError('NOT_FOUND');
  await enforceLimit(organization, 'itineraries', async () => (await itineraries.list(organization.id, { limit: 1 })).total);
  const taken = await itineraries.findByName(organization.id, input.name);
  if (taken) throw nameConflict(taken.id);
  if (input.collectionId !== undefined) {
    const collection = await collections.get(input.collectionId);
    const usable =
      collection !== undefined &&
      collection.organizationId === organization.id &&
      (collection.scope === 'organization' || collection.ownerUserId === input.actorUserId);
    if (!usable) throw ApiError.validation([{ path: collectionPath }]);
  }
  const it = await itineraries.create({
    organizationId: organization.id,
    name: input.name,
    description: input.description,
    activity: input.activity,
    privacy: input.privacy,
    createdBy: input.actorUserId,
  });
  if (isConflict(it)) throw nameConflict(it.conflict);
  emit({ type: 'itinerary.draft_changed', organizationId: it.organizationId, itineraryId: it.id, version: it.draftVersion });
  if (input.collectionId !== undefined) {
    await collections.addItinerary(input.collectionId, it.id);
    emit(collectionChanged((await collections.get(input.collectionId)) as Collection, 'items'));
  }
  return it;
}

/** The organization a create goes to: the key's own, or for a signed-in user the one named or implied. */
export async function targetOrganization(
  deps: StudioDeps,
  access: Access,
  requested: string | undefined,
  collectionId: string | undefined,
): Promise<string> {
  const collectionOrganization = collectionId !== undefined ? (await deps.stores.collections.get(collectionId))?.organizationId : undefined;
  return creatingOrganization(access, requested, collectionOrganization);
}

export interface CreateBody {
  name: string;
  description?: string;
  activity?: Activity;
  privacy?: Privacy;
  collection_id?: string;
  organization_id?: string;
}

/** postItinerary: an empty draft. */
export async function createItinerary(deps: StudioDeps, access: Access, body: CreateBody, actor: string): Promise<ItineraryView> {
  const organizationId = await targetOrganization(deps, access, body.organization_id, body.collection_id);
  return deps.writes.write(async (scope) => {
    const it = await insertItinerary(deps, scope, {
      organizationId,
      actorUserId: actor,
      name: body.name,
      description: body.description,
      activity: body.activity,
      privacy: body.privacy,
      collectionId: body.collection_id,
    });
    return itineraryView(it, EMPTY_CHAIN);
  });
}

export interface LinesInput {
  organizationId: string;
  actorUserId: string;
  name: string;
  description?: string;
  activity: Activity;
  privacy: Privacy;
  collectionId?: string;
  /** One flat lon,lat,ele array per segment (degrees, degrees, metres); each line starts where the previous ended. */
  lines: number[][];
  /**
   * Names, kinds and descriptions for the joints. With exactly lines.length + 1 entries they are taken in order (W0..Wn);
   * otherwise each joint takes the nearest entry within 50 m. Joint positions always come from the lines.
   */
  waypoints: { name?: string; kind?: string; description?: string; coordinates: number[] }[];
}

const JOINT_MATCH_M = 50;

/**
 * Creates an itinerary whose chain is `lines` as freehand segments, every track point kept (import).
 * Elevation: the lines' own where every point has one, else the region DEM. Throws ApiError (409 name
 * conflict with `itinerary.id` metadata, 403 plan limit, 400 for a line of fewer than two points).
 */
export async function createItineraryFromLines(deps: StudioDeps, input: LinesInput): Promise<ItineraryView> {
  const bad = input.lines.findIndex((l) => l.length < 6 || l.length % 3 !== 0);
  if (bad >= 0) throw ApiError.validation([{ path: ['lines', bad] }]);
  const route = { deps, activity: input.activity };
  const segments = (await measureRecordedLines(route, input.lines)).map((line) => newSegment('freehand', line));
  const joints = input.lines.length === 0 ? [] : [input.lines[0]!.slice(0, 3), ...input.lines.map((l) => l.slice(-3))];
  const named =
    input.waypoints.length === joints.length
      ? input.waypoints
      : (
          await nearestPoints(
            route,
            joints,
            input.waypoints.map((w) => w.coordinates),
            JOINT_MATCH_M,
          )
        ).map((i) => input.waypoints[i]);
  const waypoints: ChainWaypoint[] = joints.map((p, j) => newWaypoint(toCoord(p), named[j] ?? {}));
  const chain = sealChain({ waypoints, segments, groups: [] });
  return deps.writes.write(async (scope) => {
    const it = await insertItinerary(deps, scope, input);
    await saveChain(deps.stores, it.id, EMPTY_CHAIN, chain);
    return itineraryView(it, chain);
  });
}

/**
 * The API view of an itinerary, without access checks: the draft, or the published snapshot (undefined
 * when unknown or never published). Views are cached per version (./itinerary-view-cache.ts).
 */
export async function readItinerary(deps: StudioDeps, id: string, version: 'draft' | 'published'): Promise<ItineraryView | undefined> {
  const it = await deps.stores.itineraries.get(id);
  return it && viewOf(deps, it, version);
}

/** The view of a record just read: the draft, or the published snapshot (undefined when never published). */
function viewOf(deps: StudioDeps, it: Itinerary, version: 'draft' | 'published'): Promise<ItineraryView | undefined> {
  return deps.views.view(it, version, async () => {
    if (version === 'draft') return itineraryView(it, await loadChain(deps.stores, it.id));
    const snapshot = decodeSnapshot(await deps.stores.itineraries.publishedSnapshot(it.id), it);
    return snapshot && publishedView(it, snapshot);
  });
}

/**
 * The view a caller may read: share tokens get the published snapshot only; others `version` (default
 * draft). 404 when invisible, unknown, or `published` was asked of a never-published itinerary.
 */
export async function readVisibleItinerary(
  deps: StudioDeps,
  access: Access,
  id: string,
  version: 'draft' | 'published' = 'draft',
): Promise<ItineraryView> {
  await deps.writes.settled();
  const it = await deps.policy.readableItinerary(access, id);
  const view = await viewOf(deps, it, access.kind === 'share' ? 'published' : version);
  // A caller who may read the draft learns nothing new from being told to ask for it.
  if (!view) throw access.kind === 'share' ? new ApiError('NOT_FOUND') : ApiError.withMessage('NOT_FOUND', 'NOT_FOUND.not_published');
  return view;
}

export interface PatchBody {
  name?: string;
  description?: string;
  activity?: Activity;
  privacy?: Privacy;
}

/**
 * patchItinerary: omitted fields keep their value; a taken name is 409. A new activity re-routes the smart
 * segments for it (a segment it cannot route is a 400 at `activity`, and nothing changes); any other change
 * leaves the chain as it is and writes the record alone.
 */
export async function patchItinerary(
  deps: StudioDeps,
  access: Access,
  id: string,
  body: PatchBody,
  /** The call's cancellation, for the routing a patch that changes the activity does. */
  context: { readonly signal?: CancelSignal } = {},
): Promise<ItineraryView> {
  const { itineraries } = deps.stores;
  /** Writes the patch over `itinerary` (and marks the draft edit when asked): the record as written. */
  const applyPatch: ApplyPatch = async (itinerary, bumpDraft) => {
    if (body.name !== undefined && body.name !== itinerary.name) {
      const taken = await itineraries.findByName(itinerary.organizationId, body.name);
      if (taken && taken.id !== id) throw nameConflict(taken.id);
    }
    const updated = await itineraries.update(id, body, { bumpDraft });
    if (isConflict(updated)) throw nameConflict(updated.conflict);
    if (!updated) throw new ApiError('NOT_FOUND');
    return updated;
  };
  if (body.activity === undefined) return patchRecord(deps, access, id, applyPatch);
  const { itinerary: before } = await deps.policy.writableItinerary(access, id);
  if (body.activity === before.activity) return patchRecord(deps, access, id, applyPatch);
  let current: Itinerary | undefined;
  const { view } = await editChain(
    deps,
    access,
    id,
    (_chain, itinerary) => {
      current = itinerary;
      return {
        guard: [],
        async build(next, route) {
          if (body.activity === undefined || body.activity === itinerary.activity) return next;
          for (const [k, s] of next.segments.entries()) {
            if (s.engine !== 'smart') continue;
            const line = await routeSmart(route, [next.waypoints[k]!.coord, next.waypoints[k + 1]!.coord], ['activity']);
            next.segments[k] = withLine(s, line);
          }
          return next;
        },
      };
    },
    { signal: context.signal, activity: body.activity, alsoWrite: () => applyPatch(current as Itinerary, false) },
  );
  return view;
}

type ApplyPatch = (itinerary: Itinerary, bumpDraft: boolean) => Promise<Itinerary>;

/**
 * A change of the record alone (name, description, privacy): one write that checks the caller's right,
 * updates the record and bumps the draft version. The answer reuses the cached view of the chain as it was
 * (the chain did not change), so the common edit reads no segment.
 */
async function patchRecord(deps: StudioDeps, access: Access, id: string, applyPatch: ApplyPatch): Promise<ItineraryView> {
  const { updated, unchanged } = await deps.writes.write(async ({ emit }) => {
    // Read inside the unit: no other write can change the record or the chain between this view and the update.
    const { itinerary: current } = await deps.policy.writableItinerary(access, id);
    const unchanged = deps.views.cached(current, 'draft');
    const updated = await applyPatch(current, true);
    emit({ type: 'itinerary.draft_changed', organizationId: current.organizationId, itineraryId: id, version: updated.draftVersion });
    return { updated, unchanged };
  });
  return (await deps.views.view(updated, 'draft', async () =>
    unchanged ? withRecord(unchanged, updated) : itineraryView(updated, await loadChain(deps.stores, id)),
  )) as ItineraryView;
}

/** deleteItinerary. */
export async function deleteItinerary(deps: StudioDeps, access: Access, id: string): Promise<void> {
  const { itinerary } = await deps.policy.writableItinerary(access, id);
  await deps.writes.write(async ({ emit }) => {
    if (!(await deps.stores.itineraries.delete(id))) throw new ApiError('NOT_FOUND');
    emit({ type: 'itinerary.deleted', organizationId: itinerary.organizationId, itineraryId: id });
  });
}
