// The rules of collections: who reads and writes which, names unique per organization, scope and owner,
// plan limits, and the listings by organization, by user and by item. Routes call this; it calls the stores.

import type { Collection, CollectionScope, Privacy } from '../../../data/stores/collection-store.js';
import type { Role } from '../../../data/stores/membership-store.js';
import type { Stores } from '../../../data/stores/stores.js';
import type { Access } from '../../auth/access.js';
import { enforceLimit } from '../../auth/limits.js';
import { canReadById, listsPrivate, roleOf, shareCovers } from '../../auth/visibility.js';
import { ApiError } from '../../errors.js';
import type { WriteBatcher } from '../../write-batcher.js';
import type { Page } from './pagination.js';
import { organizationOf, writerIn } from './studio-access.js';

/** A collection as the API shows it (see CollectionView). */
export interface CollectionView {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  privacy: Privacy;
  scope: CollectionScope;
  owner_user_id: string | null;
  role: Role;
  created_at: string;
  updated_at: string;
}

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
  writes: WriteBatcher;
}

export type CollectionService = ReturnType<typeof createCollectionService>;

export function createCollectionService(deps: CollectionServiceDeps) {
  const { collections, memberships, organizations } = deps.stores;

  const view = (access: Access, c: Collection): CollectionView => ({
    id: c.id,
    organization_id: c.organizationId,
    name: c.name,
    description: c.description,
    privacy: c.privacy,
    scope: c.scope,
    owner_user_id: c.ownerUserId,
    role: roleOf(access, c.organizationId, memberships),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  });

  const canRead = (access: Access, c: Collection): boolean =>
    access.kind === 'share'
      ? shareCovers(access, { kind: 'collection', id: c.id }, () => false)
      : canReadById(access, c, memberships);

  /** The collection when the caller may read it; 404 when it is absent or invisible (never reveal which). */
  const readable = (access: Access, id: string): Collection => {
    const c = collections.get(id);
    if (!c || !canRead(access, c)) throw new ApiError('NOT_FOUND');
    return c;
  };

  /**
   * The collection and the writing user when the caller may change it: a writer of its organization, and for
   * a personal collection its owner alone. 404 when the caller cannot even read it, 403 when they only read it.
   */
  const writable = (access: Access, id: string): { collection: Collection; userId: string } => {
    const c = readable(access, id);
    const userId = writerIn(access, c.organizationId, memberships);
    if (!userId || (c.scope === 'personal' && c.ownerUserId !== userId)) throw new ApiError('FORBIDDEN');
    return { collection: c, userId };
  };

  /** 409 with the holder's id at `extensions.metadata.collection.id` (ResponseMetadataPost/PatchCollection). */
  const conflict = (holder: Collection): ApiError =>
    new ApiError('CONFLICT', [{ code: 'CONFLICT', messageKey: 'CONFLICT.collection_name' }], { collection: { id: holder.id } });

  return {
    view,
    readable,
    writable,

    async create(access: Access, body: CollectionCreateBody, requestedOrganization?: string): Promise<CollectionView> {
      const organizationId = organizationOf(access, requestedOrganization, memberships);
      const userId = writerIn(access, organizationId, memberships);
      if (!userId) throw new ApiError('FORBIDDEN');
      const scope = body.scope ?? 'organization';
      const ownerUserId = scope === 'personal' ? userId : null;
      const created = await deps.writes.write(() => {
        const organization = organizations.get(organizationId);
        if (!organization) throw new ApiError('NOT_FOUND');
        enforceLimit(organization, 'collections', collections.countByOrganization(organizationId));
        const holder = collections.findByName(organizationId, scope, ownerUserId, body.name);
        if (holder) throw conflict(holder);
        return collections.create({
          organizationId,
          scope,
          ownerUserId,
          name: body.name,
          description: body.description,
          privacy: body.privacy,
          createdBy: userId,
        });
      });
      return view(access, created);
    },

    async get(access: Access, id: string): Promise<CollectionView> {
      await deps.writes.settled();
      return view(access, readable(access, id));
    },

    async patch(access: Access, id: string, body: CollectionPatchBody): Promise<CollectionView> {
      const updated = await deps.writes.write(() => {
        const { collection } = writable(access, id);
        if (body.name !== undefined && body.name !== collection.name) {
          const holder = collections.findByName(collection.organizationId, collection.scope, collection.ownerUserId, body.name);
          if (holder) throw conflict(holder);
        }
        return collections.update(id, body) as Collection;
      });
      return view(access, updated);
    },

    /** Deletes the collection; the itineraries and zones filed in it stay. */
    async remove(access: Access, id: string): Promise<void> {
      await deps.writes.write(() => {
        writable(access, id);
        collections.delete(id);
      });
    },

    /**
     * An organization's collections (organization scope). A key lists its own organization only (public ones
     * without a session token); a signed-in user lists the organizations they belong to. Otherwise 403.
     */
    async listOrganization(access: Access, organizationId: string, page: Page) {
      if (access.kind === 'key' && access.organization.id !== organizationId) throw new ApiError('FORBIDDEN');
      if (access.kind === 'user' && !memberships.get(organizationId, access.user.id)) throw new ApiError('FORBIDDEN');
      if (access.kind !== 'key' && access.kind !== 'user') throw new ApiError('FORBIDDEN');
      await deps.writes.settled();
      const publicOnly = !listsPrivate(access, organizationId, memberships);
      const { items, total } = collections.list(organizationId, { scope: 'organization', publicOnly, ...page });
      return { items: items.map((c) => view(access, c)), total };
    },

    /**
     * A user's personal collections: all of them for the signed-in user themself; the public ones in the key's
     * organization for a bare key of an organization the user belongs to. Anyone else (a session token too): 403.
     */
    async listUser(access: Access, userId: string, page: Page) {
      let options: { organizationId?: string; publicOnly?: boolean };
      if (access.kind === 'user' && access.user.id === userId) {
        options = {};
      } else if (
        access.kind === 'key' &&
        access.session === undefined &&
        memberships.get(access.organization.id, userId) !== undefined
      ) {
        options = { organizationId: access.organization.id, publicOnly: true };
      } else {
        throw new ApiError('FORBIDDEN');
      }
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
        publicOnly: !listsPrivate(access, organizationId, memberships),
        viewerUserId: access.kind === 'user' ? access.user.id : null,
        ...page,
      });
      return { items: items.map((c) => view(access, c)), total };
    },
  };
}
