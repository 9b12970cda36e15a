// The trail tiles' worker tasks. Tiles down to ARCHIVE_MAX_ZOOM are cut once by the import into the region's tile
// archive, which the main thread reads: no worker holds an index of the region. What runs here: a tile deeper than
// the archive, cut from its ancestor's bytes (./mvt-overzoom.ts), and the archive of a region that has none on disk
// (the demo region, or a folder imported before archives), cut on this thread into memory.

import { gunzipSync } from 'node:zlib';
import { move } from 'piscina';
import { cutTileArchiveInThread } from '../data/region/cut-tile-archive.js';
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import { ARCHIVE_MAX_ZOOM, TRAIL_TILE_ZOOMS, type TrailTileInput } from '../contracts/tiles.js';
import { mergeTiles, overzoomTile } from './mvt-overzoom.js';
import { routingFor } from './region-source.js';
import type { OnRegion } from '../contracts/region-ref.js';

/**
 * The tile's bytes (a Mapbox Vector Tile, uncompressed), cut from its ARCHIVE_MAX_ZOOM ancestor's (gzip) bytes; empty when
 * nothing is left in it; moved to the caller. Coordinates out of range are a failure at their field.
 */
export function trailTile(input: TrailTileInput): Uint8Array | TaskFailure {
  const bad = checkTile(input);
  if (bad) return bad;
  return move(cutFromAncestor(input)) as unknown as Uint8Array;
}

/** Tiles asked together: cut one after the other, sent back in one message (their bytes copied once). */
export function trailTileBatch(inputs: TrailTileInput[]): { ok: true; results: (Uint8Array | TaskFailure)[] } {
  return { ok: true, results: inputs.map((input) => checkTile(input) ?? cutFromAncestor(input)) };
}

/** The archive of the task's region (the thread's own when it names none), cut into memory: the MBTiles database's bytes, moved. */
export function trailTileArchive(input: OnRegion | undefined): Uint8Array {
  const { bytes } = cutTileArchiveInThread(routingFor(input?.region).region);
  // A copy of its own: SQLite's buffer is not one that can be moved.
  return move(new Uint8Array(bytes)) as unknown as Uint8Array;
}

function cutFromAncestor({ z, x, y, ancestor, others }: TrailTileInput): Uint8Array {
  const bytes = others?.length ? mergeTiles([ancestor, ...others].map((t) => gunzipSync(t))) : gunzipSync(ancestor);
  return overzoomTile(bytes, ARCHIVE_MAX_ZOOM, z, x, y);
}

/** The tiles of one address in several regions' archives (gzip, as stored) merged into one (uncompressed), moved. */
export function mergeTrailTiles(input: { tiles: Uint8Array[] }): Uint8Array | TaskFailure {
  if (!Array.isArray(input.tiles) || input.tiles.length === 0) return failure('bad_input', 'tiles to merge', ['input', 'tiles']);
  return move(mergeTiles(input.tiles.map((t) => gunzipSync(t)))) as unknown as Uint8Array;
}

/** Why `input` names no tile deeper than the archive, or undefined when it does. */
export function checkTile({ z, x, y }: TrailTileInput): TaskFailure | undefined {
  if (!Number.isInteger(z) || z <= ARCHIVE_MAX_ZOOM || z > TRAIL_TILE_ZOOMS.max)
    return failure('bad_input', `zoom is ${ARCHIVE_MAX_ZOOM + 1} to ${TRAIL_TILE_ZOOMS.max}`, ['input', 'z']);
  const side = 2 ** z;
  if (!Number.isInteger(x) || x < 0 || x >= side) return failure('bad_input', 'x is 0 to 2^z - 1', ['input', 'x']);
  if (!Number.isInteger(y) || y < 0 || y >= side) return failure('bad_input', 'y is 0 to 2^z - 1', ['input', 'y']);
  return undefined;
}
