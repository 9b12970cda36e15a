// REST bindings of the zone operations (DESIGN §6: 45–50). The rules live in ./zone-operations.ts.

import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import { CollectionListResponse } from '../collections/collection-schemas.js';
import { ZoneListResponse, ZoneResponse } from './zone-schemas.js';
import type { zoneOperations } from './zone-operations.js';

const GEOMETRY =
  'POLYGON takes a GeoJSON Polygon (closed rings of at least four positions), CIRCLE a Point with radius_m > 0, ' +
  'CORRIDOR a LineString of at least two positions with width_m > 0; positions are [lon, lat] or [lon, lat, ele] ' +
  'in degrees. Each bad field is its own 400 entry.';

export function zoneRoutes(ops: ReturnType<typeof zoneOperations>): RouteDef[] {
  return [
    studioRest(ops.getZones, {
      summary: "List the organization's zones",
      description:
        "Lists the organization's zones (a bare publishable key: the public ones). A signed-in user belonging to " +
        'several organizations names one with `organization_id`.',
      response: ZoneListResponse,
      reply: 'page',
    }),
    studioRest(ops.postZone, {
      summary: 'Create a zone',
      description: `Creates a zone. ${GEOMETRY}`,
      status: 201,
      response: ZoneResponse,
    }),
    studioRest(ops.getZone, {
      summary: 'Read a zone',
      description: 'Reads a zone.',
      response: ZoneResponse,
    }),
    studioRest(ops.patchZone, {
      summary: 'Update a zone (all fields optional)',
      description: `Partial update: every field optional, omitted fields keep their value; the resulting shape is checked again. ${GEOMETRY}`,
      response: ZoneResponse,
    }),
    studioRest(ops.deleteZone, {
      summary: 'Delete a zone',
      description: 'Deletes a zone (204); it leaves every collection it was filed in.',
      reply: 'empty',
    }),
    studioRest(ops.getZoneCollections, {
      summary: 'List the collections holding a zone',
      description: 'Lists the collections the zone is filed in that the caller may see.',
      response: CollectionListResponse,
      reply: 'page',
    }),
  ];
}
