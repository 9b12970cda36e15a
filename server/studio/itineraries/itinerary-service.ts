// Itinerary records: create (also from imported lines), read (draft or published snapshot), rename and
// describe, delete. Chain edits live in chain-service.ts, publish and duplicate in publish-service.ts.

import { isConflict } from '../../../data/stores/conflict.js';
import type { Activity, Itinerary } from '../../../data/stores/itinerary-store.js';
import type { Privacy } from '../../../data/stores/collection-store.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { ApiError, type ErrorPath } from '../../errors.js';
import type { WriteScope } from '../../core/unit-of-work.js';
import type { Collection } from '../../../data/stores/collection-store.js';
import { collectionChanged } from '../collections/collection-operations.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Chain, type ChainWaypoint, loadChain, newSegment, newWaypoint, saveChain, sealChain, toCoord, withLine } from './chain.js';
import { measureRecordedLines, nearestPoints, routeSmart } from './chain-routing.js';
import { editChain } from './chain-edit.js';
import { creatingOrganization } from '../../core/policy.js';
import { loadReadable, loadWritable } from './itinerary-access.js';
import { type ItineraryView, itineraryView } from './itinerary-view.js';
import { decodeSnapshot, publishedView } from './published-snapshot.js';

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
 * Synchronous create (inside a Studio write): plan limit, name, collection, then the record; announces the
 * new draft (and the collection it was filed in).
 */
export function insertItinerary(deps: StudioDeps, { emit }: WriteScope, input: NewItinerary, collectionPath: ErrorPath = ['collection_id']): Itinerary {
  const { itineraries, organizations, collections } = deps.stores;
  const organization = organizations.get(input.organizationId);
  if (!organization) throw new ApiError('NOT_FOUND');
  enforceLimit(organization, 'itineraries', itineraries.list(organization.id, { limit: 1 }).total);
  const taken = itineraries.findByName(organization.id, input.name);
  if (taken) throw nameConflict(taken.id);
  if (input.collectionId !== undefined) {
    const collection = collections.get(input.collectionId);
    const usable =
      collection !== undefined &&
      collection.organizationId === organization.id &&
      (collection.scope === 'organization' || collection.ownerUserId === input.actorUserId);
    if (!usable) throw ApiError.validation([{ path: collectionPath }]);
  }
  const it = itineraries.create({
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
    collections.addItinerary(input.collectionId, it.id);
    emit(collectionChanged(collections.get(input.collectionId) as Collection, 'items'));
  }
  return it;
}

/** The organization a create goes to: the key's own, or for a signed-in user the one named or implied. */
export function targetOrganization(deps: StudioDeps, access: Access, requested: string | undefined, collectionId: string | undefined): string {
  const collectionOrganization = collectionId !== undefined ? deps.stores.collections.get(collectionId)?.organizationId : undefined;
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
  const organizationId = targetOrganization(deps, access, body.organization_id, body.collection_id);
  return deps.writes.write((scope) => {
    const it = insertItinerary(deps, scope, {
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
   * Names and kinds for the joints. With exactly lines.length + 1 entries they are taken in order (W0..Wn);
   * otherwise each joint takes the nearest entry within 50 m. Joint positions always come from the lines.
   */
  waypoints: { name?: string; kind?: string; coordinates: number[] }[];
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
      : (await nearestPoints(route, joints, input.waypoints.map((w) => w.coordinates), JOINT_MATCH_M)).map((i) => input.waypoints[i]);
  const waypoints: ChainWaypoint[] = joints.map((p, j) => newWaypoint(toCoord(p), named[j]?.name ?? null, named[j]?.kind ?? null));
  const chain = sealChain({ waypoints, segments, groups: [] });
  return deps.writes.write((scope) => {
    const it = insertItinerary(deps, scope, input);
    saveChain(deps.stores, it.id, EMPTY_CHAIN, chain);
    return itineraryView(it, chain);
  });
}

/**
 * The API view of an itinerary, without access checks: the draft, or the published snapshot (undefined
 * when unknown or never published).
 */
export function readItinerary(deps: StudioDeps, id: string, version: 'draft' | 'published'): ItineraryView | undefined {
  const it = deps.stores.itineraries.get(id);
  if (!it) return undefined;
  if (version === 'published') {
    const snapshot = decodeSnapshot(deps.stores.itineraries.publishedSnapshot(id), it);
    return snapshot && publishedView(it, snapshot);
  }
  return itineraryView(it, loadChain(deps.stores, id));
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
  loadReadable(deps, access, id);
  const view = readItinerary(deps, id, access.kind === 'share' ? 'published' : version);
  if (!view) throw new ApiError('NOT_FOUND');
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
 * segments for it (a segment it cannot route is a 400 at `activity`, and nothing changes).
 */
export async function patchItinerary(deps: StudioDeps, access: Access, id: string, body: PatchBody, signal?: AbortSignal): Promise<ItineraryView> {
  const { itineraries } = deps.stores;
  const applyPatch = (itinerary: Itinerary) => () => {
    if (body.name !== undefined && body.name !== itinerary.name) {
      const taken = itineraries.findByName(itinerary.organizationId, body.name);
      if (taken && taken.id !== id) throw nameConflict(taken.id);
    }
    const updated = itineraries.update(id, body);
    if (isConflict(updated)) throw nameConflict(updated.conflict);
  };
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
    { signal, activity: body.activity, alsoWrite: () => applyPatch(current as Itinerary)() },
  );
  return view;
}

/** deleteItinerary. */
export async function deleteItinerary(deps: StudioDeps, access: Access, id: string): Promise<void> {
  const { itinerary } = loadWritable(deps, access, id);
  await deps.writes.write(({ emit }) => {
    if (!deps.stores.itineraries.delete(id)) throw new ApiError('NOT_FOUND');
    emit({ type: 'itinerary.deleted', organizationId: itinerary.organizationId, itineraryId: id });
  });
}
