// The 50 public Studio operations of DESIGN §6 (the session-minting call is #1), in the spec's order: the
// order of the OpenAPI document. Each entry is where the spec puts the operation, the one place its method and
// path are declared (`studioRest` binds an operation there); whether it writes, its scope and who reaches it
// come from the operation itself (server/core/operation.ts).

import { inputPartsOf, type Operation } from '../core/operation.js';
import { type RestBinding, rest } from '../http/rest.js';
import type { HttpMethod, RouteDef } from '../http/route.js';

/** Where the spec puts an operation; what it is (scope, writes, reach) is the operation's own declaration. */
export interface OperationDecl {
  op: string;
  method: HttpMethod;
  path: string;
}

const s = (op: string, method: HttpMethod, path: string): OperationDecl => ({ op, method, path });

export const STUDIO_OPERATIONS: readonly OperationDecl[] = [
  s('postSession', 'POST', '/v1/sessions'),
  s('getOrganizationCollections', 'GET', '/v1/organizations/{organization_id}/collections'),
  s('getUserCollections', 'GET', '/v1/users/{user_id}/collections'),
  s('postCollection', 'POST', '/v1/collections'),
  s('getCollection', 'GET', '/v1/collections/{collection_id}'),
  s('patchCollection', 'PATCH', '/v1/collections/{collection_id}'),
  s('deleteCollection', 'DELETE', '/v1/collections/{collection_id}'),
  s('getCollectionItineraries', 'GET', '/v1/collections/{collection_id}/itineraries'),
  s('putCollectionItinerary', 'PUT', '/v1/collections/{collection_id}/itineraries/{itinerary_id}'),
  s('deleteCollectionItinerary', 'DELETE', '/v1/collections/{collection_id}/itineraries/{itinerary_id}'),
  s('getCollectionZones', 'GET', '/v1/collections/{collection_id}/zones'),
  s('putCollectionZone', 'PUT', '/v1/collections/{collection_id}/zones/{zone_id}'),
  s('deleteCollectionZone', 'DELETE', '/v1/collections/{collection_id}/zones/{zone_id}'),
  s('postCollectionShare', 'POST', '/v1/collections/{collection_id}/share'),
  s('postCollectionShareRotate', 'POST', '/v1/collections/{collection_id}/share/rotate'),
  s('deleteCollectionShare', 'DELETE', '/v1/collections/{collection_id}/share'),
  s('getItineraries', 'GET', '/v1/itineraries'),
  s('postItinerary', 'POST', '/v1/itineraries'),
  s('postItineraryImport', 'POST', '/v1/itineraries/import'),
  s('getItinerary', 'GET', '/v1/itineraries/{itinerary_id}'),
  s('patchItinerary', 'PATCH', '/v1/itineraries/{itinerary_id}'),
  s('deleteItinerary', 'DELETE', '/v1/itineraries/{itinerary_id}'),
  s('postItineraryDuplicate', 'POST', '/v1/itineraries/{itinerary_id}/duplicate'),
  s('postItineraryPublish', 'POST', '/v1/itineraries/{itinerary_id}/publish'),
  s('getItineraryExport', 'GET', '/v1/itineraries/{itinerary_id}/export'),
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

const PLACES = new Map(STUDIO_OPERATIONS.map((d) => [d.op, d]));

/** What a Studio route adds to its operation: documentation and framing, never the input's schema. */
export type StudioBinding<O> = Omit<RestBinding<O>, 'method' | 'path' | 'params' | 'query' | 'body' | 'rawBody' | 'headers'>;

/**
 * The REST route of a Studio operation, at the method and path the table gives it, its request checked against
 * the input the operation declares (every Studio operation declares one).
 */
export function studioRest<I, O>(operation: Operation<I, O>, binding: StudioBinding<O>): RouteDef {
  const place = PLACES.get(operation.id);
  if (!place) throw new TypeError(`studio operation ${operation.id} is not in the operation table`);
  if (!operation.input) throw new TypeError(`studio operation ${operation.id} declares no input`);
  const inPath = [...place.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const declared = Object.keys(inputPartsOf(operation.input)?.params?.properties ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new TypeError(
      `studio operation ${operation.id}: path ${place.path} has {${inPath.join('}, {')}}, its input's params ${declared.join(', ')}`,
    );
  }
  return rest(operation, { ...binding, method: place.method, path: place.path });
}

/** The Studio routes in the table's order. Throws at start when a route is not in the table or an operation has none. */
export function studioRoutes(built: readonly RouteDef[]): RouteDef[] {
  const byOp = new Map(built.map((r) => [r.op, r]));
  for (const op of byOp.keys()) if (!PLACES.has(op)) throw new TypeError(`studio route ${op} is not in the operation table`);
  return STUDIO_OPERATIONS.map((decl) => {
    const route = byOp.get(decl.op);
    if (!route) throw new TypeError(`studio operation ${decl.op} has no route`);
    return route;
  });
}
