// The layout graph.bin and places.bin share: a fixed-size header, then typed arrays in a fixed order, each at the
// next multiple of 8 bytes (zero padding), so that every array is viewed in place with its own type.

export type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

type TypedArrayType = { BYTES_PER_ELEMENT: number; new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray };

/** A section: its name, its array type, and its length (in elements) from the file's counts. */
export type Section<Counts, Name extends string = string> = readonly [name: Name, type: TypedArrayType, length: (c: Counts) => number];

// Not `(x + 7) & ~7`: offsets pass 2^31 in files of more than 2 GiB.
const align8 = (x: number): number => Math.ceil(x / 8) * 8;

/** Where each section starts and the file's total size, for the counts a header declares. */
export function sectionLayout<C>(sections: readonly Section<C>[], headerBytes: number, counts: C): { offsets: number[]; total: number } {
  let at = headerBytes;
  const offsets: number[] = [];
  for (const [, type, length] of sections) {
    offsets.push(at);
    at = align8(at + length(counts) * type.BYTES_PER_ELEMENT);
  }
  return { offsets, total: at };
}

/** Each section of `bytes` (a file laid out by sectionLayout) as a typed array over the same memory, by name. */
export function viewSections<C>(
  bytes: Uint8Array,
  sections: readonly Section<C>[],
  offsets: number[],
  counts: C,
): Record<string, TypedArray> {
  const views: Record<string, TypedArray> = {};
  sections.forEach(([name, type, length], i) => {
    views[name] = new type(bytes.buffer, bytes.byteOffset + offsets[i]!, length(counts));
  });
  return views;
}

// Typed arrays use the machine's byte order and the files are little-endian: refuse big-endian hosts.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function assertLittleEndian(what: string): void {
  if (!LITTLE_ENDIAN) throw new Error(`${what} need a little-endian machine`);
}
