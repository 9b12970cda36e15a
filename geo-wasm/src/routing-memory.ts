// One routing memory per process: a region's files are read once into the shared memory the routing module
// imports, and every worker thread's instance searches them there (geo-wasm/build.mjs builds the module shared;
// assembly/routing/shared-runtime.ts keeps the instances' allocations apart). What the main thread hands each
// worker (`SharedRegionFiles`) is the memory and where each file lies in it: structured-cloneable, no copy.
import { type FileHandle, open } from 'node:fs/promises';
import { createSharedMemory, type SharedWasmMemory, wasmBuild, type WasmBuild } from './load-wasm.js';
import { instantiateRouting } from './routing-wasm.js';
import type { RegionHandoff } from '../../contracts/region-ref.js';

/** A file read into a routing memory: its first byte and its length. */
export interface PlacedFile {
  ptr: number;
  bytes: number;
}

/** A region's files in one routing memory, for the build whose layout the memory follows. */
export interface SharedRegionFiles {
  memory: SharedWasmMemory;
  /** The routing module build every instance on this memory must be (builds differ in their static data). */
  build: WasmBuild;
  files: Record<string, PlacedFile>;
}

/** A routing memory as handed to workers before its files are read (its shape is a task contract). */
export type { RegionHandoff } from '../../contracts/region-ref.js';

const READING = 0;
const PUBLISHED = 1;
const FAILED = 2;

/** A handoff of a new routing memory for files `names`, to be read with `build` (the workers' build too). */
export function createRegionHandoff(names: readonly string[], build: WasmBuild = wasmBuild()): RegionHandoff {
  return {
    memory: createRoutingMemory(),
    build,
    names: [...names],
    state: new Int32Array(new SharedArrayBuffer(4)),
    table: new Float64Array(new SharedArrayBuffer(names.length * 16)),
  };
}

/** Runs `read` (the files into the handoff's memory) and publishes the result to every worker waiting for it. */
export async function handOver(handoff: RegionHandoff, read: () => Promise<SharedRegionFiles>): Promise<SharedRegionFiles> {
  try {
    const files = await read();
    handoff.names.forEach((name, i) => {
      const f = files.files[name];
      handoff.table.set(f ? [f.ptr, f.bytes] : [-1, -1], 2 * i);
    });
    Atomics.store(handoff.state, 0, PUBLISHED);
    return files;
  } catch (e) {
    Atomics.store(handoff.state, 0, FAILED);
    throw e;
  } finally {
    Atomics.notify(handoff.state, 0);
  }
}

/**
 * The files of a handoff, waiting (blocking this thread) until the main thread has published them; throws when
 * their read failed or nothing was published within `timeoutMs`. Called by a worker as it loads its region.
 */
export function awaitFiles(handoff: RegionHandoff, timeoutMs = 600_000): SharedRegionFiles {
  if (Atomics.wait(handoff.state, 0, READING, timeoutMs) === 'timed-out') {
    throw new Error(`the region's routing files were not read within ${timeoutMs / 1000} s`);
  }
  if (Atomics.load(handoff.state, 0) !== PUBLISHED) throw new Error("the region's routing files could not be read");
  const files: Record<string, PlacedFile> = {};
  handoff.names.forEach((name, i) => {
    const [ptr, bytes] = handoff.table.subarray(2 * i, 2 * i + 2);
    if (ptr! >= 0) files[name] = { ptr: ptr!, bytes: bytes! };
  });
  return { memory: handoff.memory, build: handoff.build, files };
}

/** Thrown when the files would not fit in wasm32's 4 GiB (a region too large for one routing memory). */
export class RoutingMemoryFullError extends Error {}

/** The most the files may take: wasm32's 4 GiB less room for every thread's search state. */
const FILES_LIMIT = 2 ** 32 - 2 ** 28;

/** Bytes of one read, and reads in flight: a few parallel reads fetch a file about twice as fast from a virtual disk. */
const READ_CHUNK = 16 << 20;
const READS_IN_FLIGHT = 4;

/**
 * Reads `paths` (name → file) into a new routing memory, each claimed through the module's own allocator so that
 * no instance ever allocates over it. Missing files are left out. Throws RoutingMemoryFullError when they would
 * not fit.
 */
export async function readIntoRoutingMemory(
  paths: Record<string, string>,
  build: WasmBuild = wasmBuild(),
  memory: SharedWasmMemory = createRoutingMemory(),
): Promise<SharedRegionFiles> {
  const w = instantiateRouting(build, memory);
  const files: Record<string, PlacedFile> = {};
  const opened: [string, FileHandle, number][] = [];
  try {
    for (const [name, path] of Object.entries(paths)) {
      let file: FileHandle;
      try {
        file = await open(path, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw e;
      }
      opened.push([name, file, (await file.stat()).size]);
    }
    const total = opened.reduce((sum, [, , size]) => sum + size, 0);
    if (total > FILES_LIMIT) {
      throw new RoutingMemoryFullError(
        `the region's routing files take ${(total / 2 ** 30).toFixed(2)} GiB; one routing memory holds at most ${(FILES_LIMIT / 2 ** 30).toFixed(2)} GiB`,
      );
    }
    for (const [name, file, size] of opened) {
      const ptr = w.claim(size);
      const view = new Uint8Array(memory.buffer, ptr, size);
      let next = 0;
      const readChunks = async (): Promise<void> => {
        while (next < size) {
          const start = next;
          const end = Math.min(size, start + READ_CHUNK);
          next = end;
          for (let at = start; at < end; ) {
            const { bytesRead } = await file.read(view, at, end - at, at);
            if (bytesRead === 0) throw new Error(`${paths[name]} ended before its ${size} bytes`);
            at += bytesRead;
          }
        }
      };
      await Promise.all(Array.from({ length: READS_IN_FLIGHT }, readChunks));
      files[name] = { ptr, bytes: size };
    }
  } finally {
    await Promise.all(opened.map(([, file]) => file.close()));
  }
  return { memory, build, files };
}

/** An empty routing memory (grows as files and instances claim space). */
export function createRoutingMemory(): SharedWasmMemory {
  return createSharedMemory();
}

// The buffers views of a routing memory were made on (a memory's `buffer` is a new object after it grows).
const viewed = new WeakMap<SharedArrayBuffer, SharedWasmMemory>();

/** A view of file `name` in the shared region (undefined when the region has no such file); no copy. */
export function placedFile(region: SharedRegionFiles, name: string): Uint8Array | undefined {
  const f = region.files[name];
  if (!f) return undefined;
  const buffer = region.memory.buffer;
  viewed.set(buffer, region.memory);
  return new Uint8Array(buffer, f.ptr, f.bytes);
}

/** Whether `a` views `memory` itself (a placed file or a part of one), so a kernel on that memory can use it in place. */
export function viewsMemory(a: ArrayBufferView, memory: SharedWasmMemory): boolean {
  return a.buffer instanceof SharedArrayBuffer && viewed.get(a.buffer) === memory;
}
