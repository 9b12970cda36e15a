// The 50 public Studio operations of DESIGN §6 (the session-minting call is #1): the table that
// dispatch, 405 `Allow` and the OpenAPI document are built from. Each entry says whether the operation
// writes and whether a share link reaches it; a built route must agree with its entry (checked at start).
// Operations not built yet answer 501 NOT_IMPLEMENTED.

import { ApiError } from '../errors.js';
import type { HttpMethod, RouteDef, RouteScope } from '../http/route.js';

export interface OperationDecl {
  op: string;
  method: HttpMethod;
  path: string;
  scope: RouteScope;
  writes: boolean;
  /** Reads a share link may reach. */
  share?: boolean;
}

const s = (op: string, method: HttpMethod, path: string, scope: RouteScope = 'resources'): OperationDecl => ({
  op,
  method,
  path,
  scope,
  // Every Studio operation but the listings and reads changes state; minting a session stores nothing.
  writes: method !== 'GET' && scope !== 'any',
});
/** A read that share tokens may use. */
const shared = (op: string, path: string): OperationDecl => ({ ...s(op, 'GET', path), share: true });

export const STUDIO_OPERATIONS: readonly OperationDecl[] = [
  s('postSession', 'POST', '/v1/sessions', 'any'),
  s('getOrganizationCollections', 'GET', '/v1/organizations/{organization_id}/collections'),
  s('getUserCollections', 'GET', '/v1/users/{user_id}/collections'),
  s('postCollection', 'POST', '/v1/collections'),
  shared('getCollection', '/v1/collections/{collection_id}'),
  s('patchCollection', 'PATCH', '/v1/collections/{collection_id}'),
  s('deleteCollection', 'DELETE', '/v1/collections/{collection_id}'),
  shared('getCollectionItineraries', '/v1/collections/{collection_id}/itineraries'),
  s('putCollectionItinerary', 'PUT', '/v1/collections/{collection_id}/itineraries/{itinerary_id}'),
  s('deleteCollectionItinerary', 'DELETE', '/v1/collections/{collection_id}/itineraries/{itinerary_id}'),
  shared('getCollectionZones', '/v1/collections/{collection_id}/zones'),
  s('putCollectionZone', 'PUT', '/v1/collections/{collection_id}/zones/{zone_id}'),
  s('deleteCollectionZone', 'DELETE', '/v1/collections/{collection_id}/zones/{zone_id}'),
  s('postCollectionShare', 'POST', '/v1/collections/{collection_id}/share'),
  s('postCollectionShareRotate', 'POST', '/v1/collections/{collection_id}/share/rotate'),
  s('deleteCollectionShare', 'DELETE', '/v1/collections/{collection_id}/share'),
  s('getItineraries', 'GET', '/v1/itineraries'),
  s('postItinerary', 'POST', '/v1/itineraries'),
  s('postItineraryImport', 'POST', '/v1/itineraries/import'),
  shared('getItinerary', '/v1/itineraries/{itinerary_id}'),
  s('patchItinerary', 'PATCH', '/v1/itineraries/{itinerary_id}'),
  s('deleteItinerary', 'DELETE', '/v1/itineraries/{itinerary_id}'),
  s('postItineraryDuplicate', 'POST', '/v1/itineraries/{itinerary_id}/duplicate'),
  s('postItineraryPublish', 'POST', '/v1/itineraries/{itinerary_id}/publish'),
  shared('getItineraryExport', '/v1/itineraries/{itinerary_id}/export'),
  s('getItineraryCollections', 'GET', '/v1/itineraries/{itinerary_id}/collections'),
  s('postItineraryShare', 'POST', '/v1/itineraries/{itinerary_id}/share'),
  s('postItineraryShareRotate', 'POST', '/v1/itineraries/{itinerary_id}/share/rotate'),
  s('deleteItineraryShare', 'DELETE', '/v1/itineraries/{itinerary_id}/share'),
  s('getItineraryLocks', 'GET', '/v1/itineraries/{itinerary_id}/locks'),
  s('postItineraryLock', 'POST', '/v1/itineraries/{itinerary_id}/locks'),
  s('deleteItineraryLock', 'DELETE', '/v1/itineraries/{itinerary_id}/locks'),
  s('postItinerarySegment', 'POST', '/v1/itineraries/{itinerary_id}/segments'),
  s('postItinerarySegmentInsert', 'POST', '/v1/itineraries/{itinerary_id}/segments/insert'),
  s('putItinerarySegment', 'PUT', '/v1/itineraries/{itinerary_id}/segments/{segment_id}'),
  s('deleteItinerarySegment', 'DELETE', '/v1/itineraries/{itinerary_id}/segments/{segment_id}'),
  s('postItinerarySegmentMerge', 'POST', '/v1/itineraries/{itinerary_id}/segments/{segment_id}/merge'),
  s('postItinerarySegmentSplit', 'POST', '/v1/itineraries/{itinerary_id}/segments/{segment_id}/split'),
  s('patchItinerarySegmentMode', 'PATCH', '/v1/itineraries/{itinerary_id}/segments/{segment_id}/mode'),
  s('postItinerarySegmentGroup', 'POST', '/v1/itineraries/{itinerary_id}/segment-groups'),
  s('putItinerarySegmentGroup', 'PUT', '/v1/itineraries/{itinerary_id}/segment-groups/{group_id}'),
  s('deleteItinerarySegmentGroup', 'DELETE', '/v1/itineraries/{itinerary_id}/segment-groups/{group_id}'),
  s('putItineraryWaypoint', 'PUT', '/v1/itineraries/{itinerary_id}/waypoints/{waypoint_id}'),
  s('deleteItineraryWaypoint', 'DELETE', '/v1/itineraries/{itinerary_id}/waypoints/{waypoint_id}'),
  s('getZones', 'GET', '/v1/zones'),
  s('postZone', 'POST', '/v1/zones'),
  s('getZone', 'GET', '/v1/zones/{zone_id}'),
  s('patchZone', 'PATCH', '/v1/zones/{zone_id}'),
  s('deleteZone', 'DELETE', '/v1/zones/{zone_id}'),
  s('getZoneCollections', 'GET', '/v1/zones/{zone_id}/collections'),
];

/** Whether the declared operation `op` writes (for routes not yet built from an operation object). */
export function declaredWrites(op: string): boolean {
  const decl = STUDIO_OPERATIONS.find((d) => d.op === op);
  if (!decl) throw new TypeError(`${op} is not a declared Studio operation`);
  return decl.writes;
}

function notImplemented(): never {
  throw new ApiError('NOT_IMPLEMENTED');
}

/**
 * Route definitions for every declared operation: `built` supplies the ones that exist (matched by op);
 * the rest answer 501. Throws if `built` names an operation that is not declared.
 */
export function studioRoutes(built: readonly RouteDef[]): RouteDef[] {
  const byOp = new Map(built.map((r) => [r.op, r]));
  for (const route of byOp.values()) {
    const decl = STUDIO_OPERATIONS.find((d) => d.op === route.op);
    if (!decl) throw new TypeError(`studio route ${route.op} is not a declared operation`);
    if (route.writes !== decl.writes || Boolean(route.share) !== Boolean(decl.share) || route.scope !== decl.scope) {
      throw new TypeError(`studio route ${route.op} does not match its declaration (writes, share, scope)`);
    }
  }
  return STUDIO_OPERATIONS.map(
    (decl) => byOp.get(decl.op) ?? { ...decl, public: true, handler: notImplemented },
  );
}
