// The collection operations (DESIGN §6: 2–13, 17, 26), transport-free: collections and what is filed in
// them, and the itinerary listings that group or locate itineraries by collection. Who reads, writes and
// lists what is the policy's answer; names are unique per organization, scope and owner; plan limit
// `collections`. Failure paths are relative to each operation's input.

import type { Collection, CollectionScope, Privacy } from '../../../data/model/collection.js';
import { isConflict } from '../../../data/model/conflict.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { defineOperation, inputObject, type PageResult, SHARED_READ_REACH, STUDIO_REACH } from '../../core/operation.js';
import { listsPrivate, mayListOrganization, organizationOf, personalListing, requireWriterIn } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { zoneView, type ZoneView } from '../zones/zone-view.js';
import {
  CollectionCreateParams,
  CollectionCreateQuery,
  CollectionIdParams,
  CollectionItineraryParams,
  CollectionPatchParams,
  CollectionZoneParams,
  ItineraryIdParams,
  ItineraryListQuery,
  OrganizationIdParams,
  UserIdParams,
} from './collection-schemas.js';
import { collectionView, type CollectionView } from './collection-view.js';
import { createItineraryGrouping, type ItineraryGroup } from './itinerary-grouping.js';
import { draftSummary, publishedSummary, type ItinerarySummaryView } from './itinerary-summary.js';
import { PageQuery, pageOf } from './pagination.js';

export interface CollectionFields {
  name: string;
  description?: string;
  privacy: Privacy;
  scope?: CollectionScope;
}

type PageInput = { limit?: number; offset?: number };
type CollectionId = { collection_id: string };
type FiledItinerary = CollectionId & { itinerary_id: string };
type FiledZone = CollectionId & { zone_id: string };

/** A page of itineraries grouped by collection; `count` is the number of itineraries in the page. */
export interface GroupedPage extends PageResult<ItineraryGroup> {
  count: number;
}

const reads = { scope: 'resources' as const, writes: false, reach: STUDIO_REACH };
const sharedReads = { scope: 'resources' as const, writes: false, reach: SHARED_READ_REACH };
const writes = { scope: 'resources' as const, writes: true, reach: STUDIO_REACH };

/** The change event of a collection (its record, or what is filed in it). */
export function collectionChanged(collection: Collection, change: 'created' | 'updated' | 'deleted' | 'items') {
  return { type: 'collection.changed', organizationId: collection.organizationId, collectionId: collection.id, change } as const;
}

/** 409 with the holder's id at `extensions.metadata.collection.id` (ResponseMetadataPost/PatchCollection). */
function nameTaken(holderId: string): ApiError {
  return new ApiError('CONFLICT', [{ code: 'CONFLICT', messageKey: 'CONFLICT.collection_name' }], { collection: { id: holderId } });
}

/** Public items only, unless the caller lists the organization's private ones (a link is its own gate). */
function publicItemsOnly(caller: Access, organizationId: string): boolean {
  return caller.kind !== 'share' && !listsPrivate(caller, organizationId);
}

/** The item when it exists in the collection's organization; 404 otherwise. */
function inOrganization<T extends { organizationId: string }>(item: T | undefined, organizationId: string): T {
  if (!item || item.organizationId !== organizationId) throw new ApiError('NOT_FOUND');
  return item;
}

