// Loads the region a routing engine works on: a region folder (REGION_PATH) or the demo region, with its routing
// prepared before any request (routing.bin, or prepared at load), and keeps one per worker thread for every task
// module of that thread.
import { buildDemoRegion } from '../data/region/demo-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import type { Region } from '../data/region/region.js';
import { workerData } from 'piscina';
import { wasmBuild, type WasmBuild } from '../geo-wasm/src/load-wasm.js';
import { RoutingFileError } from '../geo-wasm/src/routing-file.js';
import { awaitFiles, placedFile, type RoutingWorkerData, type SharedRegionFiles } from '../geo-wasm/src/routing-memory.js';
import { RegionInputError } from '../data/region/region-error.js';
import { RouteEngine } from './route-engine.js';
import { completePreparedRouting, type PreparedRouting, prepareRouting, readPreparedRouting, ROUTING_FILE } from './routing-prep.js';

export interface RoutingRegion {
  region: Region;
  engine: RouteEngine;
  /** Where it came from: the folder path, or "demo". */
  source: string;
  /**
   * How its routing was prepared: read from the folder's routing.bin, prepared at load (the demo region, or a
   * folder without a usable routing.bin), or left to each activity's first request (`lazy`).
   */
  routing: 'file' | 'load' | 'lazy';
  loadMs: number;
}

export interface RoutingLoadOptions {
  build?: WasmBuild;
  /**
   * `dir`'s graph.bin, places.bin and routing.bin as the main thread read them into the process's routing memory
   * (readRegionIntoMemory), or a wait for them (asked for once the folder's other files are loaded): the region and
   * its prepared routing view them there and the kernel searches them in place, so every worker shares one copy.
   * Without it, this thread reads the files and copies them into a WASM memory of its own.
   */
  shared?: SharedRegionFiles | (() => SharedRegionFiles);
  /** Leave every activity to its first request (the behaviour before routing was prepared ahead; comparisons). */
  lazy?: boolean;
  /** One line about preparation that did not come from routing.bin (a folder without one, a first request). */
  log?: (line: string) => void;
}

/**
 * Loads `dir` (or the demo region when undefined) and builds its engine (core graph in the thread's WASM
 * instance) with every activity prepared: from `dir`/routing.bin when it has a usable one, otherwise prepared
 * here. The build follows CAIRN_WASM_BUILD / NODE_ENV unless given.
 */
export function loadRoutingRegion(dir: string | undefined, opts: RoutingLoadOptions = {}): RoutingRegion {
  const log = opts.log ?? (() => undefined);
  const t0 = performance.now();
  let shared: SharedRegionFiles | undefined;
  const sharedFiles = (): SharedRegionFiles => {
    const given = opts.shared!;
    shared ??= typeof given === 'function' ? given() : given;
    return shared;
  };
  const sharedFile = (name: string) => {
    const bytes = placedFile(sharedFiles(), name);
    if (!bytes) throw new RegionInputError(`region file ${dir}/${name} is missing`);
    return bytes;
  };
  const region = dir ? loadRegion(dir, opts.shared ? { sharedFile } : {}) : buildDemoRegion();
  let prepared: PreparedRouting | undefined;
  let routing: RoutingRegion['routing'] = 'lazy';
  if (!opts.lazy) {
    let why = '';
    if (dir) {
      try {
        const read = readPreparedRouting(dir, region.graph, shared && placedFile(shared, ROUTING_FILE));
        if (read) {
          const added = completePreparedRouting(region.graph, read);
          if (added.length) log(`routing: ${dir}/${ROUTING_FILE} lacks ${added.join(', ')}: prepared at load (re-import the region)`);
          prepared = read;
          routing = 'file';
        } else why = `${dir} has no ${ROUTING_FILE}`;
      } catch (e) {
        if (!(e instanceof RoutingFileError)) throw e;
        why = `${dir}/${ROUTING_FILE} is not usable (${e.message})`;
      }
    }
    if (!prepared) {
      const t = performance.now();
      prepared = prepareRouting(region.graph);
      routing = 'load';
      if (why)
        log(`routing: ${why}: prepared at load in ${((performance.now() - t) / 1000).toFixed(2)} s (re-import the region: npm run import)`);
    }
  }
  const engine = new RouteEngine(
    region.graph,
    region.dem,
    {
      kernel: shared ? { build: shared.build, memory: shared.memory } : { build: opts.build ?? wasmBuild() },
      onPrepare: (activity, ms) => log(`routing: ${activity} prepared on its first request (${Math.round(ms)} ms)`),
    },
    prepared,
  );
  return { region, engine, source: dir ?? 'demo', routing, loadMs: performance.now() - t0 };
}

let loaded: RoutingRegion | undefined;

/**
 * The thread's region and engine (REGION_PATH, or the demo region when unset), loaded on first use and kept
 * for the thread's life. Every task module of the thread shares it (modules are cached per thread); a load
 * that throws is tried again by the next task. ROUTING_LAZY=1 leaves each activity to its first request.
 * Preparation that does not come from routing.bin is reported on stderr. In a pool given the region's shared
 * files (`workerData.region`), they are used in place.
 */
export function threadRouting(): RoutingRegion {
  const handoff = (workerData as RoutingWorkerData | undefined)?.region;
  loaded ??= loadRoutingRegion(process.env['REGION_PATH'] || undefined, {
    ...(handoff ? { shared: () => awaitFiles(handoff) } : {}),
    lazy: process.env['ROUTING_LAZY'] === '1',
    log: (line) => process.stderr.write(`${line}\n`),
  });
  return loaded;
}
