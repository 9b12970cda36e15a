// The binary graph file (graph.bin): header + 8-byte-aligned little-endian arrays, read zero-copy.
// Byte layout: data/region/README.md. Encoding and decoding live only here.
import { closeSync, openSync, writeSync } from 'node:fs';
import { assertLittleEndian, type Section, sectionLayout, type TypedArray, viewSections } from './file-sections.js';
import { RegionInputError } from './region-error.js';
import type { RegionGraph } from './region-graph.js';

export const GRAPH_MAGIC = 'CAIRNRG\0';
export const GRAPH_FILE_VERSION = 4;
export const GRAPH_HEADER_BYTES = 128;

/** The graph's typed arrays: a section each. */
type GraphArrays = Omit<RegionGraph, 'nodeCount' | 'edgeCount' | 'towerCount' | 'chainCount' | 'bbox' | 'wayName' | 'surfaces'>;

interface Counts {
  n: number; // nodes
  e: number; // edges
  t: number; // towers
  k: number; // chains
  w: number; // ways
  strings: number; // bytes of the UTF-8 JSON string table
}

/** Array order in the file; every section starts at a multiple of 8 bytes. */
const SECTIONS: readonly Section<Counts>[] = [
  ['wayOsmId', Float64Array, (c) => c.w],
  ['nodeLonE7', Int32Array, (c) => c.n],
  ['nodeLatE7', Int32Array, (c) => c.n],
  ['nodeEle', Float32Array, (c) => c.n],
  ['towerFirst', Uint32Array, (c) => c.t + 1],
  ['towerChains', Uint32Array, (c) => 2 * c.k],
  ['chainFrom', Uint32Array, (c) => c.k],
  ['chainTo', Uint32Array, (c) => c.k],
  ['pieceStart', Uint32Array, (c) => c.k + 1],
  ['pieceWay', Uint32Array, (c) => c.e / 2],
  ['wayAccess', Uint16Array, (c) => c.w],
  ['wayHighway', Uint8Array, (c) => c.w],
  ['waySurface', Uint8Array, (c) => c.w],
  ['waySac', Uint8Array, (c) => c.w],
  ['wayFlags', Uint8Array, (c) => c.w],
  ['strings', Uint8Array, (c) => c.strings],
];

const layout = (c: Counts) => sectionLayout(SECTIONS, GRAPH_HEADER_BYTES, c);

/** The header and each section's bytes and offset: what both encoders write. */
function graphParts(g: RegionGraph): { header: Uint8Array; sections: Array<[offset: number, bytes: Uint8Array]>; total: number } {
  assertLittleEndian('region graph files');
  const strings = new TextEncoder().encode(JSON.stringify({ wayName: g.wayName, surfaces: g.surfaces }));
  const c: Counts = {
    n: g.nodeCount,
    e: g.edgeCount,
    t: g.towerCount,
    k: g.chainCount,
    w: g.wayOsmId.length,
    strings: strings.byteLength,
  };
  const { offsets, total } = layout(c);
  if (total > 2 ** 32 - 1) throw new RangeError(`Invalid typed array length: graph.bin would take ${total} bytes (at most 4 GiB)`);
  const header = new Uint8Array(GRAPH_HEADER_BYTES);
  const dv = new DataView(header.buffer);
  header.set(new TextEncoder().encode(GRAPH_MAGIC), 0);
  const u32 = [GRAPH_FILE_VERSION, GRAPH_HEADER_BYTES, c.n, c.e, c.w, c.strings, c.t, c.k];
  for (const [i, v] of u32.entries()) dv.setUint32(8 + 4 * i, v, true);
  dv.setUint32(44, total, true);
  for (const [i, v] of g.bbox.entries()) dv.setFloat64(48 + 8 * i, v, true);
  const arrays: Record<string, TypedArray> = { ...(g as unknown as Record<string, TypedArray>), strings };
  const sections = SECTIONS.map(([name, ctor, len], i): [number, Uint8Array] => {
    const a = arrays[name];
    if (!a || a.length !== len(c) || a.BYTES_PER_ELEMENT !== ctor.BYTES_PER_ELEMENT) {
      throw new TypeError(`graph array ${name} has the wrong type or length`);
    }
    return [offsets[i]!, new Uint8Array(a.buffer, a.byteOffset, a.byteLength)];
  });
  return { header, sections, total };
}

