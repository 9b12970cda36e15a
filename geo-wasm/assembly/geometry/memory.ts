// The single map of the geometry module's linear memory: a fixed RESULT block, then caller-placed regions.
//
// Byte layout (all offsets 16-byte aligned, so v128 loads of f64 pairs stay aligned):
//   resultPtr()                RESULT_SLOTS f64 slots: scalar outputs of the last call (see each kernel)
//   chunkPtr() = resultPtr() + RESULT_BYTES      CHUNK_SEGMENTS f64 segment lengths (internal)
//   freePtr()  = chunkPtr() + CHUNK_BYTES        start of the free area. The TS wrapper (geo-wasm/src/geometry.ts) places,
//                              in this order: the resident DEM grid (int16, only while one is loaded), then
//                              one scratch area per call: input coordinates | output | work.
// Nothing in the kernels allocates: the `stub` runtime is never asked for memory, so the free area belongs
// to the wrapper alone. Memory only grows (reserve), and the wrapper rebuilds its typed-array views after.

export const RESULT_SLOTS: i32 = 8;
export const RESULT_BYTES: i32 = RESULT_SLOTS << 3;
/** Segment lengths of one chunk (along, slice, length walk chunk by chunk so they can stop early). */
export const CHUNK_SEGMENTS: i32 = 64;
export const CHUNK_BYTES: i32 = CHUNK_SEGMENTS << 3;

/** Status codes: >= 0 is a count or index, < 0 one of these. Mirrored in geo-wasm/src/geometry.ts. */
export const ERR_STRIDE: i32 = -1; // stride is neither 2 nor 3
export const ERR_TOO_FEW: i32 = -2; // not enough vertices (or samples) for the operation
export const ERR_ARGUMENT: i32 = -3; // a numeric argument is NaN, negative where it must not be, or out of order
export const ERR_GRID: i32 = -4; // DEM grid shape is unusable (fewer than 2x2 samples, cell size <= 0)
export const ERR_MEMORY: i32 = -5; // memory.grow failed

export function resultPtr(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function chunkPtr(): usize {
  return resultPtr() + <usize>RESULT_BYTES;
}

/** First byte the wrapper may use. */
export function freePtr(): usize {
  return chunkPtr() + <usize>CHUNK_BYTES;
}

/** Grows memory so that [0, endByte) is addressable. Returns 0, or ERR_MEMORY. */
export function reserve(endByte: usize): i32 {
  const have = (<usize>memory.size()) << 16;
  if (endByte <= have) return 0;
  const pages = <i32>((endByte - have + 0xffff) >>> 16);
  return memory.grow(pages) < 0 ? ERR_MEMORY : 0;
}

export function setResult(slot: i32, value: f64): void {
  store<f64>(resultPtr() + (<usize>slot << 3), value);
}

/** Copies one vertex of stride 2 or 3 f64 (memory.copy is slow for 16-24 bytes). */
export function copyVertex(dst: usize, src: usize, stride: i32): void {
  v128.store(dst, v128.load(src));
  if (stride == 3) store<f64>(dst + 16, load<f64>(src + 16));
}
