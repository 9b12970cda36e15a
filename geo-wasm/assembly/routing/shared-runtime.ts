// The routing module's runtime: AssemblyScript's stub runtime (bump allocation, never frees) made safe for one
// shared memory used by several instances at once (one per worker thread, each with its own globals). Each
// instance allocates from chunks it claims with an atomic add on one shared word, so instances never hand out
// the same bytes; a host that places a region's files in the memory claims them the same way (`alloc`).
import { AL_MASK, OBJECT, OBJECT_OVERHEAD, BLOCK_MAXSIZE, BLOCK_OVERHEAD, BLOCK, OBJECT_MAXSIZE } from "rt/common";
import { E_ALLOCATION_TOO_LARGE } from "util/error";

/** The shared word: the next unclaimed byte of the memory (0 until the first claim of any instance). */
// @ts-ignore: decorator
@lazy const NEXT_FREE: usize = (__heap_base + AL_MASK) & ~AL_MASK;
/** Smallest chunk an instance claims for its small allocations. */
// @ts-ignore: decorator
@inline const CHUNK: usize = 1 << 20;

// This instance's chunk: blocks are carved from `offset` up to `chunkEnd`.
let offset: usize = 0;
let chunkEnd: usize = 0;

/** Claims `bytes` (a multiple of 16) for this instance and grows the memory to hold them; traps when 4 GiB would not. */
function claim(bytes: usize): usize {
  atomic.cmpxchg<u32>(NEXT_FREE, 0, <u32>(NEXT_FREE + 16));
  const start = <usize>atomic.add<u32>(NEXT_FREE, <u32>bytes);
  const end = <u64>start + <u64>bytes;
  if (end > 0x100000000) unreachable(); // past wasm32's 4 GiB
  // Several instances may grow at once; each grows until its own claim fits.
  while ((<u64>memory.size() << 16) < end) {
    const short = end - (<u64>memory.size() << 16);
    if (memory.grow(<i32>((short + 0xffff) >> 16)) < 0) unreachable(); // out of memory
  }
  return start;
}

/** Claims `bytes` of its own (16-aligned, no block header, any size below 4 GiB): where a host reads a file. */
// @ts-ignore: decorator
@global @unsafe
export function __claim(bytes: usize): usize {
  return claim((<usize>bytes + AL_MASK) & ~AL_MASK);
}

// @ts-ignore: decorator
@inline function computeSize(size: usize): usize {
  return ((size + BLOCK_OVERHEAD + AL_MASK) & ~AL_MASK) - BLOCK_OVERHEAD;
}

// @ts-ignore: decorator
@unsafe @global
export function __alloc(size: usize): usize {
  if (size > BLOCK_MAXSIZE) throw new Error(E_ALLOCATION_TOO_LARGE);
  const payloadSize = computeSize(size);
  const total = payloadSize + BLOCK_OVERHEAD + AL_MASK; // room to align the payload to 16
  if (offset + total > chunkEnd) {
    if (total >= CHUNK) {
      // A large block gets a claim of its own; the current chunk stays in use.
      const start = claim((total + AL_MASK) & ~AL_MASK);
      return place(start, payloadSize);
    }
    offset = claim(CHUNK);
    chunkEnd = offset + CHUNK;
  }
  const ptr = place(offset, payloadSize);
  offset = ptr + payloadSize;
  return ptr;
}

/** Writes a block header at the first 16-aligned payload position from `at`; returns the payload pointer. */
function place(at: usize, payloadSize: usize): usize {
  const ptr = (at + BLOCK_OVERHEAD + AL_MASK) & ~AL_MASK;
  changetype<BLOCK>(ptr - BLOCK_OVERHEAD).mmInfo = payloadSize;
  return ptr;
}

// @ts-ignore: decorator
@unsafe @global
export function __realloc(ptr: usize, size: usize): usize {
  assert(ptr != 0 && !(ptr & AL_MASK)); // must exist and be aligned
  const actualSize = changetype<BLOCK>(ptr - BLOCK_OVERHEAD).mmInfo;
  if (size <= actualSize) return ptr;
  const newPtr = __alloc(size);
  memory.copy(newPtr, ptr, actualSize);
  return newPtr;
}

// @ts-ignore: decorator
@unsafe @global
export function __free(ptr: usize): void {
  assert(ptr != 0 && !(ptr & AL_MASK)); // never freed: claims are never given back
}

// @ts-ignore: decorator
@unsafe @global
export function __reset(): void {
  // nothing to reset: other instances may use what this one claimed next to its chunk
}

// @ts-ignore: decorator
@unsafe @global
export function __new(size: usize, id: u32): usize {
  if (size > OBJECT_MAXSIZE) throw new Error(E_ALLOCATION_TOO_LARGE);
  const ptr = __alloc(OBJECT_OVERHEAD + size);
  const object = changetype<OBJECT>(ptr - BLOCK_OVERHEAD);
  object.gcInfo = 0;
  object.gcInfo2 = 0;
  object.rtId = id;
  object.rtSize = <u32>size;
  return ptr + OBJECT_OVERHEAD;
}

// @ts-ignore: decorator
@unsafe @global
export function __renew(oldPtr: usize, size: usize): usize {
  if (size > OBJECT_MAXSIZE) throw new Error(E_ALLOCATION_TOO_LARGE);
  const newPtr = __realloc(oldPtr - OBJECT_OVERHEAD, OBJECT_OVERHEAD + size);
  changetype<OBJECT>(newPtr - BLOCK_OVERHEAD).rtSize = <u32>size;
  return newPtr + OBJECT_OVERHEAD;
}

// @ts-ignore: decorator
@global @unsafe
export function __link(parentPtr: usize, childPtr: usize, expectMultiple: bool): void {
  // nop
}

// @ts-ignore: decorator
@global @unsafe
export function __pin(ptr: usize): usize {
  return ptr;
}

// @ts-ignore: decorator
@global @unsafe
export function __unpin(ptr: usize): void {
  // nop
}

// @ts-ignore: decorator
@global @unsafe
function __visit(ptr: usize, cookie: u32): void { // eslint-disable-line @typescript-eslint/no-unused-vars
  // nop
}

// @ts-ignore: decorator
@global @unsafe
export function __collect(): void {
  // nop
}
