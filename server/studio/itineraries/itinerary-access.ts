// Who may read or change an itinerary, from what the access layer decided (server/auth/access.ts) and the
// visibility rules (server/auth/visibility.ts). Invisible itineraries are 404; visible but not writable 403.

import type { Itinerary } from '../../../data/stores/itinerary-store.js';
import type { Access } from '../../auth/access.js';
import { canReadById, shareCovers } from '../../auth/visibility.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';

const WRITE_ROLES = new Set(['owner', 'admin', 'contributor']);

/** The user a write is attributed to (lock holder identity): the X-User-Id member or the signed-in user. */
export function actorOf(access: Access): string | undefined {
  if (access.kind === 'key') return access.actingMember?.userId;
  if (access.kind === 'user') return access.user.id;
  return undefined;
}

/** Whether the caller may create or change itineraries of `organizationId`. */
export function canWriteOrganization(deps: StudioDeps, access: Access, organizationId: string): boolean {
  if (access.kind === 'key') return access.actingMember !== undefined && access.organization.id === organizationId;
  if (access.kind === 'user') {
    const role = deps.stores.memberships.get(organizationId, access.user.id)?.role;
    return role !== undefined && WRITE_ROLES.has(role);
  }
  return false;
}

/** Whether a share token reaches the itinerary (itinerary link, or a collection link covering it). */
export function shareReaches(deps: StudioDeps, access: Access, itineraryId: string): boolean {
  return shareCovers(access, { kind: 'itinerary', id: itineraryId }, (collectionId) =>
    deps.stores.collections.itineraryIds(collectionId).includes(itineraryId),
  );
}

/** Whether the caller sees the itinerary at all (share tokens: only a published one they cover). */
export function canRead(deps: StudioDeps, access: Access, it: Itinerary): boolean {
  if (access.kind === 'share') return it.publishedVersion !== null && shareReaches(deps, access, it.id);
  return canReadById(access, { organizationId: it.organizationId, privacy: it.privacy }, deps.stores.memberships);
}

/** The itinerary if the caller may read it; 404 otherwise. */
export function loadReadable(deps: StudioDeps, access: Access, id: string): Itinerary {
  const it = deps.stores.itineraries.get(id);
  if (!it || !canRead(deps, access, it)) throw new ApiError('NOT_FOUND');
  return it;
}

/** The itinerary and the acting user if the caller may change it: 404 when invisible, 403 when read-only. */
export function loadWritable(deps: StudioDeps, access: Access, id: string): { itinerary: Itinerary; actor: string } {
  const it = loadReadable(deps, access, id);
  const actor = actorOf(access);
  if (!actor || !canWriteOrganization(deps, access, it.organizationId)) throw new ApiError('FORBIDDEN');
  return { itinerary: it, actor };
}
