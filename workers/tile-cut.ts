// Cuts one task of a region's tile archive (./tile-blocks.ts): a geojson-vt index per layer over the task's
// features, walked depth first from the task's tile down to its maxZoom, each tile encoded (./mvt-encoder.ts) with
// the features whose first zoom it has reached, thinned when it would pass TILE_BYTES_LIMIT, and gzip-compressed as
// MBTiles stores it. A tile is dropped from the index once its subtree is cut, so a task holds only the tiles along
// its current path. Runs on the import's threads (the task `cutTileBlock`) and, for the demo region, in a worker
// of the server's pool (./trail-tiles.ts).

import { gzipSync } from 'node:zlib';
import GeoJSONVT, { type RawFeature, type RawTile } from 'geojson-vt';
import { ARCHIVE_MAX_ZOOM, TILE_BYTES_LIMIT } from '../contracts/tiles.js';
import { encodeMvt } from './mvt-encoder.js';
import type { BlockTask } from './tile-blocks.js';
import { type LayerFeatures, TRAIL_LAYERS } from './trail-features.js';

export const EXTENT = 4096;

/** geojson-vt's options: no tile is split ahead (indexMaxZoom 0): the walk below asks for each. */
export const INDEX_OPTIONS = { extent: EXTENT, buffer: 64, tolerance: 3, indexMaxZoom: 0, indexMaxPoints: 0 };

/** Where a feature's first zoom is kept on its properties: a symbol, so that no encoder writes it as a tag. */
const MIN_ZOOM = Symbol.for('cairn.minZoom');

/** The tiles of one task, packed in one buffer: tile i is data[offsets[i], offsets[i + 1]), at coords[3i…3i+2]. */
export interface CutBlock {
  coords: Uint32Array;
  offsets: Uint32Array;
  data: Uint8Array;
  /** Each tile's uncompressed bytes. */
  rawBytes: Uint32Array;
  /** Features left out of tiles that would have passed TILE_BYTES_LIMIT. */
  thinned: number;
}

type InternalTiles = Record<number, { numFeatures: number } | undefined>;
const toID = (z: number, x: number, y: number) => ((1 << z) * y + x) * 32 + z;

/**
 * One layer's index. Its maxZoom is always the archive's, whatever the task's last zoom: geojson-vt simplifies every
 * zoom above its maxZoom and none at it, so every task's tiles of one zoom are simplified alike.
 */
function indexOf(layer: LayerFeatures | null): GeoJSONVT | null {
  if (!layer || layer.features.length === 0) return null;
  for (let i = 0; i < layer.features.length; i++) {
    (layer.features[i]!.properties as Record<symbol, number>)[MIN_ZOOM] = layer.minZoom[i]!;
  }
  return new GeoJSONVT({ type: 'FeatureCollection', features: layer.features } as never, { ...INDEX_OPTIONS, maxZoom: ARCHIVE_MAX_ZOOM });
}

const minZoomOf = (feature: RawFeature) => (feature.tags as Record<symbol, number> | null | undefined)?.[MIN_ZOOM] ?? 0;

/** A feature's length in tile units (0 for a point): the longer of two lines of one class is kept. */
function lengthOf(feature: RawFeature): number {
  if (feature.type !== 2 && feature.type !== 3) return 0;
  let sum = 0;
  for (const ring of feature.geometry) {
    for (let i = 2; i < ring.length; i += 2) sum += Math.hypot(ring[i]! - ring[i - 2]!, ring[i + 1]! - ring[i - 1]!);
  }
  return sum;
}

/**
 * The tile's bytes from each layer's features shown at zoom z; over TILE_BYTES_LIMIT, the features of the latest first
 * zoom, and among them the shortest, are left out until it fits (tippecanoe's drop-densest, by rank).
 */
export function encodeThinned(z: number, tiles: readonly (readonly [string, RawTile | null])[]): { bytes: Uint8Array; thinned: number } {
  const layers = tiles.map(([name, tile]) => [name, tile ? tile.features.filter((f) => minZoomOf(f) <= z) : []] as const);
  let bytes = encodeMvt(
    layers.map(([name, features]) => [name, { features }]),
    EXTENT,
  );
  if (bytes.byteLength <= TILE_BYTES_LIMIT) return { bytes, thinned: 0 };
  const ranked = layers
    .flatMap(([, features]) => features.map((f) => ({ f, minZoom: minZoomOf(f), length: lengthOf(f) })))
    .sort((a, b) => a.minZoom - b.minZoom || b.length - a.length);
  let keep = ranked.length;
  while (bytes.byteLength > TILE_BYTES_LIMIT && keep > 0) {
    keep = Math.floor(keep * Math.min(0.9, (TILE_BYTES_LIMIT / bytes.byteLength) * 0.95));
    const kept = new Set(ranked.slice(0, keep).map((r) => r.f));
    bytes = encodeMvt(
      layers.map(([name, features]) => [name, { features: features.filter((f) => kept.has(f)) }]),
      EXTENT,
    );
  }
  return { bytes, thinned: ranked.length - keep };
}

/** Cuts every tile of the task; `onTile` gets each non-empty one, uncompressed. Returns the features thinned out. */
export function cutBlockTiles(task: BlockTask, onTile: (z: number, x: number, y: number, bytes: Uint8Array) => void): number {
  const indexes = TRAIL_LAYERS.map((name) => [name, indexOf(task.layers[name])] as const);
  let thinned = 0;
  const visit = (z: number, x: number, y: number): void => {
    const tiles = indexes.map(([name, index]) => [name, index?.getTileRaw(z, x, y) ?? null] as const);
    const id = toID(z, x, y);
    // A tile's own features may all be simplified away while its source still holds some for deeper zooms.
    const below = indexes.some(([, index]) => ((index as unknown as { tiles: InternalTiles } | null)?.tiles[id]?.numFeatures ?? 0) > 0);
    if (!below) return;
    const { bytes, thinned: out } = encodeThinned(z, tiles);
    thinned += out;
    if (bytes.byteLength > 0) onTile(z, x, y, bytes);
    if (z < task.maxZoom) {
      for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) visit(z + 1, x * 2 + dx, y * 2 + dy);
    }
    for (const [, index] of indexes) if (index) delete (index as unknown as { tiles: InternalTiles }).tiles[id];
  };
  visit(task.z, task.x, task.y);
  return thinned;
}

/** The task `cutTileBlock`: the block's tiles gzip-compressed and packed in one buffer (one copy back to the caller). */
export function cutTileBlock(task: BlockTask): CutBlock {
  const coords: number[] = [];
  const chunks: Uint8Array[] = [];
  const raw: number[] = [];
  const thinned = cutBlockTiles(task, (z, x, y, bytes) => {
    coords.push(z, x, y);
    chunks.push(gzipSync(bytes));
    raw.push(bytes.byteLength);
  });
  const offsets = new Uint32Array(chunks.length + 1);
  for (let i = 0; i < chunks.length; i++) offsets[i + 1] = offsets[i]! + chunks[i]!.byteLength;
  const data = new Uint8Array(offsets[chunks.length]!);
  for (let i = 0; i < chunks.length; i++) data.set(chunks[i]!, offsets[i]!);
  return { coords: Uint32Array.from(coords), offsets, data, rawBytes: Uint32Array.from(raw), thinned };
}
