// The region's trail tiles as operations (DESIGN §8): the TileJSON document that describes them and each
// {z}/{x}/{y} tile. Tiles are encoded on the worker pool (workers/trail-tiles.ts), gzip-compressed once off the
// main thread (libuv's pool) and kept in the tile cache; the entity tag names the region's content and the tile,
// so it changes when the server runs on another import.

import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { WorkerPool } from '../pool/pool.js';
import { CONTOUR_INTERVAL, CONTOURS_MIN_ZOOM, INDEX_INTERVAL, TRAIL_TILE_ZOOMS, type TrailTileSource } from '../../contracts/tiles.js';
import { taskError } from '../pool/task-error.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { ApiError } from '../errors.js';
import type { EncodedTile, TileCache } from './tile-cache.js';

const gzip = promisify(gzipCallback);

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

/** Fields of each layer, as TileJSON's `vector_layers` lists them. */
const TRAIL_LAYER_FIELDS = {
  trails: {
    description: 'Every way of the routing network',
    fields: {
      osm_id: 'Number: the OpenStreetMap way id',
      highway: 'String: the OSM highway value (path, track, footway, …)',
      name: 'String: the way name, when it has one',
      sac_scale: 'String: T1–T6, the SAC hiking scale, when tagged',
      surface: 'String: the OSM surface value, when tagged',
      access_foot: 'String: access for walkers (yes, permissive, private, no, …)',
      access_bicycle: 'String: access for cyclists',
      access_motor: 'String: access for motor vehicles',
    },
  },
  hazards: {
    description: 'Toll and access-restricted ways: routing avoids them on request, suggestions always',
    fields: {
      osm_id: 'Number: the OpenStreetMap way id',
      kind: 'String: TOLLWAY or RESTRICTED_ACCESS',
      access: 'String: the access value',
    },
  },
  places: {
    description: 'Peaks, huts, shelters, viewpoints and settlements',
    fields: {
      id: 'String: node/<id> or way/<id>',
      name: 'String',
      kind: 'String: peak, alpine_hut, village, …',
      elevation: 'Number: metres, when known',
    },
  },
  contours: {
    description: `Contour lines of the region's elevation data, every ${CONTOUR_INTERVAL} m (from zoom ${CONTOURS_MIN_ZOOM})`,
    fields: { elevation: 'Number: metres', index: `Number: 1 on index lines (every ${INDEX_INTERVAL} m), else 0` },
  },
} as const;

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

export function trailTileOperations(deps: { pool: WorkerPool | undefined; cache: TileCache }) {
  let source: Promise<TrailTileSource> | undefined;
  /** Asked of one worker once (that builds its indexes: the server calls this at start). */
  const sourceOf = (): Promise<TrailTileSource> => {
    const pool = deps.pool;
    if (!pool) return Promise.reject(new ApiError('SERVICE_UNAVAILABLE'));
    source ??= pool.runTask('trailTileSource', undefined).then((out) => {
      if ('ok' in out && out.ok === false) {
        source = undefined;
        throw taskError(out);
      }
      return out as TrailTileSource;
    });
    return source;
  };

  /**
   * Indexes the region on every worker (one task each, asked together so that each busy worker takes one):
   * the server awaits this before it listens, so no first map view waits for an index.
   */
  const warm = async (): Promise<void> => {
    const pool = deps.pool;
    if (!pool) return;
    const threads = pool.piscina.options.maxThreads;
    const answers = await Promise.all([
      sourceOf(),
      ...Array.from({ length: Math.max(0, threads - 1) }, () => pool.runTask('trailTileSource', undefined)),
    ]);
    const failed = answers.find((a) => 'ok' in a && a.ok === false);
    if (failed) throw taskError(failed as never);
  };

  return {
    sourceOf,
    warm,
    trailsTileJson: defineOperation({
      id: 'getTrailsTileJson',
      scope: 'tiles',
      writes: false,
      reach: TRAIL_TILE_REACH,
      async run(_caller, _input: Record<string, never>, { origin }): Promise<TileJson> {
        const s = await sourceOf();
        const [west, south, east, north] = s.bbox;
        // Contours only where the region has elevation data.
        const layers = Object.entries(TRAIL_LAYER_FIELDS)
          .filter(([id]) => id !== 'contours' || s.hasDem)
          .map(([id, layer]) => ({
            id,
            description: layer.description,
            fields: layer.fields as Record<string, string>,
            minzoom: id === 'contours' ? CONTOURS_MIN_ZOOM : TRAIL_TILE_ZOOMS.min,
            maxzoom: TRAIL_TILE_ZOOMS.max,
          }));
        return {
          tilejson: '3.0.0',
          name: s.kind === 'demo' ? 'Cairn demo region trails' : 'Cairn trails',
          attribution: s.attribution,
          scheme: 'xyz',
          tiles: [`${origin}/v1/tiles/trails/{z}/{x}/{y}.mvt`],
          minzoom: TRAIL_TILE_ZOOMS.min,
          maxzoom: TRAIL_TILE_ZOOMS.max,
          bounds: [west, south, east, north],
          center: [(west + east) / 2, (south + north) / 2, centerZoom(s.bbox)],
          vector_layers: layers,
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
        const { tag } = await sourceOf();
        const { z, x, y } = address;
        return deps.cache.get(`trails:${tag}/${z}/${x}/${y}`, async () => {
          const out = await (deps.pool as WorkerPool).runTask('trailTile', address);
          if (!(out instanceof Uint8Array)) throw taskError(out);
          return encodedTile(out, `"t-${tag}-${z}-${x}-${y}"`);
        });
      },
    }),
  };
}

/** A zoom that shows the whole box on a ~1,000 px map. */
function centerZoom([west, south, east, north]: [number, number, number, number]): number {
  const span = Math.max(east - west, (north - south) * 1.5, 1e-6);
  return Math.max(0, Math.min(TRAIL_TILE_ZOOMS.max, Math.floor(Math.log2(360 / span)) + 1));
}
