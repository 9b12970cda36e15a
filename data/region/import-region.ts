// Imports an OSM extract (+ SRTM tiles) into a Region and optionally writes the region folder.
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { buildRegion } from './build-region.js';
import { clipTiles, readHgt, type HgtTile } from './dem.js';
import { ImportProgress, peakRss, type StageReport } from './import-progress.js';
import { isLimit, isOutOfMemory, type PbfReadStats, readExtract } from './pbf-reader.js';
import { prepareRoutingFiles } from './prepare-routing.js';
import type { Region } from './region.js';
import { ImportResourceError, RegionInputError } from './region-error.js';
import { regionWorkFile } from './region-folder.js';
import { writeRegionWithTiles } from './cut-tile-archive.js';

export interface ImportOptions {
  osm: string; // path to .osm.pbf
  dem?: readonly string[]; // paths to .hgt / .hgt.zip
  out?: string; // region folder to write; nothing is written when absent
  /** DEM margin around the graph's bbox in degrees (default 0.02°, about 2 km). */
  demMarginDeg?: number;
  /** Threads decoding the PBF (0: this thread); default all cores for large files. */
  threads?: number;
  /** Cut the extract to [west, south, east, north] degrees (PbfReadOptions.bbox). */
  bbox?: readonly [number, number, number, number];
  /** Progress reporting; none when absent. */
  progress?: ImportProgress;
  /** Filled with what the import read, kept and wrote, and the time and memory of each stage. */
  report?: Partial<ImportReport>;
}

export interface ImportReport {
  pbf: PbfReadStats;
  /** Bytes of each file of the region folder (when written). */
  files: Record<string, number>;
  stages: StageReport[];
  seconds: number;
  peakRssMB: number;
}

/**
 * The stages up to `build`: the extract read and the region built from it. Its own function, so that nothing of the
 * extract or the DEM tiles is held once the region exists (the later stages need the memory at country scale).
 */
async function readRegion(opts: ImportOptions, progress: ImportProgress): Promise<{ region: Region; stats: PbfReadStats }> {
  const tiles: HgtTile[] = (opts.dem ?? []).map(readHgt);
  const { extract, timestamp, stats } = await readExtract(opts.osm, {
    threads: opts.threads,
    progress,
    ...(opts.bbox ? { bbox: opts.bbox } : {}),
  });
  progress.stage('build');
  try {
    const region = buildRegion(extract, {
      demFor: (bbox) => clipTiles(tiles, bbox, opts.demMarginDeg ?? 0.02),
      kind: 'import',
      sources: { osm: basename(opts.osm), dem: (opts.dem ?? []).map((p) => basename(p)) },
      osmTimestamp: timestamp,
    });
    return { region, stats };
  } catch (e) {
    throw resourceFailure(e, 'building the graph');
  }
}

/**
 * Reads the inputs, builds the region and (with `out`) writes it atomically. DEM files are read
 * and checked before the PBF so a wrong tile fails fast. Throws RegionInputError on bad input and
 * ImportResourceError when memory or a size limit runs out on good input.
 */
export async function importRegion(opts: ImportOptions): Promise<Region> {
  const progress = opts.progress ?? new ImportProgress({ enabled: false });
  const started = performance.now();
  const { region, stats } = await readRegion(opts, progress);
  let files: Record<string, number> = {};
  if (opts.out !== undefined) {
    // Routing prepared for every activity (routing.bin), so no worker prepares any at load or on a request; written
    // beside the folder as it is made (regionWorkFile), then moved into it with the other files.
    const workFile = regionWorkFile(opts.out, 'routing');
    try {
      const routing = await prepareRoutingFiles(region.graph, { progress, workFile }).catch((e: unknown) => {
        throw resourceFailure(e, 'preparing routing');
      });
      progress.stage('write');
      try {
        // The trail tiles' archive is cut into the folder before it is renamed into place.
        files = await writeRegionWithTiles(opts.out, region, (line) => progress.note(line), {}, routing);
      } catch (e) {
        throw resourceFailure(e, 'writing the region folder');
      }
    } finally {
      rmSync(workFile, { force: true }); // moved into the folder, or left by a failure
    }
  }
  const stages = progress.end();
  if (opts.report) {
    Object.assign(opts.report, {
      pbf: stats,
      files,
      stages,
      seconds: Math.round(performance.now() - started) / 1000,
      peakRssMB: Math.round(peakRss() / 1e5) / 10,
    } satisfies ImportReport);
  }
  return region;
}

function resourceFailure(e: unknown, stage: string): unknown {
  if (e instanceof RegionInputError || e instanceof ImportResourceError) return e;
  const message = (e as Error)?.message ?? String(e);
  if (isOutOfMemory(e)) {
    return new ImportResourceError(`out of memory while ${stage}: ${message} (try a machine with more memory or a smaller extract)`);
  }
  if (isLimit(e)) return new ImportResourceError(`limit reached while ${stage}: ${message} (the extract is too large for one region)`);
  return e;
}
