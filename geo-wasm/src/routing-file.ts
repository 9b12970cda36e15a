// The prepared-routing file (routing.bin): named typed-array sections, little-endian, each starting on an 8-byte
// boundary, and their table after the last one, so loading it is reading the bytes and making views, and writing it
// is appending each section as it is made (data/region/README.md has the layout).
// This module holds the container and the kernel's own sections (core graph, profiles, hierarchies); what the
// route engine adds per activity is written by workers/routing-prep.ts with the same container.
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { Hierarchy, UpGraph } from './routing-ch.js';
import type { PreparedCore, PreparedMask, PreparedProfile } from './routing-prepare.js';

export const ROUTING_FILE_MAGIC = 'CAIRNRT\0';
/** Version of the routing.bin layout; bumped on any change of the container or of a section's meaning. */
export const ROUTING_FILE_VERSION = 6;
export const ROUTING_HEADER_BYTES = 64;
const TOC_ENTRY_BYTES = 64;
const NAME_BYTES = 40;

export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
/** Sections by name, in file order. */
export type Sections = Map<string, SectionArray>;

const TYPES = [Uint8Array, Uint16Array, Uint32Array, Int32Array, Float32Array, Float64Array] as const;
type SectionCtor = (typeof TYPES)[number];
const typeCode = (a: SectionArray): number => TYPES.findIndex((C) => a instanceof C) + 1;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const align8 = (x: number): number => (x + 7) & ~7;

/** Thrown when bytes are not a routing file this build reads (another version, truncated, corrupt). */
export class RoutingFileError extends Error {}

/** A section as the table of contents describes it. */
interface TocEntry {
  name: string;
  type: number;
  offset: number;
  bytes: number;
}

const tocEntry = (name: string, a: SectionArray, offset: number): TocEntry => ({ name, type: typeCode(a), offset, bytes: a.byteLength });

/** The header of a file whose table of `count` entries starts at `tocOffset`, and the file's size. */
function header(count: number, tocOffset: number): { bytes: Uint8Array; size: number } {
  if (!LITTLE_ENDIAN) throw new Error('routing files need a little-endian machine');
  const size = tocOffset + count * TOC_ENTRY_BYTES;
  const bytes = new Uint8Array(ROUTING_HEADER_BYTES);
  const dv = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(ROUTING_FILE_MAGIC), 0);
  dv.setUint32(8, ROUTING_FILE_VERSION, true);
  dv.setUint32(12, ROUTING_HEADER_BYTES, true);
  dv.setUint32(16, count, true);
  dv.setUint32(20, TOC_ENTRY_BYTES, true);
  dv.setBigUint64(24, BigInt(size), true);
  dv.setBigUint64(32, BigInt(tocOffset), true);
  return { bytes, size };
}

/** The table of contents: per section its name, type code, byte offset and byte length. */
function toc(entries: readonly TocEntry[]): Uint8Array {
  const out = new Uint8Array(entries.length * TOC_ENTRY_BYTES);
  const dv = new DataView(out.buffer);
  const enc = new TextEncoder();
  entries.forEach(({ name, type, offset, bytes }, i) => {
    const e = i * TOC_ENTRY_BYTES;
    const encoded = enc.encode(name);
    if (encoded.length > NAME_BYTES || name.includes('\0')) throw new TypeError(`routing file: section name ${name} is too long`);
    out.set(encoded, e);
    dv.setUint32(e + NAME_BYTES, type, true);
    dv.setBigUint64(e + NAME_BYTES + 8, BigInt(offset), true);
    dv.setBigUint64(e + NAME_BYTES + 16, BigInt(bytes), true);
  });
  return out;
}

/** Where each section goes, and the file's header, table (at `tocOffset`) and size. */
function layout(sections: Sections): { head: Uint8Array; offsets: number[]; table: Uint8Array; tocOffset: number; size: number } {
  let at = ROUTING_HEADER_BYTES;
  const entries = [...sections].map(([name, a]) => {
    const entry = tocEntry(name, a, at);
    at = align8(at + a.byteLength);
    return entry;
  });
  const { bytes, size } = header(entries.length, at);
  return { head: bytes, offsets: entries.map((e) => e.offset), table: toc(entries), tocOffset: at, size };
}

const bytesOf = (a: SectionArray): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Encodes sections: a 64-byte header (magic, version, header size, section count, TOC entry size, file size, TOC
 * offset), the arrays, 8-aligned, then the table of contents (per section: name, type code, byte offset, byte length).
 */
