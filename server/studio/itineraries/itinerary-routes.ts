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
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Create an itinerary (an empty draft)',
    }),
    studioRest(ops.getItinerary, {
      response: itinerary,
      summary: 'Read an itinerary: the draft (default) or the published snapshot; share tokens read the published one',
    }),
    studioRest(ops.patchItinerary, {
      response: itinerary,
      conflict: 'ResponseMetadataPatchItinerary',
      summary: 'Update an itinerary (all fields optional)',
    }),
    studioRest(ops.deleteItinerary, {
      reply: 'empty',
      summary: 'Delete an itinerary',
    }),
    studioRest(ops.postItineraryDuplicate, {
      status: 201,
      response: itinerary,
      conflict: 'ResponseMetadataPostItinerary',
      summary: 'Duplicate an itinerary, optionally into another organization and keeping a continuous run of segments',
    }),
    studioRest(ops.postItineraryPublish, {
      response: itinerary,
      conflict: guarded,
      summary: 'Publish the draft as the immutable published snapshot',
    }),
    studioRest(ops.getItineraryLocks, {
      response: locks,
      summary: 'List the live soft locks and their holders',
    }),
    studioRest(ops.postItineraryLock, {
      response: locks,
      conflict: guarded,
      summary: 'Take soft locks on parts (or "all"), all or nothing',
    }),
    studioRest(ops.deleteItineraryLock, {
      reply: 'empty',
      summary: "Release the caller's soft locks",
    }),
    studioRest(ops.postItinerarySegment, {
      status: 201,
      response: itinerary,
      summary: 'Append a segment (creates its end waypoint)',
    }),
    studioRest(ops.postItinerarySegmentInsert, {
      status: 201,
      response: itinerary,
      conflict: guarded,
      summary: 'Insert a segment before a segment (between two neighbours, or before the first)',
    }),
    studioRest(ops.putItinerarySegment, {
      response: itinerary,
      conflict: guarded,
      summary: 'Update a segment (name, description, group; coordinates of a freehand segment)',
    }),
    studioRest(ops.deleteItinerarySegment, {
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a segment (the chain closes up)',
    }),
    studioRest(ops.postItinerarySegmentMerge, {
      response: itinerary,
      conflict: guarded,
      summary: 'Merge with a neighbour sharing the same routing engine',
    }),
    studioRest(ops.postItinerarySegmentSplit, {
      response: itinerary,
      conflict: guarded,
      summary: 'Split in two at a point projected onto the segment',
    }),
    studioRest(ops.patchItinerarySegmentMode, {
      response: itinerary,
      conflict: guarded,
      summary: 'Switch the routing engine (freehand to smart snaps, keeping the exact ends)',
    }),
    studioRest(ops.postItinerarySegmentGroup, {
      status: 201,
      response: group,
      summary: 'Group a run of neighbouring segments',
    }),
    studioRest(ops.putItinerarySegmentGroup, {
      response: group,
      conflict: guarded,
      summary: 'Update a segment group',
    }),
    studioRest(ops.deleteItinerarySegmentGroup, {
      reply: 'empty',
      conflict: guarded,
      summary: 'Delete a segment group (its segments stay, ungrouped)',
    }),
    studioRest(ops.putItineraryWaypoint, {
      response: itinerary,
      conflict: guarded,
      summary: 'Update a waypoint (moving it re-routes smart neighbours)',
    }),
    studioRest(ops.deleteItineraryWaypoint, {
      response: itinerary,
      conflict: guarded,
      summary: 'Delete a waypoint (its neighbours join)',
    }),
  ];
}
