// REST bindings of the itinerary operations (DESIGN §6: 18, 20–24, 30–44). The rules live in
// ./itinerary-operations.ts and the services and plans it calls.

import { Type } from '@sinclair/typebox';
import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import type { itineraryOperations } from './itinerary-operations.js';
import * as S from './itinerary-schemas.js';

export function itineraryRoutes(ops: ReturnType<typeof itineraryOperations>): RouteDef[] {
  const itinerary = S.Envelope(S.Itinerary);
  const group = S.Envelope(S.ItinerarySegmentGroup);
  const locks = S.Envelope(Type.Array(S.ItineraryLock));
  const guarded = 'ResponseMetadataLockConflict' as const;

  return [
    studioRest(ops.postItinerary, {
      body: S.ItineraryCreateParams,
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Create an itinerary (an empty draft)',
    }),
    studioRest(ops.getItinerary, {
      params: S.ItineraryParams,
      query: S.ItineraryReadQuery,
      response: itinerary,
      summary: 'Read an itinerary: the draft (default) or the published snapshot; share tokens read the published one',
    }),
    studioRest(ops.patchItinerary, {
      params: S.ItineraryParams,
      body: S.ItineraryPatchParams,
      response: itinerary,
      conflict: 'ResponseMetadataPatchItinerary',
      summary: 'Update an itinerary (all fields optional)',
    }),
    studioRest(ops.deleteItinerary, {
      params: S.ItineraryParams,
      reply: 'empty',
      summary: 'Delete an itinerary',
    }),
    studioRest(ops.postItineraryDuplicate, {
      params: S.ItineraryParams,
      body: S.ItineraryDuplicateParams,
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Duplicate an itinerary, optionally into another organization and keeping a continuous run of segments',
    }),
    studioRest(ops.postItineraryPublish, {
      params: S.ItineraryParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Publish the draft as the immutable published snapshot',
    }),
    studioRest(ops.getItineraryLocks, {
      params: S.ItineraryParams,
      response: locks,
      summary: 'List the live soft locks and their holders',
    }),
    studioRest(ops.postItineraryLock, {
      params: S.ItineraryParams,
      body: S.ItineraryLockParams,
      response: locks,
      conflict: guarded,
      summary: 'Take soft locks on parts (or "all"), all or nothing',
    }),
    studioRest(ops.deleteItineraryLock, {
      params: S.ItineraryParams,
      reply: 'empty',
      summary: "Release the caller's soft locks",
    }),
    studioRest(ops.postItinerarySegment, {
      params: S.ItineraryParams,
      body: S.SegmentCreateParams,
      status: 201,
      response: itinerary,
      summary: 'Append a segment (creates its end waypoint)',
    }),
    studioRest(ops.postItinerarySegmentInsert, {
      params: S.ItineraryParams,
      body: S.SegmentInsertParams,
      status: 201,
      response: itinerary,
      conflict: guarded,
      summary: 'Insert a segment before a segment (between two neighbours, or before the first)',
    }),
    studioRest(ops.putItinerarySegment, {
      params: S.SegmentParams,
      body: S.SegmentUpdateParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Update a segment (name, description, group; coordinates of a freehand segment)',
    }),
    studioRest(ops.deleteItinerarySegment, {
      params: S.SegmentParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a segment (the chain closes up)',
    }),
    studioRest(ops.postItinerarySegmentMerge, {
      params: S.SegmentParams,
      body: S.SegmentMergeParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Merge with a neighbour sharing the same routing engine',
    }),
    studioRest(ops.postItinerarySegmentSplit, {
      params: S.SegmentParams,
      body: S.SegmentSplitParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Split in two at a point projected onto the segment',
    }),
    studioRest(ops.patchItinerarySegmentMode, {
      params: S.SegmentParams,
      body: S.SegmentModeParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Switch the routing engine (freehand to smart snaps, keeping the exact ends)',
    }),
    studioRest(ops.postItinerarySegmentGroup, {
      params: S.ItineraryParams,
      body: S.SegmentGroupCreateParams,
      status: 201,
      response: group,
      summary: 'Group a run of neighbouring segments',
    }),
    studioRest(ops.putItinerarySegmentGroup, {
      params: S.GroupParams,
      body: S.SegmentGroupUpdateParams,
      response: group,
      conflict: guarded,
      summary: 'Update a segment group',
    }),
    studioRest(ops.deleteItinerarySegmentGroup, {
      params: S.GroupParams,
      reply: 'empty',
      conflict: guarded,
      summary: 'Delete a segment group (its segments stay, ungrouped)',
    }),
    studioRest(ops.putItineraryWaypoint, {
      params: S.WaypointParams,
      body: S.WaypointUpdateParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Update a waypoint (moving it re-routes smart neighbours)',
    }),
    studioRest(ops.deleteItineraryWaypoint, {
      params: S.WaypointParams,
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a waypoint (its neighbours join)',
    }),
  ];
}
