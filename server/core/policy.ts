// The one policy: who may read, write or list what, and in which organization; which products and card a
// surface needs. Every surface (REST, GraphQL, MCP, the live channel, the agent) asks here, through the
// operations; routes and operations never derive these rules from stores themselves.
//
// Callers come from the access layer (server/auth/access.ts). A signed-in user's memberships are read
// once when the request is authenticated, so the rules below are plain functions of the caller.

import type { Collection } from '../../data/model/collection.js';
import type { Itinerary } from '../../data/model/itinerary.js';
import { type Role, WRITE_ROLES } from '../../data/model/membership.js';
import type { Organization } from '../../data/model/organization.js';
import type { ShareResourceKind } from '../../data/model/share-link.js';
import type { Repositories } from '../../data/repositories.js';
import type { Zone } from '../../data/model/zone.js';
import type { Access } from '../auth/access.js';
import { ApiError, type ErrorPath } from '../errors.js';

/** What visibility depends on, whatever the kind of resource. */
export interface Visible {
  organizationId: string;
  privacy: 'public' | 'private';
  /** Collections only: personal collections belong to their creator. */
  scope?: 'organization' | 'personal';
  ownerUserId?: string | null;
}

const forbidden = (why?: string) => (why ? ApiError.withMessage('FORBIDDEN', `FORBIDDEN.${why}`) : new ApiError('FORBIDDEN'));

/** The caller's role in an organization: a signed-in member's own; undefined for keys, links and strangers. */
export function memberRole(caller: Access, organizationId: string): Role | undefined {
  return caller.kind === 'user' ? caller.memberships.get(organizationId) : undefined;
}

/**
 * Read by id. A key reads its own organization's resources whatever their privacy, and other
 * organizations' public ones; a member reads their organization's; anyone reads public ones. A private
 * personal collection is its creator's alone. Share tokens are checked by coverage (`shareCovers`), not here.
 */
export function canReadById(caller: Access, resource: Visible): boolean {
  const personal = resource.scope === 'personal';
  if (resource.privacy === 'public') return true;
  switch (caller.kind) {
    case 'key':
      return !personal && resource.organizationId === caller.organization.id;
    case 'user':
      if (personal) return resource.ownerUserId === caller.user.id;
      return caller.memberships.has(resource.organizationId);
    default:
      return false;
  }
}

/**
 * Whether a listing of `organizationId` may include private resources: a bare key lists public ones only;
 * a session token (or a member) lists the organization's private ones too.
 */
export function listsPrivate(caller: Access, organizationId: string): boolean {
  if (caller.kind === 'key') return caller.session !== undefined && caller.organization.id === organizationId;
  if (caller.kind === 'user') return caller.memberships.has(organizationId);
  return false;
}

/** The `role` field of a collection: the member's role, or `viewer` for anything read with a key or a link. */
export function roleOf(caller: Access, organizationId: string): Role {
  return memberRole(caller, organizationId) ?? 'viewer';
}

/**
 * Whether a share link reaches a resource: an itinerary link its itinerary only; a collection link the
 * collection and whatever is filed in it now (`inCollection` answers that, so items filed later count).
 */
export function shareCovers(
  caller: Access,
  target: { kind: 'collection' | 'itinerary' | 'zone'; id: string },
  inCollection: (collectionId: string) => boolean,
): boolean {
  if (caller.kind !== 'share') return false;
  const { link } = caller;
  if (link.resourceKind === 'itinerary') return target.kind === 'itinerary' && target.id === link.resourceId;
  if (target.kind === 'collection') return target.id === link.resourceId;
  return inCollection(link.resourceId);
}

/** The user a write is attributed to (lock holder identity): the X-User-Id member or the signed-in user. */
export function actorOf(caller: Access): string | undefined {
  if (caller.kind === 'key') return caller.actingMember?.userId;
  if (caller.kind === 'user') return caller.user.id;
  return undefined;
}

/**
 * The user a write in `organizationId` is attributed to, or undefined when the caller may not write there:
 * a key's acting member (X-User-Id, checked by the access layer) in the key's own organization, or a
 * signed-in member with a write role. Share tokens never write.
 */
export function writerIn(caller: Access, organizationId: string): string | undefined {
  if (caller.kind === 'key') return caller.organization.id === organizationId ? caller.actingMember?.userId : undefined;
  if (caller.kind === 'user') {
    const role = caller.memberships.get(organizationId);
    return role && WRITE_ROLES.includes(role) ? caller.user.id : undefined;
  }
  return undefined;
}

/** The user a write in `organizationId` is attributed to; 403 when the caller may not write there. */
export function requireWriterIn(caller: Access, organizationId: string): string {
  const userId = writerIn(caller, organizationId);
  if (!userId) throw forbidden();
  return userId;
}

