// Who may see a resource once the access layer has identified the caller (spec: Bare publishable key,
// Share tokens, Studio resources). The Studio services call these; they never re-derive the rules.

import type { MembershipStore, Role } from '../../data/stores/membership-store.js';
import type { Access } from './access.js';

/** What visibility depends on, whatever the kind of resource. */
export interface Visible {
  organizationId: string;
  privacy: 'public' | 'private';
  /** Collections only: personal collections belong to their creator. */
  scope?: 'organization' | 'personal';
  ownerUserId?: string | null;
}

/**
 * Read by id. A key reads its own organization's resources whatever their privacy, and other
 * organizations' public ones; a member reads their organization's; anyone reads public ones. A private
 * personal collection is its creator's alone. Share tokens are checked by coverage (`shareCovers`), not here.
 */
export function canReadById(access: Access, resource: Visible, memberships: MembershipStore): boolean {
  const personal = resource.scope === 'personal';
  if (resource.privacy === 'public') return true;
  switch (access.kind) {
    case 'key':
      return !personal && resource.organizationId === access.organization.id;
    case 'user':
      if (personal) return resource.ownerUserId === access.user.id;
      return memberships.get(resource.organizationId, access.user.id) !== undefined;
    default:
      return false;
  }
}

/**
 * Whether a listing of `organizationId` may include private resources: a bare key lists public ones only;
 * a session token (or a member) lists the organization's private ones too.
 */
export function listsPrivate(access: Access, organizationId: string, memberships: MembershipStore): boolean {
  if (access.kind === 'key') return access.session !== undefined && access.organization.id === organizationId;
  if (access.kind === 'user') return memberships.get(organizationId, access.user.id) !== undefined;
  return false;
}

/** The `role` field of a collection: the member's role, or `viewer` for anything read with a key or a link. */
export function roleOf(access: Access, organizationId: string, memberships: MembershipStore): Role {
  if (access.kind === 'user') return memberships.get(organizationId, access.user.id)?.role ?? 'viewer';
  return 'viewer';
}

/**
 * Whether a share link reaches a resource: an itinerary link its itinerary only; a collection link the
 * collection and whatever is filed in it now (`inCollection` answers that, so items filed later count).
 */
export function shareCovers(
  access: Access,
  target: { kind: 'collection' | 'itinerary' | 'zone'; id: string },
  inCollection: (collectionId: string) => boolean,
): boolean {
  if (access.kind !== 'share') return false;
  const { link } = access;
  if (link.resourceKind === 'itinerary') return target.kind === 'itinerary' && target.id === link.resourceId;
  if (target.kind === 'collection') return target.id === link.resourceId;
  return inCollection(link.resourceId);
}
