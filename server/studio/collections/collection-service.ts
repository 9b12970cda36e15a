// The rules of collections: who reads and writes which, names unique per organization, scope and owner,
// plan limits, and the listings by organization, by user and by item. Routes call this; it calls the stores.

import type { Collection, CollectionScope, Privacy } from '../../../data/stores/collection-store.js';
import type { Stores } from '../../../data/stores/stores.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { ApiError } from '../../errors.js';
import type { UnitOfWork } from '../../core/unit-of-work.js';
import type { Page } from './pagination.js';
import { listsPrivate, mayListOrganization, organizationOf, personalListing, type Policy, requireWriterIn } from '../../core/policy.js';
import { collectionView, type CollectionView } from './collection-view.js';

export type { CollectionView } from './collection-view.js';

export interface CollectionCreateBody {
  name: string;
  description?: string;
  privacy: Privacy;
  scope?: CollectionScope;
}

export interface CollectionPatchBody {
  name?: string;
  description?: string;
  privacy?: Privacy;
}

export interface CollectionServiceDeps {
  stores: Stores;
  writes: UnitOfWork;
  policy: Policy;
}

export type CollectionService = ReturnType<typeof createCollectionService>;

/** The change event of a collection (its record, or what is filed in it). */
export function collectionChanged(collection: Collection, change: 'created' | 'updated' | 'deleted' | 'items') {
  return { type: 'collection.changed', organizationId: collection.organizationId, collectionId: collection.id, change } as const;
}

export function createCollectionService(deps: CollectionServiceDeps) {
  const { collections, organizations } = deps.stores;

  const view = collectionView;

  const readable = (access: Access, id: string): Collection => deps.policy.readableCollection(access, id);

  const writable = (access: Access, id: string) => deps.policy.writableCollection(access, id);

  /** 409 with the holder's id at `extensions.metadata.collection.id` (ResponseMetadataPost/PatchCollection). */
  const conflict = (holder: Collection): ApiError =>
    new ApiError('CONFLICT', [{ code: 'CONFLICT', messageKey: 'CONFLICT.collection_name' }], { collection: { id: holder.id } });

  return {
    view,
    readable,
    writable,

    async create(access: Access, body: CollectionCreateBody, requestedOrganization?: string): Promise<CollectionView> {
      const organizationId = organizationOf(access, requestedOrganization, ['request', 'query', 'organization_id']);
      const userId = requireWriterIn(access, organizationId);
      const scope = body.scope ?? 'organization';
      const ownerUserId = scope === 'personal' ? userId : null;
      const created = await deps.writes.write(({ emit }) => {
        const organization = organizations.get(organizationId);
        if (!organization) throw new ApiError('NOT_FOUND');
        enforceLimit(organization, 'collections', collections.countByOrganization(organizationId));
        const holder = collections.findByName(organizationId, scope, ownerUserId, body.name);
        if (holder) throw conflict(holder);
        const collection = collections.create({
          organizationId,
          scope,
          ownerUserId,
          name: body.name,
          description: body.description,
          privacy: body.privacy,
          createdBy: userId,
        });
        emit(collectionChanged(collection, 'created'));
        return collection;
      });
      return view(access, created);
    },

    async get(access: Access, id: string): Promise<CollectionView> {
      await deps.writes.settled();
      return view(access, readable(access, id));
    },

    async patch(access: Access, id: string, body: CollectionPatchBody): Promise<CollectionView> {
      const updated = await deps.writes.write(({ emit }) => {
        const { collection } = writable(access, id);
        if (body.name !== undefined && body.name !== collection.name) {
          const holder = collections.findByName(collection.organizationId, collection.scope, collection.ownerUserId, body.name);
          if (holder) throw conflict(holder);
        }
        const changed = collections.update(id, body) as Collection;
        emit(collectionChanged(changed, 'updated'));
        return changed;
      });
      return view(access, updated);
    },

    /** Deletes the collection; the itineraries and zones filed in it stay. */
    async remove(access: Access, id: string): Promise<void> {
      await deps.writes.write(({ emit }) => {
        const { collection } = writable(access, id);
        collections.delete(id);
        emit(collectionChanged(collection, 'deleted'));
      });
    },

    /**
     * An organization's collections (organization scope). A key lists its own organization only (public ones
     * without a session token); a signed-in user lists the organizations they belong to. Otherwise 403.
     */
    async listOrganization(access: Access, organizationId: string, page: Page) {
      mayListOrganization(access, organizationId);
      await deps.writes.settled();
      const publicOnly = !listsPrivate(access, organizationId);
      const { items, total } = collections.list(organizationId, { scope: 'organization', publicOnly, ...page });
      return { items: items.map((c) => view(access, c)), total };
    },

    /**
     * A user's personal collections: all of them for the signed-in user themself; the public ones in the key's
     * organization for a bare key of an organization the user belongs to. Anyone else (a session token too): 403.
     */
    async listUser(access: Access, userId: string, page: Page) {
      const options = personalListing(access, userId, deps.policy.isMember);
      await deps.writes.settled();
      const { items, total } = collections.listPersonal(userId, { ...options, ...page });
      return { items: items.map((c) => view(access, c)), total };
    },

    /**
     * The collections an itinerary or zone of `organizationId` is filed in, as a listing shows them: organization
     * collections (public only without a session token or membership) and the caller's own personal ones.
     */
    async listHolding(access: Access, kind: 'itinerary' | 'zone', itemId: string, organizationId: string, page: Page) {
      await deps.writes.settled();
      const { items, total } = collections.listHolding(kind, itemId, {
        publicOnly: !listsPrivate(access, organizationId),
        viewerUserId: access.kind === 'user' ? access.user.id : null,
        ...page,
      });
      return { items: items.map((c) => view(access, c)), total };
    },
  };
}
