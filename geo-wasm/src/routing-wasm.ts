// Types the exports of the `routing` WASM module, loaded once per thread by the shared loader.
import { loadWasm, type SharedWasmMemory, wasmBuild, type WasmBuild, type WasmMemory } from './load-wasm.js';

export type { WasmBuild } from './load-wasm.js';

/** Exports of build/routing.<debug|release>.wasm (pointers are byte offsets in `memory`). */
export interface RoutingExports {
  memory: WasmMemory;
  alloc(bytes: number): number;
  claim(bytes: number): number;
  useGraph(n: number, first: number, target: number, source: number, twin: number): void;
  useWeights(cost: number, haz: number, mask: number): void;
  useLandmarks(count: number, from: number, to: number, use: number): void;
  clearEndpoints(): void;
  addSource(node: number, cost: number): void;
  addTarget(node: number, cost: number): void;
  search(reverse: number, budget: number): number;
  settled(): number;
  settledList(): number;
  distances(): number;
  reachedTarget(): number;
  pathEdgeCount(): number;
  writePath(out: number): number;
  pathSource(): number;
  copyDistances(out: number): void;
  useSpatial(
    lon: number, lat: number, pieceStart: number, chainFrom: number, chainTo: number, towers: number, chains: number,
    w: number, h: number, west: number, south: number, cellDeg: number, start: number, items: number,
  ): void;
  snap(lon: number, lat: number, maxDist: number, open: number, dx: number, dy: number, minCos: number): number;
  snapFraction(): number;
  snapDistance(): number;
  snapLon(): number;
  snapLat(): number;
  matchLine(coords: number, count: number, maxDist: number, open: number, out: number): number;
  useHierarchy(n: number, ff: number, ft: number, fw: number, bf: number, bt: number, bw: number, forwardEdges: number): void;
  chBegin(): void;
  chSource(v: number, cost: number): void;
  chTarget(v: number, cost: number): void;
  chSearch(): number;
  chMeet(): number;
  chParents(side: number): number;
}

/** Exports returning a pointer: wasm hands a u32 back as a signed i32, negative past 2 GiB. */
const POINTER_RESULTS = ['alloc', 'claim', 'settledList', 'distances', 'chParents'] as const;
const typed = new WeakMap<object, RoutingExports>();

/**
 * The thread's instance of the routing module on `memory` (a region's routing memory, routing-memory.ts), or on a
 * memory of the thread's own: one instance per thread, build and memory; several kernels in one thread share it
 * and re-select their arrays before each call. Pointers come back unsigned.
 */
export function instantiateRouting(build: WasmBuild = wasmBuild(), memory?: SharedWasmMemory): RoutingExports {
  const raw = loadWasm('routing', build, memory).exports;
  let exports = typed.get(raw);
  if (!exports) {
    const unsigned: Record<string, unknown> = { ...raw };
    for (const name of POINTER_RESULTS) {
      const f = raw[name] as (...args: number[]) => number;
      unsigned[name] = (...args: number[]) => f(...args) >>> 0;
    }
    exports = unsigned as unknown as RoutingExports;
    typed.set(raw, exports);
  }
  return exports;
}
