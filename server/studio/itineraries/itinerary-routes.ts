// REST bindings of the itinerary operations (DESIGN §6: 18, 20–24, 30–44). The rules live in
// ./itinerary-operations.ts and the services and plans it calls.

import { Type } from '@sinclair/typebox';
import type { RouteDef } from '../../http/route.js';
import { rest } from '../../http/rest.js';
import type { itineraryOperations } from './itinerary-operations.js';
import * as S from './itinerary-schemas.js';

const BASE = '/v1/itineraries/{itinerary_id}';

export function itineraryRoutes(ops: ReturnType<typeof itineraryOperations>): RouteDef[] {
  const itinerary = S.Envelope(S.Itinerary);
  const group = S.Envelope(S.ItinerarySegmentGroup);
  const locks = S.Envelope(Type.Array(S.ItineraryLock));
  const guarded = 'ResponseMetadataLockConflict' as const;

  return [
    rest(ops.postItinerary, {
      method: 'POST',
      path: '/v1/itineraries',
      body: S.ItineraryCreateParams,
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Create an itinerary (an empty draft)',
    }),
    rest(ops.getItinerary, {
      method: 'GET',
      path: BASE,
      params: S.ItineraryParams,
      query: S.ItineraryReadQuery,
      response: itinerary,
      summary: 'Read an itinerary: the draft (default) or the published snapshot; share tokens read the published one',
    }),
    rest(ops.patchItinerary, {
      method: 'PATCH',
      path: BASE,
      params: S.ItineraryParams,
      body: S.ItineraryPatchParams,
      response: itinerary,
      conflict: 'ResponseMetadataPatchItinerary',
      summary: 'Update an itinerary (all fields optional)',
    }),
    rest(ops.deleteItinerary, {
      method: 'DELETE',
      path: BASE,
      params: S.ItineraryParams,
      reply: 'empty',
      summary: 'Delete an itinerary',
    }),
    rest(ops.postItineraryDuplicate, {
      method: 'POST',
      path: `${BASE}/duplicate`,
      params: S.ItineraryParams,
      body: S.ItineraryDuplicateParams,
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Duplicate an itinerary, optionally into another organization and keeping a continuous run of segments',
    }),
    rest(ops.postItineraryPublish, {
      method: 'POST',
      path: `${BASE}/publish`,
      params: S.ItineraryParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Publish the draft as the immutable published snapshot',
    }),
    rest(ops.getItineraryLocks, {
      method: 'GET',
      path: `${BASE}/locks`,
      params: S.ItineraryParams,
      response: locks,
      summary: 'List the live soft locks and their holders',
    }),
    rest(ops.postItineraryLock, {
      method: 'POST',
      path: `${BASE}/locks`,
      params: S.ItineraryParams,
      body: S.ItineraryLockParams,
      response: locks,
      conflict: guarded,
      summary: 'Take soft locks on parts (or "all"), all or nothing',
    }),
    rest(ops.deleteItineraryLock, {
      method: 'DELETE',
      path: `${BASE}/locks`,
      params: S.ItineraryParams,
      reply: 'empty',
      summary: "Release the caller's soft locks",
    }),
    rest(ops.postItinerarySegment, {
      method: 'POST',
      path: `${BASE}/segments`,
      params: S.ItineraryParams,
      body: S.SegmentCreateParams,
      status: 201,
      response: itinerary,
      summary: 'Append a segment (creates its end waypoint)',
    }),
    rest(ops.postItinerarySegmentInsert, {
      method: 'POST',
      path: `${BASE}/segments/insert`,
      params: S.ItineraryParams,
      body: S.SegmentInsertParams,
      status: 201,
      response: itinerary,
      conflict: guarded,
      summary: 'Insert a segment before a segment (between two neighbours, or before the first)',
    }),
    rest(ops.putItinerarySegment, {
      method: 'PUT',
      path: `${BASE}/segments/{segment_id}`,
      params: S.SegmentParams,
      body: S.SegmentUpdateParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Update a segment (name, description, group; coordinates of a freehand segment)',
    }),
    rest(ops.deleteItinerarySegment, {
      method: 'DELETE',
      path: `${BASE}/segments/{segment_id}`,
      params: S.SegmentParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a segment (the chain closes up)',
    }),
    rest(ops.postItinerarySegmentMerge, {
      method: 'POST',
      path: `${BASE}/segments/{segment_id}/merge`,
      params: S.SegmentParams,
      body: S.SegmentMergeParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Merge with a neighbour sharing the same routing engine',
    }),
    rest(ops.postItinerarySegmentSplit, {
      method: 'POST',
      path: `${BASE}/segments/{segment_id}/split`,
      params: S.SegmentParams,
      body: S.SegmentSplitParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Split in two at a point projected onto the segment',
    }),
    rest(ops.patchItinerarySegmentMode, {
      method: 'PATCH',
      path: `${BASE}/segments/{segment_id}/mode`,
      params: S.SegmentParams,
      body: S.SegmentModeParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Switch the routing engine (freehand to smart snaps, keeping the exact ends)',
    }),
    rest(ops.postItinerarySegmentGroup, {
      method: 'POST',
      path: `${BASE}/segment-groups`,
      params: S.ItineraryParams,
      body: S.SegmentGroupCreateParams,
      status: 201,
      response: group,
      summary: 'Group a run of neighbouring segments',
    }),
    rest(ops.putItinerarySegmentGroup, {
      method: 'PUT',
      path: `${BASE}/segment-groups/{group_id}`,
      params: S.GroupParams,
      body: S.SegmentGroupUpdateParams,
      response: group,
      conflict: guarded,
      summary: 'Update a segment group',
    }),
    rest(ops.deleteItinerarySegmentGroup, {
      method: 'DELETE',
      path: `${BASE}/segment-groups/{group_id}`,
      params: S.GroupParams,
      reply: 'empty',
      conflict: guarded,
      summary: 'Delete a segment group (its segments stay, ungrouped)',
    }),
    rest(ops.putItineraryWaypoint, {
      method: 'PUT',
      path: `${BASE}/waypoints/{waypoint_id}`,
      params: S.WaypointParams,
      body: S.WaypointUpdateParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Update a waypoint (moving it re-routes smart neighbours)',
    }),
    rest(ops.deleteItineraryWaypoint, {
      method: 'DELETE',
      path: `${BASE}/waypoints/{waypoint_id}`,
      params: S.WaypointParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a waypoint (its neighbours join)',
    }),
  ];
}
