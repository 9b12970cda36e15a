// How the cut of a region's tile archive is split into tasks, by levels of zooms: one task for z0–z5 over the whole
// region (the few features that show there), one per z6 tile the region touches for z6–z7, one per z8 tile for
// z8–z9, and one per z10 tile (BLOCK_ZOOM) for z10 down to ARCHIVE_MAX_ZOOM, each block with the features near it that show in its zooms. The
// tasks are independent: they run on any thread, in any order, and a thread holds the features of one block at a time.
// A block is planned as the indexes of its features; its task, with the features themselves, is made only when it is
// about to be cut (blockTask), so the cut never holds the region's features at once.

import { ARCHIVE_MAX_ZOOM } from '../contracts/tiles.js';
import { mercatorX, mercatorY } from '../data/region/geo.js';
import { type LayerFeatures, TRAIL_LAYERS, type TrailLayer, type TrailLayerSources } from './trail-features.js';

/** The deepest blocks are tiles of this zoom (~30 km at 45°N), cut down to ARCHIVE_MAX_ZOOM. */
export const BLOCK_ZOOM = 10;

/**
 * The levels of the cut: blocks of zoom `z`, each cut from z to maxZoom. A block holds every feature near it that
 * shows by its maxZoom, so the levels are kept short where many features start (z8–z9: tertiary roads and route
 * ways): a z6 block cut to z9 held a whole country's route network on one thread.
 */
const LEVELS = [
  { z: 0, maxZoom: 5 },
  { z: 6, maxZoom: 7 },
  { z: 8, maxZoom: BLOCK_ZOOM - 1 },
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

/** A block of the cut before its features are made: the indexes of the features of each layer it holds. */
export interface BlockPlan {
  z: number;
  x: number;
  y: number;
  maxZoom: number;
  members: Record<TrailLayer, Int32Array | null>;
}

const tileX = (lon: number, z: number) => mercatorX(lon) * 2 ** z;
const tileY = (lat: number, z: number) => mercatorY(lat) * 2 ** z;

/**
 * The cut's blocks for a region's features: level by level, blocks in row order. A feature goes to every block of a
 * level whose zooms show it and whose box it comes within the tile buffer of (a margin of 1/32 of a block:
 * geojson-vt's buffer is 1/64).
 */
export function planBlocks(layers: TrailLayerSources): BlockPlan[] {
  const margin = 1 / 32;
  const plans: BlockPlan[] = [];
  for (const level of LEVELS) {
    const side = 2 ** level.z;
    const blocks = new Map<number, { x: number; y: number; lists: Partial<Record<TrailLayer, number[]>> }>();
    for (const name of TRAIL_LAYERS) {
      const layer = layers[name];
      if (!layer) continue;
      for (let i = 0; i < layer.count; i++) {
        if (layer.minZoom[i]! > level.maxZoom) continue;
        const [w, s, e, n] = layer.boxes.subarray(4 * i, 4 * i + 4) as unknown as [number, number, number, number];
        const x0 = Math.max(0, Math.floor(tileX(w, level.z) - margin));
        const x1 = Math.min(side - 1, Math.floor(tileX(e, level.z) + margin));
        const y0 = Math.max(0, Math.floor(tileY(n, level.z) - margin));
        const y1 = Math.min(side - 1, Math.floor(tileY(s, level.z) + margin));
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const key = y * side + x;
            let block = blocks.get(key);
            if (!block) blocks.set(key, (block = { x, y, lists: {} }));
            (block.lists[name] ??= []).push(i);
          }
        }
      }
    }
    for (const [, block] of [...blocks].sort((a, b) => a[0] - b[0])) {
      const members = {} as BlockPlan['members'];
      for (const name of TRAIL_LAYERS) members[name] = layers[name] === null ? null : Int32Array.from(block.lists[name] ?? []);
      plans.push({ z: level.z, x: block.x, y: block.y, maxZoom: level.maxZoom, members });
    }
  }
  return plans;
}

/** The task of a planned block: its features made now, with their first zooms. */
export function blockTask(plan: BlockPlan, layers: TrailLayerSources): BlockTask {
  const taskLayers = {} as BlockTask['layers'];
  for (const name of TRAIL_LAYERS) {
    const layer = layers[name];
    const members = plan.members[name];
    taskLayers[name] =
      layer && members
        ? { features: Array.from(members, (i) => layer.feature(i)), minZoom: Uint8Array.from(members, (i) => layer.minZoom[i]!) }
        : null;
  }
  return { z: plan.z, x: plan.x, y: plan.y, maxZoom: plan.maxZoom, layers: taskLayers };
}
