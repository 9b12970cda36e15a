// Cuts a region's trail tiles once into its tile archive (./tile-archive.ts): the layers' features are indexed here
// (workers/trail-features.ts), split into a low-zoom block and one block per z6 and z10 tile (workers/tile-blocks.ts),
// and each block's features made only as it is handed to a worker thread (workers/tile-cut.ts, a Piscina pool of the
// importing process; a few blocks ahead per thread), while this thread writes each block's tiles into the archive in
// one transaction. `cutTileArchiveInThread` does the same on the
// calling thread, for the small demo region.

import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ARCHIVE_MAX_ZOOM } from '../../contracts/tiles.js';
import { type BlockPlan, blockTask, planBlocks } from '../../workers/tile-blocks.js';
import { type CutBlock, cutTileBlock } from '../../workers/tile-cut.js';
import { TRAIL_LAYERS, type TrailLayerSources, trailLayerSources } from '../../workers/trail-features.js';
import { join } from 'node:path';
import type { Region } from './region.js';
import { type ExtraFile, REGION_FILES, writeRegionWith } from './region-folder.js';
import { archiveInfo, MbtilesWriter } from './tile-archive.js';

/** What a cut made: tiles and bytes, per zoom the largest tile (uncompressed), features thinned to fit. */
export interface CutSummary {
  tiles: number;
  /** Bytes of the tiles as stored (gzip). */
  bytes: number;
  ms: number;
  tasks: number;
  threads: number;
  /** Per zoom 0…maxzoom: tiles and the largest tile's uncompressed bytes. */
  zooms: { tiles: number; largest: number }[];
  thinned: number;
}

function summaryOf(threads: number, tasks: number): CutSummary {
  const zooms = Array.from({ length: ARCHIVE_MAX_ZOOM + 1 }, () => ({ tiles: 0, largest: 0 }));
  return { tiles: 0, bytes: 0, ms: 0, tasks, threads, zooms, thinned: 0 };
}

/** Writes one task's tiles into the archive (one transaction) and counts them. */
function store(writer: MbtilesWriter, block: CutBlock, summary: CutSummary): void {
  const tiles: [number, number, number, Uint8Array][] = [];
  for (let i = 0; i < block.rawBytes.length; i++) {
    const z = block.coords[3 * i]!;
    const data = block.data.subarray(block.offsets[i]!, block.offsets[i + 1]!);
    tiles.push([z, block.coords[3 * i + 1]!, block.coords[3 * i + 2]!, data]);
    const zoom = summary.zooms[z]!;
    zoom.tiles++;
    zoom.largest = Math.max(zoom.largest, block.rawBytes[i]!);
    summary.bytes += data.byteLength;
  }
  summary.tiles += tiles.length;
  summary.thinned += block.thinned;
  writer.add(tiles);
}

/**
 * The module the import's threads run: the compiled one beside this module's own compiled file (dist/), also when
 * this module runs from its TypeScript source (tests, tsx: worker threads do not load TypeScript); undefined when
 * there is none (the cut then runs on the calling thread).
 */
function cutWorker(): string | undefined {
  const own = import.meta.url;
  const file = own.endsWith('.ts') ? new URL('../../dist/workers/tile-cut.js', own) : new URL('../../workers/tile-cut.js', own);
  return existsSync(fileURLToPath(file)) ? file.href : undefined;
}

export interface CutOptions {
  /**
   * Threads cutting. Default: the calling thread alone for a small region (under IN_THREAD_POINTS positions: starting
   * threads and copying features to them costs more than the cut), else the machine's cores, at most one per task.
   */
  threads?: number;
}

/** Below this many positions a region is cut on the calling thread (Andorra, ~150 k: ~0.6 s in one thread). */
const IN_THREAD_POINTS = 400_000;

function positionsOf(layers: TrailLayerSources): number {
  let n = 0;
  for (const name of TRAIL_LAYERS) n += layers[name]?.positions ?? 0;
  return n;
}

