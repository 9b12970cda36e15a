// The Tile API's HTTP surface (DESIGN §8): TileJSON as plain JSON (what map clients read, not the envelope), and
// tiles as `application/vnd.mapbox-vector-tile` with an entity tag (304 on a match), gzip for clients that accept
// it, 204 for a tile with no feature, and the quota's RateLimit-* headers on every answer to a key.

import { Type } from '@sinclair/typebox';
import type { Access } from '../auth/access.js';
import { rateLimitHeaders } from '../auth/quota.js';
import type { Operation } from '../core/operation.js';
import { rest } from '../http/rest.js';
import type { Reply, RequestContext, RouteDef } from '../http/route.js';
import type { EncodedTile } from './tile-cache.js';
import type { OverlaySpec } from './overlay-tiles.js';
import type { TileAddress, TileJson } from './trail-tiles.js';

export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';

/** Tiles of the region change only with a new import: a client may keep them an hour, then revalidate. */
const TRAIL_CACHE_CONTROL = 'private, max-age=3600';

/** Overlays change with every publish: a client revalidates each time (a 304 costs no bytes). */
const OVERLAY_CACHE_CONTROL = 'private, no-cache';

const Uuid = Type.String({ format: 'uuid' });
const Address = {
  z: Type.Integer({ minimum: 0, description: 'Zoom level' }),
  x: Type.Integer({ minimum: 0, description: 'Column, 0 to 2^z - 1' }),
  y: Type.Integer({ minimum: 0, description: 'Row, 0 to 2^z - 1' }),
};
const TileParams = Type.Object(Address);
const ItineraryTileParams = Type.Object({ itinerary_id: Uuid, ...Address });
const CollectionTileParams = Type.Object({ collection_id: Uuid, ...Address });

function quotaHeaders(ctx: RequestContext): [string, string][] {
  const caller = ctx.access as Access;
  const quota = caller.kind === 'key' || caller.kind === 'share' ? caller.quota : undefined;
  return quota ? rateLimitHeaders(quota) : [];
}

/** Whether an If-None-Match list names `etag` (weak tags compare equal, `*` matches anything). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The answer for a tile: 204 (empty), 304 (the client has it) or its bytes, gzip when accepted. */
export function tileReply(tile: EncodedTile, ctx: RequestContext, cacheControl: string): Reply {
  const headers: [string, string][] = [...quotaHeaders(ctx), ['Cache-Control', cacheControl], ['ETag', tile.etag]];
  if (tile.raw.byteLength === 0) return { status: 204, headers, json: null };
  if (matchesEtag(ctx.headers['if-none-match'], tile.etag)) return { status: 304, headers, json: null };
  headers.push(['Vary', 'Accept-Encoding']);
  if (tile.gzip && acceptsGzip(ctx.headers['accept-encoding'])) {
    headers.push(['Content-Encoding', 'gzip']);
    return { status: 200, headers, body: tile.gzip, contentType: MVT_CONTENT_TYPE };
  }
  return { status: 200, headers, body: tile.raw, contentType: MVT_CONTENT_TYPE };
}

export function trailTileRoutes(operations: {
  trailsTileJson: Operation<Record<string, never>, TileJson>;
  trailTile: Operation<TileAddress, EncodedTile>;
}): RouteDef[] {
  return [
    rest(operations.trailsTileJson, {
      method: 'GET',
      path: '/v1/tiles/trails.json',
      public: false,
      summary: "TileJSON 3.0 of the region's trail tiles",
      reply: (tileJson, ctx) => ({
        status: 200,
        headers: [...quotaHeaders(ctx), ['Cache-Control', 'private, max-age=300']],
        json: tileJson,
      }),
    }),
    rest(operations.trailTile, {
      method: 'GET',
      path: '/v1/tiles/trails/{z}/{x}/{y}.mvt',
      public: false,
      summary: 'One trail tile (layers trails, hazards, places)',
      params: TileParams,
      reply: (tile, ctx) => tileReply(tile, ctx, TRAIL_CACHE_CONTROL),
    }),
  ];
}

export function overlayTileRoutes(operations: {
  itineraryTile: Operation<TileAddress & { itinerary_id: string }, EncodedTile>;
  collectionTile: Operation<TileAddress & { collection_id: string }, EncodedTile>;
  itineraryOverlay: Operation<{ itinerary_id: string }, OverlaySpec>;
  collectionOverlay: Operation<{ collection_id: string }, OverlaySpec>;
}): RouteDef[] {
  const spec = (overlay: OverlaySpec, ctx: RequestContext): Reply => ({
    status: 200,
    headers: [...quotaHeaders(ctx), ['Cache-Control', OVERLAY_CACHE_CONTROL]],
    json: overlay,
  });
  return [
    rest(operations.itineraryTile, {
      method: 'GET',
      path: '/v1/tiles/itineraries/{itinerary_id}/{z}/{x}/{y}.mvt',
      public: false,
      summary: "One tile of an itinerary's published snapshot (layers itineraries, waypoints)",
      params: ItineraryTileParams,
      reply: (tile, ctx) => tileReply(tile, ctx, OVERLAY_CACHE_CONTROL),
    }),
    rest(operations.collectionTile, {
      method: 'GET',
      path: '/v1/tiles/collections/{collection_id}/{z}/{x}/{y}.mvt',
      public: false,
      summary: "One tile of a collection's published itineraries and its zones (layers itineraries, waypoints, zones)",
      params: CollectionTileParams,
      reply: (tile, ctx) => tileReply(tile, ctx, OVERLAY_CACHE_CONTROL),
    }),
    rest(operations.itineraryOverlay, {
      method: 'GET',
      path: '/v1/tiles/overlays/itineraries/{itinerary_id}.json',
      public: false,
      summary: "MapLibre style fragment drawing an itinerary's overlay tiles",
      params: Type.Object({ itinerary_id: Uuid }),
      reply: spec,
    }),
    rest(operations.collectionOverlay, {
      method: 'GET',
      path: '/v1/tiles/overlays/collections/{collection_id}.json',
      public: false,
      summary: "MapLibre style fragment drawing a collection's overlay tiles",
      params: Type.Object({ collection_id: Uuid }),
      reply: spec,
    }),
  ];
}
