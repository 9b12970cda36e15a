// Instantiates geo-wasm/build/<name>.<debug|release>.wasm once per thread (and per shared memory) and caches the
// instance. A module that imports its memory (the routing module: one shared memory per process) gets the memory it
// is given, or a fresh shared one of its own.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type WasmBuild = 'debug' | 'release';

// The project's lib (ES2023, no DOM) has no WebAssembly declarations: the few used here, kept local
// so that no global declaration can clash with one added elsewhere.
export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
/** A memory several threads' instances use at once (what a module built with --sharedMemory imports). */
export interface SharedWasmMemory {
  readonly buffer: SharedArrayBuffer;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; imports(module: object): { kind: string }[] };
  Instance: new (module: object, imports: object) => WasmInstance;
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => SharedWasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** debug (assertions on) when CAIRN_WASM_BUILD=debug or NODE_ENV=test; release otherwise. */
export function wasmBuild(): WasmBuild {
  const forced = process.env['CAIRN_WASM_BUILD'];
  if (forced === 'debug' || forced === 'release') return forced;
  return process.env['NODE_ENV'] === 'test' ? 'debug' : 'release';
}

/** wasm32's whole address space in 64 KiB pages: the maximum a shared memory declares (reserved, not committed). */
export const WASM32_MAX_PAGES = 65536;

/** A new shared memory for a module that imports one (empty; it grows as the module and its host claim space). */
export function createSharedMemory(): SharedWasmMemory {
  return new wasm.Memory({ initial: 1, maximum: WASM32_MAX_PAGES, shared: true });
}

const instances = new Map<string, WasmInstance>();
const onMemory = new WeakMap<SharedWasmMemory, Map<string, WasmInstance>>();
const modules = new Map<string, object>();

/**
 * The cached instance of module `name` for this thread (compiled synchronously on first use; Node has no
 * size limit on synchronous compilation). A module importing its memory is instantiated on `memory` (one instance
 * per memory and thread) or, without one, on a fresh shared memory of its own. The build folder is found from
 * source (geo-wasm/src) and from the compiled output (dist/geo-wasm/src).
 */
export function loadWasm(name: string, build: WasmBuild = wasmBuild(), memory?: SharedWasmMemory): WasmInstance {
  const key = `${name}.${build}`;
  const cache = memory ? onMemory.get(memory) ?? new Map<string, WasmInstance>() : instances;
  if (memory) onMemory.set(memory, cache);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const module = modules.get(key) ?? compile(key);
  modules.set(key, module);
  const imported = wasm.Module.imports(module).some((i) => i.kind === 'memory');
  if (memory && !imported) throw new TypeError(`geo-wasm: ${name} owns its memory and cannot be given one`);
  let own: WasmMemory | undefined = imported ? (memory ?? createSharedMemory()) : undefined;
  const env = {
    ...(imported ? { memory: own } : {}),
    // AssemblyScript's abort(message, file, line, column): strings are UTF-16 with their byte length at ptr - 4.
    abort(msg: number, fileName: number, line: number, column: number): never {
      const text = (ptr: number): string => {
        if (own === undefined || ptr === 0) return '?';
        const bytes = new Uint32Array(own.buffer, ptr - 4, 1)[0] ?? 0;
        return String.fromCharCode(...new Uint16Array(own.buffer, ptr, bytes >>> 1));
      };
      throw new Error(`geo-wasm ${name}: abort: ${text(msg)} at ${text(fileName)}:${line}:${column}`);
    },
  };
  const instance = new wasm.Instance(module, { env });
  own ??= instance.exports['memory'] as WasmMemory;
  cache.set(key, instance);
  return instance;
}

function compile(key: string): object {
  const file = `${key}.wasm`;
  const candidates = [
    new URL(`../build/${file}`, import.meta.url),
    new URL(`../../../geo-wasm/build/${file}`, import.meta.url),
  ].map((u) => fileURLToPath(u));
  const path = candidates.find((p) => existsSync(p));
  if (path === undefined) {
    throw new Error(`geo-wasm: ${file} not found (run npm run build:wasm); looked in ${candidates.join(', ')}`);
  }
  return new wasm.Module(readFileSync(path));
}