export function encodeSections(sections: Sections): Uint8Array {
  const { head, offsets, table, tocOffset, size } = layout(sections);
  const out = new Uint8Array(size);
  out.set(head, 0);
  [...sections.values()].forEach((a, i) => out.set(bytesOf(a), offsets[i]!));
  out.set(table, tocOffset);
  return out;
}

/**
 * Writes a routing file section by section as they are made, so that the caller can let go of each once it is
 * written: the same bytes as encodeSections of the same sections in the same order. The table of contents and the
 * header are written last.
 */
export class SectionWriter {
  private readonly fd: number;
  private readonly entries: TocEntry[] = [];
  private readonly names = new Set<string>();
  private at = ROUTING_HEADER_BYTES;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  add(name: string, a: SectionArray): void {
    if (this.names.has(name)) throw new TypeError(`routing file: section ${name} written twice`);
    this.names.add(name);
    this.write(bytesOf(a), this.at);
    this.entries.push(tocEntry(name, a, this.at)); // the table of contents keeps no reference to the array
    this.at = align8(this.at + a.byteLength);
  }

  /** Writes the table of contents and the header and closes the file; returns its size. */
  finish(): number {
    try {
      const { bytes, size } = header(this.entries.length, this.at);
      this.write(toc(this.entries), this.at);
      this.write(bytes, 0);
      ftruncateSync(this.fd, size); // the padding before the table, when nothing was written after the last section
      return size;
    } finally {
      closeSync(this.fd);
    }
  }

  /** Closes the file without finishing it (the caller removes it). */
  abandon(): void {
    closeSync(this.fd);
  }

  private write(bytes: Uint8Array, at: number): void {
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(this.fd, bytes, done, bytes.byteLength - done, at + done);
  }
}

/** Writes what encodeSections returns to `path`, section by section (never the whole file in memory); returns its size. */
export function writeSections(path: string, sections: Sections): number {
  const writer = new SectionWriter(path);
  try {
    for (const [name, a] of sections) writer.add(name, a);
  } catch (e) {
    writer.abandon();
    throw e;
  }
  return writer.finish();
}

/** Views over the sections of `bytes` (no copy when bytes.byteOffset is 8-aligned; otherwise one aligned copy). */
export function decodeSections(bytes: Uint8Array): Sections {
  if (!LITTLE_ENDIAN) throw new Error('routing files need a little-endian machine');
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(bytes);
  if (bytes.byteLength < ROUTING_HEADER_BYTES) throw new RoutingFileError('shorter than its header');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder();
  if (dec.decode(bytes.subarray(0, 8)) !== ROUTING_FILE_MAGIC) throw new RoutingFileError('not a routing file');
  const version = dv.getUint32(8, true);
  if (version !== ROUTING_FILE_VERSION) throw new RoutingFileError(`file version ${version}; this build reads ${ROUTING_FILE_VERSION}`);
  const count = dv.getUint32(16, true);
  const entryBytes = dv.getUint32(20, true);
  const size = Number(dv.getBigUint64(24, true));
  const tocOffset = Number(dv.getBigUint64(32, true));
  if (size !== bytes.byteLength || entryBytes !== TOC_ENTRY_BYTES || tocOffset < ROUTING_HEADER_BYTES || tocOffset + count * entryBytes !== size) {
    throw new RoutingFileError(`truncated or corrupt (${bytes.byteLength} bytes, header says ${size})`);
  }
  const sections: Sections = new Map();
  for (let i = 0; i < count; i++) {
    const e = tocOffset + i * TOC_ENTRY_BYTES;
    const raw = bytes.subarray(e, e + NAME_BYTES);
    const end = raw.indexOf(0);
    const name = dec.decode(end < 0 ? raw : raw.subarray(0, end));
    const C: SectionCtor | undefined = TYPES[dv.getUint32(e + NAME_BYTES, true) - 1];
    const offset = Number(dv.getBigUint64(e + NAME_BYTES + 8, true));
    const length = Number(dv.getBigUint64(e + NAME_BYTES + 16, true));
    if (!C || offset % 8 !== 0 || offset < ROUTING_HEADER_BYTES || offset + length > tocOffset || length % C.BYTES_PER_ELEMENT !== 0) {
      throw new RoutingFileError(`section ${name} is corrupt`);
    }
    sections.set(name, new C(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length / C.BYTES_PER_ELEMENT));
  }
  return sections;
}

