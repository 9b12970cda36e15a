// Route definitions of the zone operations (DESIGN §6: 45–50). The rules live in ./zone-service.ts.

import type { Access } from '../../auth/access.js';
import type { RequestContext, RouteDef } from '../../http/route.js';
import { CollectionListResponse } from '../collections/collection-schemas.js';
import { createCollectionService } from '../collections/collection-service.js';
import { pageMetadata, pageOf, PageQuery } from '../collections/pagination.js';
import type { StudioDeps } from '../studio-deps.js';
import {
  ZoneCreateParams,
  ZoneCreateQuery,
  ZoneIdParams,
  ZoneListQuery,
  ZoneListResponse,
  ZonePatchParams,
  ZoneResponse,
} from './zone-schemas.js';
import { createZoneService, type ZoneCreateBody, type ZonePatchBody } from './zone-service.js';

const accessOf = (ctx: RequestContext) => ctx.access as Access;
const base = { scope: 'resources' as const, public: true };
type PageParams = { limit?: number; offset?: number };

const GEOMETRY =
  'POLYGON takes a GeoJSON Polygon (closed rings of at least four positions), CIRCLE a Point with radius_m > 0, ' +
  'CORRIDOR a LineString of at least two positions with width_m > 0; positions are [lon, lat] or [lon, lat, ele] ' +
  'in degrees. Each bad field is its own 400 entry.';

export function zoneRoutes(deps: StudioDeps): RouteDef[] {
  const service = createZoneService(deps);
  const collections = createCollectionService(deps);
  const one = (data: unknown) => ({ json: { data, extensions: { metadata: {} } } });

  return [
    {
      ...base,
      op: 'getZones',
      summary: "List the organization's zones",
      method: 'GET',
      path: '/v1/zones',
      description:
        "Lists the organization's zones (a bare publishable key: the public ones). A signed-in user belonging to " +
        'several organizations names one with `organization_id`.',
      query: ZoneListQuery,
      response: ZoneListResponse,
      handler: async (ctx: RequestContext<Record<string, string>, PageParams & { organization_id?: string }>) => {
        const page = pageOf(ctx.query);
        const { items, total } = await service.list(accessOf(ctx), ctx.query.organization_id, page);
        return { json: { data: items, extensions: { metadata: pageMetadata(page, total) } } };
      },
    },
    {
      ...base,
      op: 'postZone',
      summary: 'Create a zone',
      method: 'POST',
      path: '/v1/zones',
      description: `Creates a zone. ${GEOMETRY}`,
      query: ZoneCreateQuery,
      body: ZoneCreateParams,
      status: 201,
      response: ZoneResponse,
      handler: async (ctx: RequestContext<Record<string, string>, { organization_id?: string }, ZoneCreateBody>) => ({
        status: 201,
        ...one(await service.create(accessOf(ctx), ctx.body, ctx.query.organization_id)),
      }),
    },
    {
      ...base,
      op: 'getZone',
      summary: 'Read a zone',
      method: 'GET',
      path: '/v1/zones/{zone_id}',
      description: 'Reads a zone.',
      params: ZoneIdParams,
      response: ZoneResponse,
      handler: async (ctx: RequestContext<{ zone_id: string }>) => one(await service.get(accessOf(ctx), ctx.params.zone_id)),
    },
    {
      ...base,
      op: 'patchZone',
      summary: 'Update a zone (all fields optional)',
      method: 'PATCH',
      path: '/v1/zones/{zone_id}',
      description: `Partial update: every field optional, omitted fields keep their value; the resulting shape is checked again. ${GEOMETRY}`,
      params: ZoneIdParams,
      body: ZonePatchParams,
      response: ZoneResponse,
      handler: async (ctx: RequestContext<{ zone_id: string }, Record<string, unknown>, ZonePatchBody>) =>
        one(await service.patch(accessOf(ctx), ctx.params.zone_id, ctx.body)),
    },
    {
      ...base,
      op: 'deleteZone',
      summary: 'Delete a zone',
      method: 'DELETE',
      path: '/v1/zones/{zone_id}',
      description: 'Deletes a zone (204); it leaves every collection it was filed in.',
      params: ZoneIdParams,
      status: 204,
      handler: async (ctx: RequestContext<{ zone_id: string }>) => {
        await service.remove(accessOf(ctx), ctx.params.zone_id);
        return { status: 204, json: null };
      },
    },
    {
      ...base,
      op: 'getZoneCollections',
      summary: 'List the collections holding a zone',
      method: 'GET',
      path: '/v1/zones/{zone_id}/collections',
      description: 'Lists the collections the zone is filed in that the caller may see.',
      params: ZoneIdParams,
      query: PageQuery,
      response: CollectionListResponse,
      handler: async (ctx: RequestContext<{ zone_id: string }, PageParams>) => {
        const page = pageOf(ctx.query);
        const access = accessOf(ctx);
        await deps.writes.settled();
        const zone = service.readable(access, ctx.params.zone_id);
        const { items, total } = await collections.listHolding(access, 'zone', zone.id, zone.organizationId, page);
        return { json: { data: items, extensions: { metadata: pageMetadata(page, total) } } };
      },
    },
  ];
}
