// The served regions' trail tiles as operations (DESIGN §8): the TileJSON document that describes them (the union of
// the regions, each listed) and each {z}/{x}/{y} tile. Tiles down to the archives' maxzoom are read from the tile
// archive (MBTiles, cut once by the import: data/region/tile-archive.ts) of each region whose bounds meet the tile, on
// the main thread, one prepared statement each, stored gzip-compressed and served so; where two regions' tiles meet,
// and for tiles deeper than the archives (cut from their ancestor), a worker makes the tile (workers/trail-tiles.ts).
// All are kept in the tile cache; the entity tag names the content of the regions that meet the tile, so it changes
// with another import of one of them.

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { centerZoom, vectorLayers } from '../../data/region/tile-archive.js';
import { regionsAtTile } from '../regions/region-choice.js';
import type { ServedRegion, ServedRegions } from '../regions/region-set.js';
import type { WorkerPool } from '../pool/pool.js';
import { TRAIL_TILE_ZOOMS } from '../../contracts/tiles.js';
import { taskError } from '../pool/task-error.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { ApiError } from '../errors.js';
import type { EncodedTile, TileCache } from './tile-cache.js';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

/** Tiles are read with a publishable key (a session token optional) or a share link. */
export const TILE_REACH: readonly Reach[] = ['key', 'session', 'share'];
/**
 * The region's trails are the same for everyone: the planner's signed-in members draw them too. Their tiles are not
 * metered (a member is the organization's own staff, not its public traffic; the quota belongs to keys and links).
 */
export const TRAIL_TILE_REACH: readonly Reach[] = [...TILE_REACH, 'user'];

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const EMPTY = new Uint8Array(0);

export interface TileJson {
  tilejson: '3.0.0';
  name: string;
  attribution: string;
  scheme: 'xyz';
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  vector_layers: { id: string; description: string; fields: Record<string, string>; minzoom: number; maxzoom: number }[];
  /** Every region served (name, bounds, build date, source extract, attribution): not a TileJSON key, Cairn's own. */
  regions: TileJsonRegion[];
}

/** Bytes and their gzip (kept only when smaller), with the tag clients revalidate with. */
export async function encodedTile(raw: Uint8Array, etag: string): Promise<EncodedTile> {
  if (raw.byteLength === 0) return { raw, gzip: undefined, etag };
  const packed = await gzip(raw);
  return {
    raw,
    gzip: packed.byteLength < raw.byteLength ? new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) : undefined,
    etag,
  };
}

/** Why (z, x, y) names no tile of zooms `min`–`max`: entries relative to the address. */
export function checkTileAddress({ z, x, y }: TileAddress, zooms: { min: number; max: number }): ApiError | undefined {
  if (z < zooms.min || z > zooms.max)
    return ApiError.validation([{ path: ['z'], messageKey: 'VALIDATION_FAILED.integer_between', messageParams: zooms }]);
  const max = 2 ** z - 1;
  const entries = [];
  if (x > max) entries.push({ path: ['x'], messageKey: 'VALIDATION_FAILED.integer_between', messageParams: { min: 0, max } });
  if (y > max) entries.push({ path: ['y'], messageKey: 'VALIDATION_FAILED.integer_between', messageParams: { min: 0, max } });
  return entries.length > 0 ? ApiError.validation(entries) : undefined;
}

export interface TrailTileDeps {
  pool: WorkerPool | undefined;
  cache: TileCache;
  /** The regions served now (server/regions/): each has its tile archive open. */
  regions: ServedRegions;
}

/** One served region as the TileJSON describes it. */
export interface TileJsonRegion {
  name: string;
  bounds: [number, number, number, number];
  built_at: string;
  source: string | null;
  attribution: string;
}

