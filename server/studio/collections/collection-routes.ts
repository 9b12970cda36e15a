// REST bindings of the collection operations (DESIGN §6: 2–13, 17, 26). The rules live in
// ./collection-operations.ts.

import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import { pageMetadata } from '../../http/rest.js';
import { ZoneListResponse } from '../zones/zone-schemas.js';
import type { collectionOperations } from './collection-operations.js';
import {
  CollectionListResponse,
  CollectionResponse,
  GroupedItinerariesResponse,
  ItinerarySummaryListResponse,
} from './collection-schemas.js';

const FILING =
  'Both must belong to the same organization (404 otherwise). Filing is idempotent: PUT answers 204 whether or ' +
  'not the item was already filed.';

export function collectionRoutes(ops: ReturnType<typeof collectionOperations>): RouteDef[] {
  return [
    studioRest(ops.getOrganizationCollections, {
      summary: "List an organization's collections",
      description:
        "Lists the organization's collections (organization scope). A bare publishable key lists the public ones of " +
        'its own organization, each with role viewer; a session token lists the private ones too; another ' +
        'organization is 403.',
      response: CollectionListResponse,
      reply: 'page',
    }),
    studioRest(ops.getUserCollections, {
      summary: "List a user's personal collections",
      description:
        'Lists personal collections only. The signed-in user themself sees all theirs; a bare publishable key of an ' +
        "organization the user belongs to sees the user's public ones there (role viewer); any other caller, a " +
        'session token included, gets 403.',
      response: CollectionListResponse,
      reply: 'page',
    }),
    studioRest(ops.postCollection, {
      summary: 'Create a collection',
      description:
        'Creates a collection in the organization scope (default) or in the personal scope of the writing user. ' +
        'A signed-in user belonging to several organizations names one with `organization_id`. A name already ' +
        'used in the same organization, scope and owner is 409 with `extensions.metadata.collection.id`.',
      status: 201,
      conflict: 'ResponseMetadataPostCollection',
      response: CollectionResponse,
    }),
    studioRest(ops.getCollection, {
      summary: 'Read a collection',
      description: 'Reads a collection. A share link of the collection reaches it.',
      response: CollectionResponse,
    }),
    studioRest(ops.patchCollection, {
      summary: 'Update a collection (all fields optional)',
      description:
        'Partial update: every field optional, omitted fields keep their value. A name already used in the same ' +
        'organization, scope and owner is 409 with `extensions.metadata.collection.id`.',
      conflict: 'ResponseMetadataPatchCollection',
      response: CollectionResponse,
    }),
    studioRest(ops.deleteCollection, {
      summary: 'Delete a collection (its itineraries and zones survive)',
      description: 'Deletes a collection (204). The itineraries and zones filed in it are kept.',
      reply: 'empty',
    }),
    studioRest(ops.getCollectionItineraries, {
      summary: "List a collection's itineraries",
      description:
        "Lists the collection's itineraries. Through a share link only published itineraries are listed, as " +
        'published; never-published ones are absent.',
      response: ItinerarySummaryListResponse,
      reply: 'page',
    }),
    studioRest(ops.putCollectionItinerary, {
      summary: 'File an itinerary in a collection',
      description: `Files an itinerary in the collection. ${FILING}`,
      reply: 'empty',
    }),
    studioRest(ops.deleteCollectionItinerary, {
      summary: 'Remove an itinerary from a collection',
      description: 'Unfiles an itinerary (204); 404 when it is not filed there. The itinerary itself is kept.',
      reply: 'empty',
    }),
    studioRest(ops.getCollectionZones, {
      summary: "List a collection's zones",
      description: "Lists the collection's zones. A share link of the collection reaches them.",
      response: ZoneListResponse,
      reply: 'page',
    }),
    studioRest(ops.putCollectionZone, {
      summary: 'File a zone in a collection',
      description: `Files a zone in the collection. ${FILING}`,
      reply: 'empty',
    }),
    studioRest(ops.deleteCollectionZone, {
      summary: 'Remove a zone from a collection',
      description: 'Unfiles a zone (204); 404 when it is not filed there. The zone itself is kept.',
      reply: 'empty',
    }),
    studioRest(ops.getItineraries, {
      summary: 'List itineraries grouped by collection',
      description:
        "Lists itineraries grouped by collection: by the caller's personal collections, or with `organization_id` " +
        "by that organization's collections. Each itinerary appears once, in the first group holding it; those in " +
        'none come last with `collection: null`. `count` is the number of itineraries in the page. A bare ' +
        'publishable key lists public itineraries only.',
      response: GroupedItinerariesResponse,
      // The grouped listing's envelope carries `count` and `limit` beside the pagination metadata.
      reply: ({ items, count, total, page }) => ({
        json: { data: items, count, limit: page.limit, extensions: { metadata: pageMetadata(page, total) } },
      }),
    }),
    studioRest(ops.getItineraryCollections, {
      summary: 'List the collections holding an itinerary',
      description: 'Lists the collections the itinerary is filed in that the caller may see.',
      response: CollectionListResponse,
      reply: 'page',
    }),
  ];
}