export function collectionOperations(deps: StudioDeps) {
  const { collections, organizations, itineraries, zones } = deps.stores;
  const { policy } = deps;
  const grouping = createItineraryGrouping(deps);
  const views = (caller: Access, items: Collection[]) => items.map((c) => collectionView(caller, c));

  /** Files or unfiles an item of the collection's organization; `apply` answers false when nothing was filed. */
  const refile = (
    caller: Access,
    collectionId: string,
    item: () => Promise<{ organizationId: string } | undefined>,
    apply: (collection: Collection) => Promise<boolean>,
  ) =>
    deps.writes.write(async ({ emit }) => {
      const { collection } = await policy.writableCollection(caller, collectionId);
      inOrganization(await item(), collection.organizationId);
      if (!(await apply(collection))) throw new ApiError('NOT_FOUND');
      emit(collectionChanged(collection, 'items'));
    });

  return {
    /**
     * An organization's collections (organization scope). A key lists its own organization only (public ones
     * without a session token); a signed-in user lists the organizations they belong to. Otherwise 403.
     */
    getOrganizationCollections: defineOperation({
      id: 'getOrganizationCollections',
      ...reads,
      input: inputObject({ params: OrganizationIdParams, query: PageQuery }),
      async run(caller, input: PageInput & { organization_id: string }): Promise<PageResult<CollectionView>> {
        mayListOrganization(caller, input.organization_id);
        const page = pageOf(input);
        await deps.writes.settled();
        const publicOnly = !listsPrivate(caller, input.organization_id);
        const { items, total } = await collections.list(input.organization_id, { scope: 'organization', publicOnly, ...page });
        return { items: views(caller, items), total, page };
      },
    }),

    /**
     * A user's personal collections: all of them for the signed-in user themself; the public ones in the key's
     * organization for a bare key of an organization the user belongs to. Anyone else (a session token too): 403.
     */
    getUserCollections: defineOperation({
      id: 'getUserCollections',
      ...reads,
      input: inputObject({ params: UserIdParams, query: PageQuery }),
      async run(caller, input: PageInput & { user_id: string }): Promise<PageResult<CollectionView>> {
        const member = caller.kind === 'key' && (await policy.isMember(caller.organization.id, input.user_id));
        const options = personalListing(caller, input.user_id, member);
        const page = pageOf(input);
        await deps.writes.settled();
        const { items, total } = await collections.listPersonal(input.user_id, { ...options, ...page });
        return { items: views(caller, items), total, page };
      },
    }),

    postCollection: defineOperation({
      id: 'postCollection',
      ...writes,
      input: inputObject({ query: CollectionCreateQuery, body: CollectionCreateParams }),
      async run(caller, input: CollectionFields & { organization_id?: string }): Promise<CollectionView> {
        const organizationId = organizationOf(caller, input.organization_id);
        const userId = requireWriterIn(caller, organizationId);
        const scope = input.scope ?? 'organization';
        const ownerUserId = scope === 'personal' ? userId : null;
        const created = await deps.writes.write(async ({ emit }) => {
          const organization = await organizations.get(organizationId);
          if (!organization) throw new ApiError('NOT_FOUND');
          await enforceLimit(organization, 'collections', () => collections.countByOrganization(organizationId));
          const holder = await collections.findByName(organizationId, scope, ownerUserId, input.name);
          if (holder) throw nameTaken(holder.id);
          const collection = await collections.create({
            organizationId,
            scope,
            ownerUserId,
            name: input.name,
            description: input.description,
            privacy: input.privacy,
            createdBy: userId,
          });
          if (isConflict(collection)) throw nameTaken(collection.conflict);
          emit(collectionChanged(collection, 'created'));
          return collection;
        });
        return collectionView(caller, created);
      },
    }),

    getCollection: defineOperation({
      id: 'getCollection',
      ...sharedReads,
      input: inputObject({ params: CollectionIdParams }),
      async run(caller, input: CollectionId): Promise<CollectionView> {
        await deps.writes.settled();
        return collectionView(caller, await policy.readableCollection(caller, input.collection_id));
      },
    }),

    /** Partial update; a new name must be free in the collection's organization, scope and owner. */
    patchCollection: defineOperation({
      id: 'patchCollection',
      ...writes,
      input: inputObject({ params: CollectionIdParams, body: CollectionPatchParams }),
      async run(caller, input: CollectionId & Partial<Omit<CollectionFields, 'scope'>>): Promise<CollectionView> {
        const { collection_id: id, ...fields } = input;
        const updated = await deps.writes.write(async ({ emit }) => {
          const { collection } = await policy.writableCollection(caller, id);
          if (fields.name !== undefined && fields.name !== collection.name) {
            const holder = await collections.findByName(collection.organizationId, collection.scope, collection.ownerUserId, fields.name);
            if (holder) throw nameTaken(holder.id);
          }
          const changed = await collections.update(id, fields);
          if (!changed) throw new ApiError('NOT_FOUND');
          if (isConflict(changed)) throw nameTaken(changed.conflict);
          emit(collectionChanged(changed, 'updated'));
          return changed;
        });
        return collectionView(caller, updated);
      },
    }),

    /** Deletes the collection; the itineraries and zones filed in it stay. */
    deleteCollection: defineOperation({
      id: 'deleteCollection',
      ...writes,
      input: inputObject({ params: CollectionIdParams }),
      async run(caller, input: CollectionId): Promise<void> {
        await deps.writes.write(async ({ emit }) => {
          const { collection } = await policy.writableCollection(caller, input.collection_id);
          await collections.delete(collection.id);
          emit(collectionChanged(collection, 'deleted'));
        });
      },
    }),

    /** A page of the collection's itineraries; through a share link only published ones, as published. */
    getCollectionItineraries: defineOperation({
      id: 'getCollectionItineraries',
      ...sharedReads,
      input: inputObject({ params: CollectionIdParams, query: PageQuery }),
      async run(caller, input: CollectionId & PageInput): Promise<PageResult<ItinerarySummaryView>> {
        const page = pageOf(input);
        await deps.writes.settled();
        const collection = await policy.readableCollection(caller, input.collection_id);
        const shared = caller.kind === 'share';
        const { items, total } = await itineraries.listInCollection(collection.id, {
          publicOnly: publicItemsOnly(caller, collection.organizationId),
          publishedOnly: shared,
          ...page,
        });
        const summaries = shared ? await Promise.all(items.map((i) => publishedSummary(i, itineraries))) : items.map(draftSummary);
        return { items: summaries, total, page };
      },
    }),

    /** Files an itinerary (idempotent: filing it again changes nothing). */
    putCollectionItinerary: defineOperation({
      id: 'putCollectionItinerary',
      ...writes,
      input: inputObject({ params: CollectionItineraryParams }),
      async run(caller, input: FiledItinerary): Promise<void> {
        await refile(
          caller,
          input.collection_id,
          () => itineraries.get(input.itinerary_id),
          async (c) => {
            await collections.addItinerary(c.id, input.itinerary_id);
            return true;
          },
        );
      },
    }),

    /** Unfiles an itinerary; 404 when it is not filed there. The itinerary itself stays. */
    deleteCollectionItinerary: defineOperation({
      id: 'deleteCollectionItinerary',
      ...writes,
      input: inputObject({ params: CollectionItineraryParams }),
      async run(caller, input: FiledItinerary): Promise<void> {
        await refile(
          caller,
          input.collection_id,
          () => itineraries.get(input.itinerary_id),
          (c) => collections.removeItinerary(c.id, input.itinerary_id),
        );
      },
    }),

    /** A page of the collection's zones (a share link sees them all: it is the gate, not privacy). */
    getCollectionZones: defineOperation({
      id: 'getCollectionZones',
      ...sharedReads,
      input: inputObject({ params: CollectionIdParams, query: PageQuery }),
      async run(caller, input: CollectionId & PageInput): Promise<PageResult<ZoneView>> {
        const page = pageOf(input);
        await deps.writes.settled();
        const collection = await policy.readableCollection(caller, input.collection_id);
        const { items, total } = await zones.listInCollection(collection.id, {
          publicOnly: publicItemsOnly(caller, collection.organizationId),
          ...page,
        });
        return { items: items.map(zoneView), total, page };
      },
    }),

    /** Files a zone (idempotent). */
    putCollectionZone: defineOperation({
      id: 'putCollectionZone',
      ...writes,
      input: inputObject({ params: CollectionZoneParams }),
      async run(caller, input: FiledZone): Promise<void> {
        await refile(
          caller,
          input.collection_id,
          () => zones.get(input.zone_id),
          async (c) => {
            await collections.addZone(c.id, input.zone_id);
            return true;
          },
        );
      },
    }),

    /** Unfiles a zone; 404 when it is not filed there. The zone itself stays. */
    deleteCollectionZone: defineOperation({
      id: 'deleteCollectionZone',
      ...writes,
      input: inputObject({ params: CollectionZoneParams }),
      async run(caller, input: FiledZone): Promise<void> {
        await refile(
          caller,
          input.collection_id,
          () => zones.get(input.zone_id),
          (c) => collections.removeZone(c.id, input.zone_id),
        );
      },
    }),

    /** Itineraries grouped by collection (./itinerary-grouping.ts says how). */
    getItineraries: defineOperation({
      id: 'getItineraries',
      ...reads,
      input: inputObject({ query: ItineraryListQuery }),
      async run(caller, input: PageInput & { organization_id?: string }): Promise<GroupedPage> {
        const page = pageOf(input);
        await deps.writes.settled();
        const { groups, count, total } = await grouping.list(caller, input.organization_id, page);
        return { items: groups, count, total, page };
      },
    }),

    /** The collections the itinerary is filed in that the caller may see. */
    getItineraryCollections: defineOperation({
      id: 'getItineraryCollections',
      ...reads,
      input: inputObject({ params: ItineraryIdParams, query: PageQuery }),
      async run(caller, input: PageInput & { itinerary_id: string }): Promise<PageResult<CollectionView>> {
        const page = pageOf(input);
        await deps.writes.settled();
        const itinerary = await policy.readableItinerary(caller, input.itinerary_id);
        const { items, total } = await collections.listHolding('itinerary', itinerary.id, {
          publicOnly: !listsPrivate(caller, itinerary.organizationId),
          viewerUserId: caller.kind === 'user' ? caller.user.id : null,
          ...page,
        });
        return { items: views(caller, items), total, page };
      },
    }),
  };
}
