// Loads the region a routing engine works on: a region folder (REGION_PATH) or the demo region, and keeps
// one per worker thread for every task module of that thread.
import { buildDemoRegion } from '../data/region/demo-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import type { Region } from '../data/region/region.js';
import { wasmBuild, type WasmBuild } from '../geo-wasm/src/load-wasm.js';
import { RouteEngine } from './route-engine.js';

export interface RoutingRegion {
  region: Region;
  engine: RouteEngine;
  /** Where it came from: the folder path, or "demo". */
  source: string;
  loadMs: number;
}

/**
 * Loads `dir` (or the demo region when undefined) and builds its engine (core graph in the thread's
 * WASM instance). The build follows CAIRN_WASM_BUILD / NODE_ENV unless given.
 */
export function loadRoutingRegion(dir: string | undefined, build: WasmBuild = wasmBuild()): RoutingRegion {
  const t0 = performance.now();
  const region = dir ? loadRegion(dir) : buildDemoRegion();
  const engine = new RouteEngine(region.graph, region.dem, { kernel: { build } });
  return { region, engine, source: dir ?? 'demo', loadMs: performance.now() - t0 };
}

let loaded: RoutingRegion | undefined;

/**
 * The thread's region and engine (REGION_PATH, or the demo region when unset), loaded on first use and kept
 * for the thread's life. Every task module of the thread shares it (modules are cached per thread); a load
 * that throws is tried again by the next task.
 */
export function threadRouting(): RoutingRegion {
  loaded ??= loadRoutingRegion(process.env['REGION_PATH'] || undefined);
  return loaded;
}
