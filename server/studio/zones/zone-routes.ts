// REST bindings of the zone operations (DESIGN §6: 45–50). The rules live in ./zone-operations.ts.

import type { RouteDef } from '../../http/route.js';
import { rest } from '../../http/rest.js';
import { CollectionListResponse } from '../collections/collection-schemas.js';
import { PageQuery } from '../collections/pagination.js';
import {
  ZoneCreateParams,
  ZoneCreateQuery,
  ZoneIdParams,
  ZoneListQuery,
  ZoneListResponse,
  ZonePatchParams,
  ZoneResponse,
} from './zone-schemas.js';
import type { zoneOperations } from './zone-operations.js';

const GEOMETRY =
  'POLYGON takes a GeoJSON Polygon (closed rings of at least four positions), CIRCLE a Point with radius_m > 0, ' +
  'CORRIDOR a LineString of at least two positions with width_m > 0; positions are [lon, lat] or [lon, lat, ele] ' +
  'in degrees. Each bad field is its own 400 entry.';

export function zoneRoutes(ops: ReturnType<typeof zoneOperations>): RouteDef[] {
  return [
    rest(ops.getZones, {
      method: 'GET',
      path: '/v1/zones',
      summary: "List the organization's zones",
      description:
        "Lists the organization's zones (a bare publishable key: the public ones). A signed-in user belonging to " +
        'several organizations names one with `organization_id`.',
      query: ZoneListQuery,
      response: ZoneListResponse,
      reply: 'page',
    }),
    rest(ops.postZone, {
      method: 'POST',
      path: '/v1/zones',
      summary: 'Create a zone',
      description: `Creates a zone. ${GEOMETRY}`,
      query: ZoneCreateQuery,
      body: ZoneCreateParams,
      status: 201,
      response: ZoneResponse,
    }),
    rest(ops.getZone, {
      method: 'GET',
      path: '/v1/zones/{zone_id}',
      summary: 'Read a zone',
      description: 'Reads a zone.',
      params: ZoneIdParams,
      response: ZoneResponse,
    }),
    rest(ops.patchZone, {
      method: 'PATCH',
      path: '/v1/zones/{zone_id}',
      summary: 'Update a zone (all fields optional)',
      description: `Partial update: every field optional, omitted fields keep their value; the resulting shape is checked again. ${GEOMETRY}`,
      params: ZoneIdParams,
      body: ZonePatchParams,
      response: ZoneResponse,
    }),
    rest(ops.deleteZone, {
      method: 'DELETE',
      path: '/v1/zones/{zone_id}',
      summary: 'Delete a zone',
      description: 'Deletes a zone (204); it leaves every collection it was filed in.',
      params: ZoneIdParams,
      reply: 'empty',
    }),
    rest(ops.getZoneCollections, {
      method: 'GET',
      path: '/v1/zones/{zone_id}/collections',
      summary: 'List the collections holding a zone',
      description: 'Lists the collections the zone is filed in that the caller may see.',
      params: ZoneIdParams,
      query: PageQuery,
      response: CollectionListResponse,
      reply: 'page',
    }),
  ];
}
