// Loads the regions a routing engine works on: a region folder or the demo region, with its routing prepared before
// any request (routing.bin, or prepared at load), and keeps them per worker thread for every task module of that
// thread: the regions tasks name (RegionRef, handed by the main thread) and the thread's own (REGION_PATH, or the demo).
import { buildDemoRegion } from '../data/region/demo-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import type { Region } from '../data/region/region.js';
import { collectGarbage } from '../lib/collect-garbage.js';
import { wasmBuild, type WasmBuild } from '../geo-wasm/src/load-wasm.js';
import { RoutingFileError } from '../geo-wasm/src/routing-file.js';
import { awaitFiles, placedFile, type SharedRegionFiles } from '../geo-wasm/src/routing-memory.js';
import { REGION_NOT_HELD, type RegionKey, type RegionRef } from '../contracts/region-ref.js';
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
 * The thread's own region and engine (REGION_PATH, or the demo region when unset), loaded on first use and kept
 * for the thread's life: what a task without a region reference answers from (the route command, tests, benches).
 * Every task module of the thread shares it (modules are cached per thread); a load that throws is tried again by
 * the next task. ROUTING_LAZY=1 leaves each activity to its first request. Preparation that does not come from
 * routing.bin is reported on stderr.
 */
export function threadRouting(): RoutingRegion {
  loaded ??= loadRoutingRegion(process.env['REGION_PATH'] || undefined, {
    lazy: process.env['ROUTING_LAZY'] === '1',
    log: logLine,
  });
  return loaded;
}

const logLine = (line: string) => process.stderr.write(`${line}\n`);

/** The regions this thread has loaded for tasks that named them, by key, with the reference each came with. */
const byKey = new Map<string, { ref: RegionRef; routing: RoutingRegion }>();

/**
 * The region a task runs on: the one its reference names (loaded on the first task that names it: the folder's
 * shared files are used in place, the rest read by this thread), or the thread's own when it names none. Regions
 * the main thread has retired since are dropped first, so a replaced region's memory goes once every thread has
 * run a task after its retirement.
 */
export function routingFor(ref: RegionRef | RegionKey | undefined): RoutingRegion {
  if (ref === undefined) return threadRouting();
  dropRetired();
  const known = byKey.get(ref.key);
  if (known) return known.routing;
  if (!('retired' in ref)) throw new Error(`${REGION_NOT_HELD}${ref.key}`);
  const files = ref.files;
  const routing = loadRoutingRegion(ref.dir, {
    ...(files ? { shared: () => awaitFiles(files) } : {}),
    lazy: process.env['ROUTING_LAZY'] === '1',
    log: logLine,
  });
  byKey.set(ref.key, { ref, routing });
  return routing;
}

/** Drops the regions the main thread has retired (their memory is freed once nothing else holds it). */
export function dropRetired(): void {
  let dropped = false;
  for (const [key, { ref }] of byKey) if (Atomics.load(ref.retired, 0) !== 0) dropped = byKey.delete(key);
  // The region's memory goes with the last object referencing it, which only a major collection finds.
  if (dropped) collectGarbage();
}

/** The keys of the regions this thread holds for tasks that named them (ping reports them). */
export function heldRegions(): string[] {
  return [...byKey.keys()];
}
