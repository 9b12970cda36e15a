// The itinerary operations' questions to the policy (server/core/policy.ts), which holds every rule:
// invisible itineraries are 404, visible but not writable 403.

import type { Itinerary } from '../../../data/stores/itinerary-store.js';
import type { Access } from '../../auth/access.js';
import { writerIn } from '../../core/policy.js';
import type { StudioDeps } from '../studio-deps.js';

export { actorOf } from '../../core/policy.js';

/** Whether the caller may create or change itineraries of `organizationId`. */
export function canWriteOrganization(_deps: StudioDeps, access: Access, organizationId: string): boolean {
  return writerIn(access, organizationId) !== undefined;
}

/** The itinerary if the caller may read it; 404 otherwise. */
export function loadReadable(deps: StudioDeps, access: Access, id: string): Itinerary {
  return deps.policy.readableItinerary(access, id);
}

/** The itinerary and the acting user if the caller may change it: 404 when invisible, 403 when read-only. */
export function loadWritable(deps: StudioDeps, access: Access, id: string): { itinerary: Itinerary; actor: string } {
  return deps.policy.writableItinerary(access, id);
}
