// Route definitions of a collection's items (DESIGN §6: 8–13) and of the itinerary listings that group or
// locate itineraries by collection (17, 26).

import type { Access } from '../../auth/access.js';
import type { RequestContext, RouteDef } from '../../http/route.js';
import { declaredWrites } from '../operations.js';
import type { StudioDeps } from '../studio-deps.js';
import { ZoneListResponse } from '../zones/zone-schemas.js';
import { createCollectionItemService } from './collection-item-service.js';
import {
  CollectionIdParams,
  CollectionItineraryParams,
  CollectionListResponse,
  CollectionZoneParams,
  GroupedItinerariesResponse,
  ItineraryIdParams,
  ItinerarySummaryListResponse,
} from './collection-schemas.js';
import type { CollectionService } from './collection-service.js';
import { createItineraryGrouping } from './itinerary-grouping.js';
import { pageMetadata, pageOf, PageQuery, pageQuery } from './pagination.js';
import { Type } from '@sinclair/typebox';

const accessOf = (ctx: RequestContext) => ctx.access as Access;
const base = { scope: 'resources' as const, public: true };
/** Until these become operation objects, the operation table (../operations.ts) says whether each writes. */
const declared = (op: string) => ({ op, writes: declaredWrites(op) });
type PageParams = { limit?: number; offset?: number };

const FILING =
  'Both must belong to the same organization (404 otherwise). Filing is idempotent: PUT answers 204 whether or ' +
  'not the item was already filed.';

export function collectionItemRoutes(deps: StudioDeps, collections: CollectionService): RouteDef[] {
  const items = createCollectionItemService({ stores: deps.stores, writes: deps.writes, collections });
  const grouping = createItineraryGrouping(deps);
  const page = (data: unknown[], p: { limit: number; offset: number }, total: number) => ({
    json: { data, extensions: { metadata: pageMetadata(p, total) } },
  });
  const noContent = { status: 204, json: null };

  return [
    {
      ...base,
      ...declared('getCollectionItineraries'),
      summary: "List a collection's itineraries",
      method: 'GET',
      path: '/v1/collections/{collection_id}/itineraries',
      description:
        "Lists the collection's itineraries. Through a share link only published itineraries are listed, as " +
        'published; never-published ones are absent.',
      share: true,
      params: CollectionIdParams,
      query: PageQuery,
      response: ItinerarySummaryListResponse,
      handler: async (ctx: RequestContext<{ collection_id: string }, PageParams>) => {
        const p = pageOf(ctx.query);
        const { items: rows, total } = await items.listItineraries(accessOf(ctx), ctx.params.collection_id, p);
        return page(rows, p, total);
      },
    },
    {
      ...base,
      ...declared('putCollectionItinerary'),
      summary: 'File an itinerary in a collection',
      method: 'PUT',
      path: '/v1/collections/{collection_id}/itineraries/{itinerary_id}',
      description: `Files an itinerary in the collection. ${FILING}`,
      params: CollectionItineraryParams,
      status: 204,
      handler: async (ctx: RequestContext<{ collection_id: string; itinerary_id: string }>) => {
        await items.fileItinerary(accessOf(ctx), ctx.params.collection_id, ctx.params.itinerary_id);
        return noContent;
      },
    },
    {
      ...base,
      ...declared('deleteCollectionItinerary'),
      summary: 'Remove an itinerary from a collection',
      method: 'DELETE',
      path: '/v1/collections/{collection_id}/itineraries/{itinerary_id}',
      description: 'Unfiles an itinerary (204); 404 when it is not filed there. The itinerary itself is kept.',
      params: CollectionItineraryParams,
      status: 204,
      handler: async (ctx: RequestContext<{ collection_id: string; itinerary_id: string }>) => {
        await items.unfileItinerary(accessOf(ctx), ctx.params.collection_id, ctx.params.itinerary_id);
        return noContent;
      },
    },
    {
      ...base,
      ...declared('getCollectionZones'),
      summary: "List a collection's zones",
      method: 'GET',
      path: '/v1/collections/{collection_id}/zones',
      description: "Lists the collection's zones. A share link of the collection reaches them.",
      share: true,
      params: CollectionIdParams,
      query: PageQuery,
      response: ZoneListResponse,
      handler: async (ctx: RequestContext<{ collection_id: string }, PageParams>) => {
        const p = pageOf(ctx.query);
        const { items: rows, total } = await items.listZones(accessOf(ctx), ctx.params.collection_id, p);
        return page(rows, p, total);
      },
    },
    {
      ...base,
      ...declared('putCollectionZone'),
      summary: 'File a zone in a collection',
      method: 'PUT',
      path: '/v1/collections/{collection_id}/zones/{zone_id}',
      description: `Files a zone in the collection. ${FILING}`,
      params: CollectionZoneParams,
      status: 204,
      handler: async (ctx: RequestContext<{ collection_id: string; zone_id: string }>) => {
        await items.fileZone(accessOf(ctx), ctx.params.collection_id, ctx.params.zone_id);
        return noContent;
      },
    },
    {
      ...base,
      ...declared('deleteCollectionZone'),
      summary: 'Remove a zone from a collection',
      method: 'DELETE',
      path: '/v1/collections/{collection_id}/zones/{zone_id}',
      description: 'Unfiles a zone (204); 404 when it is not filed there. The zone itself is kept.',
      params: CollectionZoneParams,
      status: 204,
      handler: async (ctx: RequestContext<{ collection_id: string; zone_id: string }>) => {
        await items.unfileZone(accessOf(ctx), ctx.params.collection_id, ctx.params.zone_id);
        return noContent;
      },
    },
    {
      ...base,
      ...declared('getItineraries'),
      summary: 'List itineraries grouped by collection',
      method: 'GET',
      path: '/v1/itineraries',
      description:
        "Lists itineraries grouped by collection: by the caller's personal collections, or with `organization_id` " +
        "by that organization's collections. Each itinerary appears once, in the first group holding it; those in " +
        'none come last with `collection: null`. `count` is the number of itineraries in the page. A bare ' +
        'publishable key lists public itineraries only.',
      query: pageQuery({ organization_id: Type.Optional(Type.String({ format: 'uuid' })) }),
      response: GroupedItinerariesResponse,
      handler: async (ctx: RequestContext<Record<string, string>, PageParams & { organization_id?: string }>) => {
        const p = pageOf(ctx.query);
        const { data, count, total } = await grouping.list(accessOf(ctx), ctx.query.organization_id, p);
        return { json: { data, count, limit: p.limit, extensions: { metadata: pageMetadata(p, total) } } };
      },
    },
    {
      ...base,
      ...declared('getItineraryCollections'),
      summary: 'List the collections holding an itinerary',
      method: 'GET',
      path: '/v1/itineraries/{itinerary_id}/collections',
      description: 'Lists the collections the itinerary is filed in that the caller may see.',
      params: ItineraryIdParams,
      query: PageQuery,
      response: CollectionListResponse,
      handler: async (ctx: RequestContext<{ itinerary_id: string }, PageParams>) => {
        const p = pageOf(ctx.query);
        const access = accessOf(ctx);
        await deps.writes.settled();
        const itinerary = grouping.readableItinerary(access, ctx.params.itinerary_id);
        const { items: rows, total } = await collections.listHolding(access, 'itinerary', itinerary.id, itinerary.organizationId, p);
        return page(rows, p, total);
      },
    },
  ];
}
