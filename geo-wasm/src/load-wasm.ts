// Instantiates geo-wasm/build/<name>.<debug|release>.wasm once per thread and caches the instance.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type WasmBuild = 'debug' | 'release';

// The project's lib (ES2023, no DOM) has no WebAssembly declarations: the few used here, kept local
// so that no global declaration can clash with one added elsewhere.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => WasmInstance;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** debug (assertions on) when CAIRN_WASM_BUILD=debug or NODE_ENV=test; release otherwise. */
export function wasmBuild(): WasmBuild {
  const forced = process.env['CAIRN_WASM_BUILD'];
  if (forced === 'debug' || forced === 'release') return forced;
  return process.env['NODE_ENV'] === 'test' ? 'debug' : 'release';
}

const instances = new Map<string, WasmInstance>();

/**
 * The cached instance of module `name` for this thread (compiled synchronously on first use; Node has no
 * size limit on synchronous compilation). The build folder is found from source (geo-wasm/src) and from
 * the compiled output (dist/geo-wasm/src).
 */
export function loadWasm(name: string, build: WasmBuild = wasmBuild()): WasmInstance {
  const key = `${name}.${build}`;
  const cached = instances.get(key);
  if (cached !== undefined) return cached;
  const file = `${key}.wasm`;
  const candidates = [
    new URL(`../build/${file}`, import.meta.url),
    new URL(`../../../geo-wasm/build/${file}`, import.meta.url),
  ].map((u) => fileURLToPath(u));
  const path = candidates.find((p) => existsSync(p));
  if (path === undefined) {
    throw new Error(`geo-wasm: ${file} not found (run npm run build:wasm); looked in ${candidates.join(', ')}`);
  }
  let memory: WasmMemory | undefined;
  const env = {
    // AssemblyScript's abort(message, file, line, column): strings are UTF-16 with their byte length at ptr - 4.
    abort(msg: number, fileName: number, line: number, column: number): never {
      const text = (ptr: number): string => {
        if (memory === undefined || ptr === 0) return '?';
        const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0] ?? 0;
        return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
      };
      throw new Error(`geo-wasm ${name}: abort: ${text(msg)} at ${text(fileName)}:${line}:${column}`);
    },
  };
  const instance = new wasm.Instance(new wasm.Module(readFileSync(path)), { env });
  memory = instance.exports['memory'] as WasmMemory;
  instances.set(key, instance);
  return instance;
}
