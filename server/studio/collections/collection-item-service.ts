// The itineraries and zones filed in a collection: listing them (share links see published itineraries
// only), filing and unfiling. An item and its collection always belong to the same organization.

import type { Stores } from '../../../data/stores/stores.js';
import type { Access } from '../../auth/access.js';
import { listsPrivate } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import type { UnitOfWork } from '../../core/unit-of-work.js';
import { zoneView } from '../zones/zone-view.js';
import { type CollectionService, collectionChanged } from './collection-service.js';
import { draftSummary, publishedSummary } from './itinerary-summary.js';
import type { Page } from './pagination.js';

export interface CollectionItemServiceDeps {
  stores: Stores;
  writes: UnitOfWork;
  collections: CollectionService;
}

export type CollectionItemService = ReturnType<typeof createCollectionItemService>;

export function createCollectionItemService(deps: CollectionItemServiceDeps) {
  const { itineraries, zones } = deps.stores;
  const store = deps.stores.collections;

  /** Public items only, unless the caller lists the organization's private ones (a link is its own gate). */
  const publicOnly = (access: Access, organizationId: string) =>
    access.kind !== 'share' && !listsPrivate(access, organizationId);

  /** The item when it exists in the collection's organization; 404 otherwise. */
  const sameOrganization = <T extends { organizationId: string }>(item: T | undefined, organizationId: string): T => {
    if (!item || item.organizationId !== organizationId) throw new ApiError('NOT_FOUND');
    return item;
  };

  return {
    /** A page of the collection's itineraries; through a share link only published ones, as published. */
    async listItineraries(access: Access, collectionId: string, page: Page) {
      await deps.writes.settled();
      const collection = deps.collections.readable(access, collectionId);
      const shared = access.kind === 'share';
      const { items, total } = itineraries.listInCollection(collection.id, {
        publicOnly: publicOnly(access, collection.organizationId),
        publishedOnly: shared,
        ...page,
      });
      return { items: items.map((i) => (shared ? publishedSummary(i, itineraries) : draftSummary(i))), total };
    },

    /** Files an itinerary (idempotent: filing it again changes nothing). */
    async fileItinerary(access: Access, collectionId: string, itineraryId: string): Promise<void> {
      await deps.writes.write(({ emit }) => {
        const { collection } = deps.collections.writable(access, collectionId);
        sameOrganization(itineraries.get(itineraryId), collection.organizationId);
        store.addItinerary(collection.id, itineraryId);
        emit(collectionChanged(collection, 'items'));
      });
    },

    /** Unfiles an itinerary; 404 when it is not filed there. The itinerary itself stays. */
    async unfileItinerary(access: Access, collectionId: string, itineraryId: string): Promise<void> {
      await deps.writes.write(({ emit }) => {
        const { collection } = deps.collections.writable(access, collectionId);
        sameOrganization(itineraries.get(itineraryId), collection.organizationId);
        if (!store.removeItinerary(collection.id, itineraryId)) throw new ApiError('NOT_FOUND');
        emit(collectionChanged(collection, 'items'));
      });
    },

    /** A page of the collection's zones (a share link sees them all: it is the gate, not privacy). */
    async listZones(access: Access, collectionId: string, page: Page) {
      await deps.writes.settled();
      const collection = deps.collections.readable(access, collectionId);
      const { items, total } = zones.listInCollection(collection.id, {
        publicOnly: publicOnly(access, collection.organizationId),
        ...page,
      });
      return { items: items.map(zoneView), total };
    },

    /** Files a zone (idempotent). */
    async fileZone(access: Access, collectionId: string, zoneId: string): Promise<void> {
      await deps.writes.write(({ emit }) => {
        const { collection } = deps.collections.writable(access, collectionId);
        sameOrganization(zones.get(zoneId), collection.organizationId);
        store.addZone(collection.id, zoneId);
        emit(collectionChanged(collection, 'items'));
      });
    },

    /** Unfiles a zone; 404 when it is not filed there. The zone itself stays. */
    async unfileZone(access: Access, collectionId: string, zoneId: string): Promise<void> {
      await deps.writes.write(({ emit }) => {
        const { collection } = deps.collections.writable(access, collectionId);
        sameOrganization(zones.get(zoneId), collection.organizationId);
        if (!store.removeZone(collection.id, zoneId)) throw new ApiError('NOT_FOUND');
        emit(collectionChanged(collection, 'items'));
      });
    },
  };
}
