// The region's trail tiles as operations (DESIGN §8): the TileJSON document that describes them and each
// {z}/{x}/{y} tile. Tiles down to the archive's maxzoom are read from the region's tile archive (MBTiles, cut once by
// the import: data/region/tile-archive.ts) on the main thread, one prepared statement each, stored gzip-compressed
// and served so; deeper tiles are cut from their ancestor on the worker pool (workers/trail-tiles.ts). Both are kept
// in the tile cache; the entity tag names the region's content and the tile, so it changes with another import.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { REGION_FILES } from '../../data/region/region-folder.js';
import { centerZoom, TileArchive, vectorLayers } from '../../data/region/tile-archive.js';
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
  /** The region folder (REGION_PATH); empty for the demo region. */
  regionPath: string;
  /** Told when a region folder has no tile archive (its tiles are then cut in memory at start). */
  warn?: (message: string) => void;
}

/**
 * The region's tile archive: the folder's `tiles.mbtiles`; else (the demo region, or a folder imported before
 * archives) cut by one worker into memory, once.
 */
async function openArchive(deps: TrailTileDeps): Promise<TileArchive> {
  if (deps.regionPath) {
    const file = join(deps.regionPath, REGION_FILES.tiles);
    if (existsSync(file)) return new TileArchive(file);
    deps.warn?.(
      `region ${deps.regionPath} has no ${REGION_FILES.tiles}: its tiles are cut into memory now; ` +
        're-import it (npm run import -- --osm … --out …) to cut them once',
    );
  }
  const pool = deps.pool;
  if (!pool) throw new ApiError('SERVICE_UNAVAILABLE');
  const out = await pool.runTask('trailTileArchive', undefined);
  if (!(out instanceof Uint8Array)) throw taskError(out);
  return new TileArchive(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
}

export function trailTileOperations(deps: TrailTileDeps) {
  let archive: Promise<TileArchive> | undefined;
  const archiveOf = (): Promise<TileArchive> => {
    archive ??= openArchive(deps).catch((error: unknown) => {
      archive = undefined;
      throw error;
    });
    return archive;
  };

  /** Opens the archive (the server awaits this before it listens, so no first map view waits for a cut). */
  const warm = async (): Promise<void> => {
    await archiveOf();
  };

  /** A tile of the archive, or one cut from its ancestor there; empty bytes where the region has nothing. */
  const makeTile = async (archive: TileArchive, { z, x, y }: TileAddress, etag: string): Promise<EncodedTile> => {
    const { maxzoom } = archive.info;
    const shift = Math.max(0, z - maxzoom);
    const packed = archive.tile(z - shift, x >> shift, y >> shift);
    if (!packed) return { raw: EMPTY, gzip: undefined, etag };
    if (shift === 0) return { raw: await gunzip(packed), gzip: packed, etag };
    const pool = deps.pool;
    if (!pool) throw new ApiError('SERVICE_UNAVAILABLE');
    // The ancestor's stored bytes: the worker unpacks them, not this thread.
    const out = await pool.runTask('trailTile', { z, x, y, ancestor: packed });
    if (!(out instanceof Uint8Array)) throw taskError(out);
    return encodedTile(out, etag);
  };

  return {
    archiveOf,
    warm,
    trailsTileJson: defineOperation({
      id: 'getTrailsTileJson',
      scope: 'tiles',
      writes: false,
      reach: TRAIL_TILE_REACH,
      async run(_caller, _input: Record<string, never>, { origin }): Promise<TileJson> {
        const { info } = await archiveOf();
        const [west, south, east, north] = info.bbox;
        return {
          tilejson: '3.0.0',
          name: info.kind === 'demo' ? 'Cairn demo region trails' : 'Cairn trails',
          attribution: info.attribution,
          scheme: 'xyz',
          tiles: [`${origin}/v1/tiles/trails/{z}/{x}/{y}.mvt`],
          minzoom: info.minzoom,
          maxzoom: info.maxzoom,
          bounds: [west, south, east, north],
          center: [(west + east) / 2, (south + north) / 2, centerZoom(info.bbox, info.maxzoom)],
          vector_layers: vectorLayers(info),
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
        const archive = await archiveOf();
        const { tag } = archive.info;
        const { z, x, y } = address;
        return deps.cache.get(`trails:${tag}/${z}/${x}/${y}`, () => makeTile(archive, address, `"t-${tag}-${z}-${x}-${y}"`));
      },
    }),
  };
}