export function trailTileOperations(deps: TrailTileDeps) {
  /** Opens the regions (the server awaits this before it listens, so no first map view waits for a cut). */
  const warm = async (): Promise<void> => {
    await deps.regions();
  };

  /**
   * A tile of the archives (one region's, or the tiles of regions that meet there merged), or one cut from its ancestor
   * there; empty bytes where no region has anything. The stored bytes are read now: a region retired later keeps them.
   */
  const makeTile = async (regions: readonly ServedRegion[], { z, x, y }: TileAddress, etag: string): Promise<EncodedTile> => {
    const stored: Buffer[] = [];
    let shift = 0;
    for (const { archive } of regions) {
      shift = Math.max(0, z - archive.info.maxzoom);
      const packed = archive.tile(z - shift, x >> shift, y >> shift);
      if (packed) stored.push(packed);
    }
    if (stored.length === 0) return { raw: EMPTY, gzip: undefined, etag };
    if (shift === 0 && stored.length === 1) return { raw: await gunzip(stored[0]!), gzip: stored[0], etag };
    const pool = deps.pool;
    if (!pool) throw new ApiError('SERVICE_UNAVAILABLE');
    // The stored bytes: the worker unpacks them, not this thread.
    const out =
      shift === 0
        ? await pool.runTask('mergeTrailTiles', { tiles: stored })
        : await pool.runTask('trailTile', { z, x, y, ancestor: stored[0]!, ...(stored.length > 1 ? { others: stored.slice(1) } : {}) });
    if (!(out instanceof Uint8Array)) throw taskError(out);
    return encodedTile(out, etag);
  };

  return {
    warm,
    trailsTileJson: defineOperation({
      id: 'getTrailsTileJson',
      scope: 'tiles',
      writes: false,
      reach: TRAIL_TILE_REACH,
      async run(_caller, _input: Record<string, never>, { origin }): Promise<TileJson> {
        const regions = await deps.regions();
        if (regions.length === 0) throw new ApiError('SERVICE_UNAVAILABLE');
        const infos = regions.map((r) => r.archive.info);
        const west = Math.min(...regions.map((r) => r.bounds[0]));
        const south = Math.min(...regions.map((r) => r.bounds[1]));
        const east = Math.max(...regions.map((r) => r.bounds[2]));
        const north = Math.max(...regions.map((r) => r.bounds[3]));
        const minzoom = Math.min(...infos.map((i) => i.minzoom));
        const maxzoom = Math.max(...infos.map((i) => i.maxzoom));
        // Each layer once, with the widest zooms any region's archive gives it.
        const layers = new Map<string, ReturnType<typeof vectorLayers>[number]>();
        for (const info of infos) {
          for (const layer of vectorLayers(info)) {
            const known = layers.get(layer.id);
            layers.set(
              layer.id,
              known
                ? { ...known, minzoom: Math.min(known.minzoom, layer.minzoom), maxzoom: Math.max(known.maxzoom, layer.maxzoom) }
                : layer,
            );
          }
        }
        return {
          tilejson: '3.0.0',
          name: regions.length === 1 && infos[0]!.kind === 'demo' ? 'Cairn demo region trails' : 'Cairn trails',
          attribution: [...new Set(infos.map((i) => i.attribution))].join('; '),
          scheme: 'xyz',
          tiles: [`${origin}/v1/tiles/trails/{z}/{x}/{y}.mvt`],
          minzoom,
          maxzoom,
          bounds: [west, south, east, north],
          center: [(west + east) / 2, (south + north) / 2, centerZoom([west, south, east, north], maxzoom)],
          vector_layers: [...layers.values()],
          regions: regions.map(({ listing }) => ({
            name: listing.name,
            bounds: listing.bounds,
            built_at: listing.builtAt,
            source: listing.source,
            attribution: listing.attribution,
          })),
        };
      },
    }),
    trailTile: defineOperation({
      id: 'getTrailTile',
      scope: 'tiles',
      writes: false,
      reach: TRAIL_TILE_REACH,
      async run(_caller, address: TileAddress): Promise<EncodedTile> {
        const bad = checkTileAddress(address, TRAIL_TILE_ZOOMS);
        if (bad) throw bad;
        // The regions whose archives may hold the tile: the ones whose bounds meet it.
        const regions = regionsAtTile(await deps.regions(), address.z, address.x, address.y);
        // The content of each region that meets the tile names it: a region replaced changes only its own tiles.
        const tag = regions.map((r) => r.archive.info.tag).join('+') || 'none';
        const { z, x, y } = address;
        const etagTag = regions.length > 1 ? createHash('sha256').update(tag).digest('hex').slice(0, 16) : tag;
        return deps.cache.get(`trails:${tag}/${z}/${x}/${y}`, () => makeTile(regions, address, `"t-${etagTag}-${z}-${x}-${y}"`));
      },
    }),
  };
}