/** Serializes the graph into one buffer (owned by the caller). */
export function encodeGraphFile(g: RegionGraph): Uint8Array {
  const { header, sections, total } = graphParts(g);
  const out = new Uint8Array(total);
  out.set(header, 0);
  for (const [offset, bytes] of sections) out.set(bytes, offset);
  return out;
}

/**
 * Writes the same bytes as encodeGraphFile to `path`, section by section, without a copy of the whole file
 * in memory (a country's graph is hundreds of MB). Returns the file's size.
 */
export function writeGraphFile(path: string, g: RegionGraph): number {
  const { header, sections, total } = graphParts(g);
  const fd = openSync(path, 'w');
  try {
    const zeros = new Uint8Array(8);
    let at = 0;
    const write = (bytes: Uint8Array): void => {
      let done = 0;
      while (done < bytes.byteLength) done += writeSync(fd, bytes, done, Math.min(bytes.byteLength - done, 1 << 26));
      at += bytes.byteLength;
    };
    write(header);
    for (const [offset, bytes] of sections) {
      if (offset > at) write(zeros.subarray(0, offset - at));
      write(bytes);
    }
    if (total > at) write(zeros.subarray(0, total - at));
  } finally {
    closeSync(fd);
  }
  return total;
}

/**
 * Checks the header of a graph file of `fileSize` bytes (`header` holds at least its first
 * GRAPH_HEADER_BYTES) and returns the counts and section layout it declares. Throws RegionInputError on a
 * wrong magic, version or size. Reading only the header is enough to tell a region folder is usable.
 */
export function readGraphHeader(header: Uint8Array, fileSize: number, what = 'graph file') {
  if (header.byteLength < GRAPH_HEADER_BYTES || fileSize < GRAPH_HEADER_BYTES) {
    throw new RegionInputError(`${what} is too short to be a region graph`);
  }
  const magic = new TextDecoder().decode(header.subarray(0, 8));
  if (magic !== GRAPH_MAGIC) throw new RegionInputError(`${what} is not a Cairn region graph (bad magic)`);
  const dv = new DataView(header.buffer, header.byteOffset, GRAPH_HEADER_BYTES);
  const u = (i: number): number => dv.getUint32(8 + 4 * i, true);
  const version = u(0);
  if (version !== GRAPH_FILE_VERSION) {
    throw new RegionInputError(`${what} has format version ${version}; this build reads ${GRAPH_FILE_VERSION} (re-import)`);
  }
  const counts: Counts = { n: u(2), e: u(3), w: u(4), strings: u(5), t: u(6), k: u(7) };
  if (counts.e % 2 !== 0 || counts.t > counts.n || counts.k > counts.e / 2) throw new RegionInputError(`${what} has inconsistent counts`);
  const { offsets, total } = layout(counts);
  if (dv.getUint32(44, true) !== total || fileSize !== total) {
    throw new RegionInputError(`${what} is truncated or has a wrong size (${fileSize} bytes, expected ${total})`);
  }
  return { counts, offsets };
}

/**
 * Views over `bytes` (no copy when bytes.byteOffset is 8-aligned; otherwise one aligned copy).
 * The returned arrays share memory with `bytes` (a SharedArrayBuffer works too).
 * Throws RegionInputError on a wrong magic, version or size.
 */
export function decodeGraphFile(input: Uint8Array, what = 'graph file'): RegionGraph {
  assertLittleEndian('region graph files');
  let bytes = input;
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(bytes); // aligned copy
  const { counts: c, offsets } = readGraphHeader(bytes, bytes.byteLength, what);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = viewSections(bytes, SECTIONS, offsets, c);
  const table = JSON.parse(new TextDecoder().decode(v.strings)) as { wayName: string[]; surfaces: string[] };
  const f64 = (i: number): number => dv.getFloat64(i, true);
  const { strings: _, ...arrays } = v; // every other section is the RegionGraph array of its name
  return {
    ...(arrays as unknown as GraphArrays),
    nodeCount: c.n,
    edgeCount: c.e,
    towerCount: c.t,
    chainCount: c.k,
    bbox: [f64(48), f64(56), f64(64), f64(72)],
    wayName: table.wayName,
    surfaces: table.surfaces,
  };
}
