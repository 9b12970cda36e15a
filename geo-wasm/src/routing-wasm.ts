// Loads the `routing` WASM module once per thread and types its exports.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// lib ES2023 carries no WebAssembly types and @types/node 20 none either: the few used here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmModule {
  readonly kind: 'module';
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (mod: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
};

/** Exports of build/routing.<debug|release>.wasm (pointers are byte offsets in `memory`). */
export interface RoutingExports {
  memory: WasmMemory;
  alloc(bytes: number): number;
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
    lon: number, lat: number, source: number, target: number, twin: number,
    w: number, h: number, west: number, south: number, cellDeg: number, start: number, items: number,
  ): void;
  snap(lon: number, lat: number, maxDist: number, cost: number, dx: number, dy: number, minCos: number): number;
  snapFraction(): number;
  snapDistance(): number;
  snapLon(): number;
  snapLat(): number;
  matchLine(coords: number, count: number, maxDist: number, cost: number, out: number): number;
  useHierarchy(n: number, ff: number, ft: number, fw: number, fr: number, bf: number, bt: number, bw: number, br: number): void;
  chBegin(): void;
  chSource(v: number, cost: number): void;
  chTarget(v: number, cost: number): void;
  chSearch(): number;
  chMeet(): number;
  chParents(side: number): number;
}

export type WasmBuild = 'debug' | 'release';

/** Candidate locations of the build folder: beside the sources, or from dist/geo-wasm/src. */
function wasmPath(build: WasmBuild): URL {
  const name = `routing.${build}.wasm`;
  const candidates = [new URL(`../build/${name}`, import.meta.url), new URL(`../../../geo-wasm/build/${name}`, import.meta.url)];
  for (const url of candidates) {
    try {
      readFileSync(fileURLToPath(url), { flag: 'r' }).byteLength;
      return url;
    } catch {
      // try the next location
    }
  }
  throw new Error(`geo-wasm: ${name} not found; run npm run build:wasm`);
}

const modules = new Map<WasmBuild, WasmModule>();

/** A fresh instance (its own memory) of the routing module; the compiled module is cached. */
export function instantiateRouting(build: WasmBuild = 'release'): RoutingExports {
  let mod = modules.get(build);
  if (!mod) {
    mod = new WebAssembly.Module(readFileSync(fileURLToPath(wasmPath(build))));
    modules.set(build, mod);
  }
  const instance = new WebAssembly.Instance(mod, {
    env: {
      abort(_msg: number, _file: number, line: number, col: number): never {
        throw new Error(`routing.wasm: abort at ${line}:${col}`);
      },
    },
  });
  return instance.exports as unknown as RoutingExports;
}
