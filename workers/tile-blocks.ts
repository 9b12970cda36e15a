// How the cut of a region's tile archive is split into tasks: one task for the low zooms over the whole region (the
// few features that show there), then one per BLOCK_ZOOM tile the region touches, each with the features near it,
// cutting every tile under it down to ARCHIVE_MAX_ZOOM. A block's tasks are independent: they run on any thread,
// in any order, and no thread ever holds the features of more than one block.

import { ARCHIVE_MAX_ZOOM } from '../contracts/tiles.js';
import { type Feature, type LayerFeatures, TRAIL_LAYERS, type TrailLayer, type TrailLayerFeatures } from './trail-features.js';

/** Blocks are tiles of this zoom (~30 km at 45°N): tiles above it come from the low-zoom task. */
export const BLOCK_ZOOM = 10;

/** One task of the cut: every tile from (z, x, y) down to maxZoom, from these features. */
export interface BlockTask {
  z: number;
  x: number;
  y: number;
  maxZoom: number;
  layers: Record<TrailLayer, LayerFeatures | null>;
}

/** A feature's bounding box in degrees: [west, south, east, north]. */
function bboxOf(feature: Feature): [number, number, number, number] {
  const g = feature.geometry;
  if (g.type === 'Point') return [g.coordinates[0]!, g.coordinates[1]!, g.coordinates[0]!, g.coordinates[1]!];
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const [lon, lat] of g.coordinates as [number, number][]) {
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  }
  return [w, s, e, n];
}

const tileX = (lon: number, z: number) => ((lon + 180) / 360) * 2 ** z;
const tileY = (lat: number, z: number) => {
  const rad = (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z;
};

/**
 * The cut's tasks for a region's features: the low zooms first, then the blocks in row order. A feature goes to
 * every block its box comes within the tile buffer of (a margin of 1/32 of a block: geojson-vt's buffer is 1/64).
 */
export function planBlocks(layers: TrailLayerFeatures): BlockTask[] {
  const low: Record<string, LayerFeatures | null> = {};
  const blocks = new Map<number, { x: number; y: number; lists: Record<string, { features: Feature[]; minZoom: number[] }> }>();
  const side = 2 ** BLOCK_ZOOM;
  const margin = 1 / 32;
  for (const name of TRAIL_LAYERS) {
    const layer = layers[name];
    if (!layer) {
      low[name] = null;
      continue;
    }
    const lowFeatures: Feature[] = [];
    const lowZooms: number[] = [];
    for (let i = 0; i < layer.features.length; i++) {
      const feature = layer.features[i]!;
      const minZoom = layer.minZoom[i]!;
      if (minZoom < BLOCK_ZOOM) {
        lowFeatures.push(feature);
        lowZooms.push(minZoom);
      }
      const [w, s, e, n] = bboxOf(feature);
      const x0 = Math.max(0, Math.floor(tileX(w, BLOCK_ZOOM) - margin));
      const x1 = Math.min(side - 1, Math.floor(tileX(e, BLOCK_ZOOM) + margin));
      const y0 = Math.max(0, Math.floor(tileY(n, BLOCK_ZOOM) - margin));
      const y1 = Math.min(side - 1, Math.floor(tileY(s, BLOCK_ZOOM) + margin));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const key = y * side + x;
          let block = blocks.get(key);
          if (!block) blocks.set(key, (block = { x, y, lists: {} }));
          const list = (block.lists[name] ??= { features: [], minZoom: [] });
          list.features.push(feature);
          list.minZoom.push(minZoom);
        }
      }
    }
    low[name] = { features: lowFeatures, minZoom: Uint8Array.from(lowZooms) };
  }
  const tasks: BlockTask[] = [{ z: 0, x: 0, y: 0, maxZoom: BLOCK_ZOOM - 1, layers: low as BlockTask['layers'] }];
  for (const [, block] of [...blocks].sort((a, b) => a[0] - b[0])) {
    const taskLayers = {} as BlockTask['layers'];
    for (const name of TRAIL_LAYERS) {
      const list = block.lists[name];
      taskLayers[name] = layers[name] === null ? null : { features: list?.features ?? [], minZoom: Uint8Array.from(list?.minZoom ?? []) };
    }
    tasks.push({ z: BLOCK_ZOOM, x: block.x, y: block.y, maxZoom: ARCHIVE_MAX_ZOOM, layers: taskLayers });
  }
  return tasks;
}