/**
 * The organization a listing or a create works in. A key works in its own organization (asking for another
 * is 403). A signed-in user names one (`organization_id`, at `path` of the operation's input), which may be
 * left out when they belong to exactly one; a non-member asking is 403.
 */
export function organizationOf(caller: Access, requested: string | undefined, path: ErrorPath = ['organization_id']): string {
  if (caller.kind === 'key') {
    if (requested !== undefined && requested !== caller.organization.id) throw forbidden();
    return caller.organization.id;
  }
  if (caller.kind === 'user') {
    if (requested !== undefined) {
      if (!caller.memberships.has(requested)) throw forbidden();
      return requested;
    }
    if (caller.memberships.size === 1) return caller.memberships.keys().next().value as string;
    if (caller.memberships.size === 0) throw forbidden();
    throw ApiError.validation([{ path, messageKey: 'VALIDATION_FAILED.organization_required' }]);
  }
  throw forbidden();
}

/**
 * The organization a new itinerary goes to: the key's own, or for a signed-in user the one named, the
 * collection's, or the only one they may write in (several: name one at `path`). 403 when they may not write.
 */
export function creatingOrganization(
  caller: Access,
  requested: string | undefined,
  collectionOrganization: string | undefined,
  path: ErrorPath = ['organization_id'],
): string {
  if (caller.kind === 'key') {
    if (requested !== undefined && requested !== caller.organization.id) throw forbidden();
    return caller.organization.id;
  }
  if (caller.kind !== 'user') throw forbidden();
  let organizationId = requested ?? collectionOrganization;
  if (organizationId === undefined) {
    const writable = [...caller.memberships].filter(([, role]) => WRITE_ROLES.includes(role));
    if (writable.length === 0) throw forbidden();
    if (writable.length > 1) throw ApiError.validation([{ path }]);
    organizationId = writable[0]![0];
  }
  if (!writerIn(caller, organizationId)) throw forbidden();
  return organizationId;
}

/** Keys list their own organization's collections; members theirs; anyone else is refused. */
export function mayListOrganization(caller: Access, organizationId: string): void {
  if (caller.kind === 'key' && caller.organization.id === organizationId) return;
  if (caller.kind === 'user' && caller.memberships.has(organizationId)) return;
  throw forbidden();
}

/**
 * Which of a user's personal collections the caller lists: all of them for the user themself; the public
 * ones in the key's organization for a bare key of an organization the user belongs to (`isMember` answers
 * that). Anyone else, a session token included: 403.
 */
export function personalListing(
  caller: Access,
  userId: string,
  /** Whether `userId` belongs to the calling key's organization. */
  memberOfKeyOrganization: boolean,
): { organizationId?: string; publicOnly?: boolean } {
  if (caller.kind === 'user' && caller.user.id === userId) return {};
  if (caller.kind === 'key' && caller.session === undefined && memberOfKeyOrganization) {
    return { organizationId: caller.organization.id, publicOnly: true };
  }
  throw forbidden();
}

/** Products and card a surface needs (spec, Products): no product 402; Studio writes without a card 402. */
export function requireProducts(organization: Organization, scope: string, writes: boolean): void {
  if (scope === 'data' && !organization.products.includes('data')) throw new ApiError('PAYMENT_REQUIRED');
  if (scope === 'resources') {
    if (!organization.products.includes('studio')) throw new ApiError('PAYMENT_REQUIRED');
    if (writes && !organization.cardOnFile) throw new ApiError('CARD_REQUIRED');
  }
}

/**
 * The Data API's intelligence tier (suggestions, isochrones, line analysis): the calling key's organization
 * must hold the `intelligence` product (402 entry otherwise); a session token is required of every Data API
 * call already.
 */
export function requireIntelligence(caller: Access): void {
  if (caller.kind !== 'key' || caller.session === undefined) throw new ApiError('UNAUTHORIZED');
  if (!caller.organization.products.includes('intelligence'))
    throw ApiError.withMessage('PAYMENT_REQUIRED', 'PAYMENT_REQUIRED.intelligence');
}

/** Roles that manage an organization (keys, members, settings, billing). */
const MANAGING_ROLES: ReadonlySet<Role> = new Set(['owner', 'admin']);

/** Who manages: a member with a role, or an organization-level key (treated as an admin). */
export interface Manager {
  organizationId: string;
  role: Role;
  userId: string | undefined;
}

/**
 * The organization a management call acts on and the role it acts with: a key's own (as admin), or the
 * signed-in owner's or admin's (naming one with `organization_id` at `path` when they belong to several).
 * Not a member: 404; a contributor or viewer: 403.
 */