/** Blocks handed to each thread ahead of the one it cuts: enough to keep it busy, few enough to hold little. */
const BLOCKS_AHEAD = 2;

/** Cuts `region`'s tile archive into the file `path` on worker threads. */
export async function cutTileArchive(region: Region, path: string, options: CutOptions = {}): Promise<CutSummary> {
  const started = performance.now();
  const layers = trailLayerSources(region);
  const tasks = planBlocks(layers);
  const threads = Math.max(
    1,
    Math.min(options.threads ?? (positionsOf(layers) < IN_THREAD_POINTS ? 1 : availableParallelism()), tasks.length),
  );
  const summary = summaryOf(threads, tasks.length);
  const writer = new MbtilesWriter(path);
  const filename = options.threads === undefined && threads === 1 ? undefined : cutWorker();
  const pool = filename ? new Piscina({ filename, minThreads: threads, maxThreads: threads, idleTimeout: 1000 }) : undefined;
  try {
    let next = 0;
    const cutNext = async (): Promise<void> => {
      while (next < tasks.length) {
        const task = blockTask(tasks[next++]!, layers);
        store(writer, pool ? ((await pool.run(task, { name: 'cutTileBlock' })) as CutBlock) : cutTileBlock(task), summary);
      }
    };
    await Promise.all(Array.from({ length: pool ? threads * BLOCKS_AHEAD : 1 }, cutNext));
    writer.finish(archiveInfo(region, 0, ARCHIVE_MAX_ZOOM));
  } finally {
    writer.close();
    await pool?.destroy();
  }
  if (!pool) summary.threads = 1;
  summary.ms = performance.now() - started;
  return summary;
}

/** Cuts `region`'s tile archive on this thread into memory: the database's bytes (the demo region: ~0.3 s). */
export function cutTileArchiveInThread(region: Region): { bytes: Buffer; summary: CutSummary } {
  const started = performance.now();
  const layers = trailLayerSources(region);
  const tasks: BlockPlan[] = planBlocks(layers);
  const summary = summaryOf(1, tasks.length);
  const writer = new MbtilesWriter(':memory:');
  for (const plan of tasks) store(writer, cutTileBlock(blockTask(plan, layers)), summary);
  writer.finish(archiveInfo(region, 0, ARCHIVE_MAX_ZOOM));
  summary.ms = performance.now() - started;
  return { bytes: writer.serialize(), summary };
}

/** The summary as the import prints it: tiles, size, time, and the largest tile of each zoom. */
export function describeCut(s: CutSummary): string {
  const kb = (n: number) => `${(n / 1024).toFixed(n < 10_240 ? 1 : 0)} KB`;
  const zooms = s.zooms.map((z, i) => `z${i} ${z.tiles ? kb(z.largest) : '-'}`).join(', ');
  return (
    `tiles: ${s.tiles} tiles, ${(s.bytes / 1048576).toFixed(1)} MB gzip, cut in ${(s.ms / 1000).toFixed(2)} s ` +
    `(${s.tasks} tasks on ${s.threads} threads)${s.thinned ? `, ${s.thinned} features thinned to fit` : ''}; ` +
    `largest tile per zoom (uncompressed): ${zooms}`
  );
}

/**
 * Writes the region folder with its tile archive (the import's last step) and `extra` files (routing.bin): the
 * archive is cut into the folder before it is renamed into place, and `log` gets the cut's summary. Returns the size
 * of each file written.
 */
export async function writeRegionWithTiles(
  dir: string,
  region: Region,
  log: (line: string) => void = console.log,
  options: CutOptions = {},
  extra: ReadonlyMap<string, ExtraFile> = new Map(),
): Promise<Record<string, number>> {
  return writeRegionWith(
    dir,
    region,
    async (tmp) => {
      log(describeCut(await cutTileArchive(region, join(tmp, REGION_FILES.tiles), options)));
    },
    extra,
  );
}
