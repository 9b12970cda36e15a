// What a Studio caller may do in an organization, derived from the access layer's answer (server/auth/access.ts).
// Reading rules live in server/auth/visibility.ts; this file only adds the writing side and picks the
// organization a call works in.

import { type MembershipStore, WRITE_ROLES } from '../../../data/stores/membership-store.js';
import type { Access } from '../../auth/access.js';
import { ApiError } from '../../errors.js';

/**
 * The user a write in `organizationId` is attributed to, or undefined when the caller may not write there:
 * a key's acting member (X-User-Id, checked by the access layer) in the key's own organization, or a
 * signed-in member with a write role. Share tokens never write.
 */
export function writerIn(access: Access, organizationId: string, memberships: MembershipStore): string | undefined {
  if (access.kind === 'key') {
    return access.organization.id === organizationId ? access.actingMember?.userId : undefined;
  }
  if (access.kind === 'user') {
    const role = memberships.get(organizationId, access.user.id)?.role;
    return role && WRITE_ROLES.includes(role) ? access.user.id : undefined;
  }
  return undefined;
}

/**
 * The organization a listing or a create works in. A key works in its own organization (asking for another
 * is 403). A signed-in user names one with `organization_id`, which may be left out when they belong to
 * exactly one; a non-member asking is 403.
 */
export function organizationOf(
  access: Access,
  requested: string | undefined,
  memberships: MembershipStore,
): string {
  if (access.kind === 'key') {
    if (requested !== undefined && requested !== access.organization.id) throw new ApiError('FORBIDDEN');
    return access.organization.id;
  }
  if (access.kind === 'user') {
    if (requested !== undefined) {
      if (!memberships.get(requested, access.user.id)) throw new ApiError('FORBIDDEN');
      return requested;
    }
    const mine = memberships.listByUser(access.user.id);
    if (mine.length === 1) return (mine[0] as { organizationId: string }).organizationId;
    if (mine.length === 0) throw new ApiError('FORBIDDEN');
    throw ApiError.validation([{ path: ['request', 'query', 'organization_id'], messageKey: 'VALIDATION_FAILED' }]);
  }
  throw new ApiError('FORBIDDEN');
}
