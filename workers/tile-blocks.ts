// How the cut of a region's tile archive is split into tasks, by levels of zooms: one task for z0–z5 over the whole
// region (the few features that show there), one per z6 tile the region touches for z6–z9, and one per z10 tile
// (BLOCK_ZOOM) for z10 down to ARCHIVE_MAX_ZOOM, each block with the features near it that show in its zooms. The
// tasks are independent: they run on any thread, in any order, and a thread holds the features of one block at a time.

import { ARCHIVE_MAX_ZOOM } from '../contracts/tiles.js';
import { type Feature, type LayerFeatures, TRAIL_LAYERS, type TrailLayer, type TrailLayerFeatures } from './trail-features.js';

/** The deepest blocks are tiles of this zoom (~30 km at 45°N), cut down to ARCHIVE_MAX_ZOOM. */
export const BLOCK_ZOOM = 10;

/** The levels of the cut: blocks of zoom `z`, each cut from z to maxZoom. */
const LEVELS = [
  { z: 0, maxZoom: 5 },
  { z: 6, maxZoom: BLOCK_ZOOM - 1 },
  { z: BLOCK_ZOOM, maxZoom: ARCHIVE_MAX_ZOOM },
] as const;

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
 * The cut's tasks for a region's features: level by level, blocks in row order. A feature goes to every block of a
 * level whose zooms show it and whose box it comes within the tile buffer of (a margin of 1/32 of a block:
 * geojson-vt's buffer is 1/64).
 */
export function planBlocks(layers: TrailLayerFeatures): BlockTask[] {
  const margin = 1 / 32;
  const tasks: BlockTask[] = [];
  const boxes = new Map<TrailLayer, [number, number, number, number][]>();
  for (const name of TRAIL_LAYERS) boxes.set(name, (layers[name]?.features ?? []).map(bboxOf));
  for (const level of LEVELS) {
    const side = 2 ** level.z;
    const blocks = new Map<number, { x: number; y: number; lists: Record<string, { features: Feature[]; minZoom: number[] }> }>();
    for (const name of TRAIL_LAYERS) {
      const layer = layers[name];
      if (!layer) continue;
      const layerBoxes = boxes.get(name)!;
      for (let i = 0; i < layer.features.length; i++) {
        const minZoom = layer.minZoom[i]!;
        if (minZoom > level.maxZoom) continue;
        const [w, s, e, n] = layerBoxes[i]!;
        const x0 = Math.max(0, Math.floor(tileX(w, level.z) - margin));
        const x1 = Math.min(side - 1, Math.floor(tileX(e, level.z) + margin));
        const y0 = Math.max(0, Math.floor(tileY(n, level.z) - margin));
        const y1 = Math.min(side - 1, Math.floor(tileY(s, level.z) + margin));
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const key = y * side + x;
            let block = blocks.get(key);
            if (!block) blocks.set(key, (block = { x, y, lists: {} }));
            const list = (block.lists[name] ??= { features: [], minZoom: [] });
            list.features.push(layer.features[i]!);
            list.minZoom.push(minZoom);
          }
        }
      }
    }
    for (const [, block] of [...blocks].sort((a, b) => a[0] - b[0])) {
      const taskLayers = {} as BlockTask['layers'];
      for (const name of TRAIL_LAYERS) {
        const list = block.lists[name];
        taskLayers[name] = layers[name] === null ? null : { features: list?.features ?? [], minZoom: Uint8Array.from(list?.minZoom ?? []) };
      }
      tasks.push({ z: level.z, x: block.x, y: block.y, maxZoom: level.maxZoom, layers: taskLayers });
    }
  }
  return tasks;
}