/** A section of the expected type; RoutingFileError when it is missing or of another type. */
export function section<C extends SectionCtor>(sections: Sections, name: string, type: C): InstanceType<C> {
  const a = sections.get(name);
  if (!(a instanceof type)) throw new RoutingFileError(`section ${name} is missing`);
  return a as InstanceType<C>;
}

/** The core graph's sections (graph.counts holds the node and edge counts the file was made for). */
export function coreSections(core: PreparedCore, nodeCount: number, edgeCount: number, out: Sections = new Map()): Sections {
  const g = core.grid;
  out.set('graph.counts', new Float64Array([nodeCount, edgeCount]));
  out.set('core.target', core.target);
  out.set('core.source', core.source);
  out.set('core.twin', core.twin);
  out.set('core.chainEdge', core.chainEdge);
  out.set('grid.params', new Float64Array([g.w, g.h, g.west, g.south, g.cellDeg]));
  out.set('grid.cellStart', g.cellStart);
  out.set('grid.cellItems', g.cellItems);
  return out;
}

/**
 * The core graph from its sections, its starts being the graph's `towerFirst`; RoutingFileError when they were made
 * for another graph.
 */
export function coreFromSections(s: Sections, nodeCount: number, edgeCount: number, towerFirst: Uint32Array): PreparedCore {
  const counts = section(s, 'graph.counts', Float64Array);
  if (counts[0] !== nodeCount || counts[1] !== edgeCount) {
    throw new RoutingFileError(`made for a graph of ${counts[0]} nodes and ${counts[1]} edges, not ${nodeCount} and ${edgeCount}`);
  }
  const u32 = (name: string) => section(s, name, Uint32Array);
  const gp = section(s, 'grid.params', Float64Array);
  return {
    first: towerFirst,
    target: u32('core.target'),
    source: u32('core.source'),
    twin: u32('core.twin'),
    chainEdge: u32('core.chainEdge'),
    grid: { w: gp[0]!, h: gp[1]!, west: gp[2]!, south: gp[3]!, cellDeg: gp[4]!, cellStart: u32('grid.cellStart'), cellItems: u32('grid.cellItems') },
  };
}

/** A profile's sections under `prefix` (e.g. `p0`). */
export function profileSections(prefix: string, p: PreparedProfile, out: Sections): Sections {
  out.set(`${prefix}.open`, p.open);
  out.set(`${prefix}.coreCost`, p.coreCost);
  out.set(`${prefix}.coreHazard`, p.coreHazard);
  out.set(`${prefix}.component`, p.component);
  return out;
}

export function profileFromSections(s: Sections, prefix: string): PreparedProfile {
  return {
    open: section(s, `${prefix}.open`, Uint32Array),
    coreCost: section(s, `${prefix}.coreCost`, Float32Array),
    coreHazard: section(s, `${prefix}.coreHazard`, Uint8Array),
    component: section(s, `${prefix}.component`, Int32Array),
  };
}

/** One mask's sections under `prefix` (e.g. `p0.m3`); mask 0's components are the profile's own and not repeated. */
export function maskSections(prefix: string, mask: number, m: PreparedMask, out: Sections): Sections {
  const h = m.hierarchy;
  out.set(`${prefix}.ch`, new Float64Array([h.nodeCount, h.shortcuts]));
  out.set(`${prefix}.middle`, h.middle);
  for (const [side, g] of [['fwd', h.forward] as const, ['bwd', h.backward] as const]) {
    out.set(`${prefix}.${side}.first`, g.first);
    out.set(`${prefix}.${side}.target`, g.target);
    out.set(`${prefix}.${side}.weight`, g.weight);
  }
  if (mask !== 0) out.set(`${prefix}.component`, m.component);
  return out;
}

export function maskFromSections(s: Sections, prefix: string, mask: number, profile: PreparedProfile): PreparedMask {
  const up = (side: string): UpGraph => ({
    first: section(s, `${prefix}.${side}.first`, Uint32Array),
    target: section(s, `${prefix}.${side}.target`, Uint32Array),
    weight: section(s, `${prefix}.${side}.weight`, Float32Array),
  });
  const ch = section(s, `${prefix}.ch`, Float64Array);
  const hierarchy: Hierarchy = {
    nodeCount: ch[0]!,
    shortcuts: ch[1]!,
    middle: section(s, `${prefix}.middle`, Int32Array),
    forward: up('fwd'),
    backward: up('bwd'),
  };
  return { hierarchy, component: mask === 0 ? profile.component : section(s, `${prefix}.component`, Int32Array) };
}