export function managerOf(caller: Access, requested: string | undefined, path: ErrorPath = ['organization_id']): Manager {
  if (caller.kind === 'key') return { organizationId: caller.organization.id, role: 'admin', userId: undefined };
  if (caller.kind !== 'user') throw new ApiError('UNAUTHORIZED');
  let organizationId = requested;
  if (!organizationId) {
    if (caller.memberships.size !== 1) throw ApiError.validation([{ path, messageKey: 'VALIDATION_FAILED.organization_required' }]);
    organizationId = caller.memberships.keys().next().value as string;
  }
  const role = caller.memberships.get(organizationId);
  if (!role) throw new ApiError('NOT_FOUND');
  if (!MANAGING_ROLES.has(role)) throw forbidden('manager_role');
  return { organizationId, role, userId: caller.user.id };
}

/** The resource loaders of the policy: each answers 404 for absent or invisible, 403 for read-only. */
export type Policy = ReturnType<typeof createPolicy>;

export function createPolicy(stores: Pick<Repositories, 'collections' | 'zones' | 'itineraries' | 'memberships'>) {
  const { collections, zones, itineraries } = stores;

  const canReadCollection = (caller: Access, c: Collection): boolean =>
    caller.kind === 'share' ? shareCovers(caller, { kind: 'collection', id: c.id }, () => false) : canReadById(caller, c);

  /** Whether a share token reaches the itinerary (itinerary link, or a collection link covering it). */
  const shareReaches = async (caller: Access, itineraryId: string): Promise<boolean> => {
    if (caller.kind !== 'share') return false;
    const filed =
      caller.link.resourceKind === 'collection' && (await collections.itineraryIds(caller.link.resourceId)).includes(itineraryId);
    return shareCovers(caller, { kind: 'itinerary', id: itineraryId }, () => filed);
  };

  const canReadItinerary = async (caller: Access, it: Itinerary): Promise<boolean> =>
    caller.kind === 'share'
      ? it.publishedVersion !== null && (await shareReaches(caller, it.id))
      : canReadById(caller, { organizationId: it.organizationId, privacy: it.privacy });

  const readableCollection = async (caller: Access, id: string): Promise<Collection> => {
    const c = await collections.get(id);
    if (!c || !canReadCollection(caller, c)) throw new ApiError('NOT_FOUND');
    return c;
  };

  const readableItinerary = async (caller: Access, id: string): Promise<Itinerary> => {
    const it = await itineraries.get(id);
    if (!it || !(await canReadItinerary(caller, it))) throw new ApiError('NOT_FOUND');
    return it;
  };

  const readableZone = async (caller: Access, id: string): Promise<Zone> => {
    const zone = await zones.get(id);
    if (!zone || !canReadById(caller, zone)) throw new ApiError('NOT_FOUND');
    return zone;
  };

  return {
    readableCollection,
    readableItinerary,
    readableZone,
    canReadItinerary,

    /**
     * The collection and the writing user when the caller may change it: a writer of its organization, and
     * for a personal collection its owner alone.
     */
    async writableCollection(caller: Access, id: string): Promise<{ collection: Collection; userId: string }> {
      const collection = await readableCollection(caller, id);
      const userId = writerIn(caller, collection.organizationId);
      if (!userId || (collection.scope === 'personal' && collection.ownerUserId !== userId)) throw forbidden();
      return { collection, userId };
    },

    async writableItinerary(caller: Access, id: string): Promise<{ itinerary: Itinerary; actor: string }> {
      const itinerary = await readableItinerary(caller, id);
      const actor = actorOf(caller);
      if (!actor || writerIn(caller, itinerary.organizationId) !== actor) throw forbidden();
      return { itinerary, actor };
    },

    async writableZone(caller: Access, id: string): Promise<{ zone: Zone; userId: string }> {
      const zone = await readableZone(caller, id);
      const userId = writerIn(caller, zone.organizationId);
      if (!userId) throw forbidden();
      return { zone, userId };
    },

    /**
     * The organization of a resource whose share link the caller may mint, rotate or disable: signed-in
     * members with a write role only (a personal collection's link is its creator's alone). 404 when the
     * resource is absent or the caller is not a member (never reveal which).
     */
    async shareManager(caller: Access, kind: ShareResourceKind, id: string): Promise<{ organizationId: string; userId: string }> {
      if (caller.kind !== 'user') throw forbidden('signed_in_only');
      let organizationId: string | undefined;
      if (kind === 'collection') {
        const collection = await collections.get(id);
        if (collection && (collection.scope !== 'personal' || collection.ownerUserId === caller.user.id)) {
          organizationId = collection.organizationId;
        }
      } else {
        organizationId = (await itineraries.get(id))?.organizationId;
      }
      const role = organizationId ? caller.memberships.get(organizationId) : undefined;
      if (!organizationId || !role) throw new ApiError('NOT_FOUND');
      if (role === 'viewer') throw forbidden('viewer');
      return { organizationId, userId: caller.user.id };
    },

    /** Whether `userId` belongs to `organizationId` (a bare key reading a member's personal collections). */
    isMember: async (organizationId: string, userId: string): Promise<boolean> =>
      (await stores.memberships.get(organizationId, userId)) !== undefined,
  };
}
