// A region's places and their word index as one binary file (places.bin), viewed in place: the server reads it
// once into the shared routing memory and every worker searches the same bytes, making no object per place until
// a result is asked for. Byte layout: data/region/README.md. Encoding and decoding live only here.
//
// Search: every word of the query (lower case, accents removed) must be a prefix of a word of the place's name,
// street or house number. Words are sorted by their UTF-8 bytes, so a prefix is found by a binary search over
// the bytes themselves (UTF-8 keeps code point order and a string prefix is a byte prefix).
import { assertLittleEndian, type Section, sectionLayout, viewSections } from './file-sections.js';
import { RegionInputError } from './region-error.js';
import type { Place } from './places.js';
import { PLACE_KINDS, type PlaceKind } from '../../contracts/region-lookup.js';

export const PLACE_MAGIC = 'CAIRNPL\0';
export const PLACE_FILE_VERSION = 1;
export const PLACE_HEADER_BYTES = 64;

/** Lower case, accents removed, split on anything but letters and digits. */
export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export interface PlaceSearchOptions {
  limit?: number; // default 10
  kinds?: readonly PlaceKind[];
}

/** A place matching a query, and how its name matches: 0 the whole name, 1 the name's start, 2 elsewhere. */
export interface PlaceMatch {
  id: number;
  match: 0 | 1 | 2;
}

const KIND_RANK: Readonly<Record<PlaceKind, number>> = {
  town: 0,
  village: 0,
  peak: 1,
  alpine_hut: 1,
  wilderness_hut: 1,
  hamlet: 2,
  shelter: 2,
  viewpoint: 3,
  address: 4,
};

interface Counts {
  n: number; // places
  words: number;
  postings: number;
  textBytes: number;
  wordBytes: number;
}

interface Sections {
  osmId: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
  /** NaN: none. */
  ele: Float64Array;
  /** NaN: none. */
  eleTag: Float64Array;
  /** Per place, 4 strings in `text`: name, street, house number, normalized name; string j ends where j + 1 starts. */
  textStart: Uint32Array;
  /** The name's length in UTF-16 units (the ranking's "shorter names first"). */
  nameLength: Uint32Array;
  /** Word k is words[wordStart[k] … wordStart[k + 1]); its places are postings[postingStart[k] … postingStart[k + 1]). */
  wordStart: Uint32Array;
  postingStart: Uint32Array;
  postings: Uint32Array;
  /** Index into PLACE_KINDS (its order is part of this format: a change to it bumps PLACE_FILE_VERSION). */
  kind: Uint8Array;
  /** PlaceFlag bits. */
  flags: Uint8Array;
  text: Uint8Array;
  words: Uint8Array;
}

const PlaceFlag = { Way: 1, NoStreet: 2, NoHouseNumber: 4 } as const;

/** Section order in the file; every section starts at a multiple of 8 bytes. */
const SECTIONS: readonly Section<Counts, keyof Sections>[] = [
  ['osmId', Float64Array, (c) => c.n],
  ['lon', Float64Array, (c) => c.n],
  ['lat', Float64Array, (c) => c.n],
  ['ele', Float64Array, (c) => c.n],
  ['eleTag', Float64Array, (c) => c.n],
  ['textStart', Uint32Array, (c) => 4 * c.n + 1],
  ['nameLength', Uint32Array, (c) => c.n],
  ['wordStart', Uint32Array, (c) => c.words + 1],
  ['postingStart', Uint32Array, (c) => c.words + 1],
  ['postings', Uint32Array, (c) => c.postings],
  ['kind', Uint8Array, (c) => c.n],
  ['flags', Uint8Array, (c) => c.n],
  ['text', Uint8Array, (c) => c.textBytes],
  ['words', Uint8Array, (c) => c.wordBytes],
];

const layout = (c: Counts) => sectionLayout(SECTIONS, PLACE_HEADER_BYTES, c);

/** places.bin's bytes for `places` (place i has id i). */
export function encodePlaceFile(places: readonly Place[]): Uint8Array {
  assertLittleEndian('region place files');
  const n = places.length;
  const utf8 = new TextEncoder();
  const strings: Uint8Array[] = [];
  const byWord = new Map<string, number[]>();
  for (const [i, p] of places.entries()) {
    if (p.id !== i) throw new TypeError(`place ${i} has id ${p.id}: a place's id is its index`);
    const nameWords = normalizeWords(p.name);
    for (const s of [p.name, p.street ?? '', p.houseNumber ?? '', nameWords.join(' ')]) strings.push(utf8.encode(s));
    for (const w of new Set([...nameWords, ...normalizeWords(p.street ?? ''), ...normalizeWords(p.houseNumber ?? '')])) {
      let ids = byWord.get(w);
      if (!ids) byWord.set(w, (ids = []));
      ids.push(i);
    }
  }
  const words = [...byWord.keys()].map((w) => ({ w, bytes: Buffer.from(w, 'utf8') })).sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const c: Counts = {
    n,
    words: words.length,
    postings: [...byWord.values()].reduce((s, ids) => s + ids.length, 0),
    textBytes: strings.reduce((s, b) => s + b.byteLength, 0),
    wordBytes: words.reduce((s, w) => s + w.bytes.byteLength, 0),
  };
  const { offsets, total } = layout(c);
  const out = new Uint8Array(total);
  const v = sectionsOf(out, offsets, c);
  out.set(utf8.encode(PLACE_MAGIC), 0);
  const dv = new DataView(out.buffer);
  for (const [i, x] of [PLACE_FILE_VERSION, PLACE_HEADER_BYTES, c.n, c.words, c.postings, c.textBytes, c.wordBytes, total].entries()) {
    dv.setUint32(8 + 4 * i, x, true);
  }
  let at = 0;
  for (const [j, s] of strings.entries()) {
    v.textStart[j] = at;
    v.text.set(s, at);
    at += s.byteLength;
  }
  v.textStart[4 * n] = at;
  for (const [i, p] of places.entries()) {
    v.osmId[i] = p.osmId;
    v.lon[i] = p.lon;
    v.lat[i] = p.lat;
    v.ele[i] = p.ele ?? Number.NaN;
    v.eleTag[i] = p.eleTag ?? Number.NaN;
    v.nameLength[i] = p.name.length;
    const kind = PLACE_KINDS.indexOf(p.kind);
    if (kind < 0) throw new TypeError(`place ${i} has an unknown kind ${p.kind}`);
    v.kind[i] = kind;
    v.flags[i] =
      (p.osmType === 'way' ? PlaceFlag.Way : 0) |
      (p.street === null ? PlaceFlag.NoStreet : 0) |
      (p.houseNumber === null ? PlaceFlag.NoHouseNumber : 0);
  }
  let wordAt = 0;
  let postingAt = 0;
  for (const [k, { w, bytes }] of words.entries()) {
    v.wordStart[k] = wordAt;
    v.words.set(bytes, wordAt);
    wordAt += bytes.byteLength;
    v.postingStart[k] = postingAt;
    const ids = byWord.get(w)!;
    v.postings.set(ids, postingAt);
    postingAt += ids.length;
  }
  v.wordStart[c.words] = wordAt;
  v.postingStart[c.words] = postingAt;
  return out;
}

function sectionsOf(bytes: Uint8Array, offsets: number[], c: Counts): Sections {
  return viewSections(bytes, SECTIONS, offsets, c) as unknown as Sections;
}

/**
 * Checks the header of a place file of `fileSize` bytes (`header` holds at least its first PLACE_HEADER_BYTES) and
 * returns the counts and section layout it declares; RegionInputError on a wrong magic, version or size. Reading
 * only the header is enough to tell a region folder is usable (checkRegionFolder).
 */
export function readPlaceHeader(header: Uint8Array, fileSize: number, what = 'place file') {
  if (header.byteLength < PLACE_HEADER_BYTES || fileSize < PLACE_HEADER_BYTES) {
    throw new RegionInputError(`${what} is too short to be a place file`);
  }
  if (Buffer.from(header.buffer, header.byteOffset, 8).toString('latin1') !== PLACE_MAGIC) {
    throw new RegionInputError(`${what} is not a Cairn place file (bad magic)`);
  }
  const dv = new DataView(header.buffer, header.byteOffset, PLACE_HEADER_BYTES);
  const u = (i: number): number => dv.getUint32(8 + 4 * i, true);
  if (u(0) !== PLACE_FILE_VERSION) {
    throw new RegionInputError(`${what} has format version ${u(0)}; this build reads ${PLACE_FILE_VERSION} (re-import)`);
  }
  const counts: Counts = { n: u(2), words: u(3), postings: u(4), textBytes: u(5), wordBytes: u(6) };
  const { offsets, total } = layout(counts);
  if (u(7) !== total || fileSize !== total) {
    throw new RegionInputError(`${what} is truncated or has a wrong size (${fileSize} bytes, expected ${total})`);
  }
  return { counts, offsets };
}

/**
 * The places of places.bin `input`, viewed in place (no copy when its offset is 8-aligned; a SharedArrayBuffer
 * works too). Throws RegionInputError on a wrong magic, version or size, or contents that do not fit its counts.
 */
export function decodePlaceFile(input: Uint8Array, what = 'place file'): PlaceTable {
  assertLittleEndian('region place files');
  const bytes = input.byteOffset % 8 === 0 ? input : new Uint8Array(input); // aligned copy
  const { counts: c, offsets } = readPlaceHeader(bytes, bytes.byteLength, what);
  const v = sectionsOf(bytes, offsets, c);
  // What a search indexes by must stay inside the file: a damaged one is refused here, not by a wrong answer later.
  const inside = (a: Uint32Array, limit: number) => a.every((x) => x <= limit);
  if (
    !v.kind.every((k) => k < PLACE_KINDS.length) ||
    !v.postings.every((id) => id < c.n) ||
    !inside(v.textStart, c.textBytes) ||
    !inside(v.wordStart, c.wordBytes) ||
    !inside(v.postingStart, c.postings)
  ) {
    throw new RegionInputError(`${what} is damaged (an index points outside it): re-import the region`);
  }
  return new PlaceTable(bytes, v, c);
}

/** Places made by an import or the demo region, as the table a loaded folder gives. */
export function placeTable(places: readonly Place[]): PlaceTable {
  return decodePlaceFile(encodePlaceFile(places));
}

/** A region's places: columns read by id, a Place made only when asked for, and the text search. */
export class PlaceTable {
  readonly count: number;
  private readonly text: Buffer;
  private readonly words: Buffer;

  constructor(
    /** The file's bytes (what a region folder's places.bin holds). */
    readonly bytes: Uint8Array,
    private readonly v: Sections,
    c: Counts,
  ) {
    this.count = c.n;
    this.text = Buffer.from(v.text.buffer, v.text.byteOffset, v.text.byteLength);
    this.words = Buffer.from(v.words.buffer, v.words.byteOffset, v.words.byteLength);
  }

  place(id: number): Place {
    const { v } = this;
    const flags = v.flags[id]!;
    const ele = v.ele[id]!;
    const eleTag = v.eleTag[id]!;
    return {
      id,
      osmType: flags & PlaceFlag.Way ? 'way' : 'node',
      osmId: v.osmId[id]!,
      kind: this.kind(id),
      name: this.string(id, 0),
      lon: v.lon[id]!,
      lat: v.lat[id]!,
      ele: Number.isNaN(ele) ? null : ele,
      eleTag: Number.isNaN(eleTag) ? null : eleTag,
      houseNumber: flags & PlaceFlag.NoHouseNumber ? null : this.string(id, 2),
      street: flags & PlaceFlag.NoStreet ? null : this.string(id, 1),
    };
  }

  *[Symbol.iterator](): IterableIterator<Place> {
    for (let id = 0; id < this.count; id++) yield this.place(id);
  }

  kind(id: number): PlaceKind {
    return PLACE_KINDS[this.v.kind[id]!]!;
  }
  lon(id: number): number {
    return this.v.lon[id]!;
  }
  lat(id: number): number {
    return this.v.lat[id]!;
  }
  /** The place has a name (an address may have none). */
  named(id: number): boolean {
    return this.v.textStart[4 * id + 1]! > this.v.textStart[4 * id]!;
  }

  /** The id of the place for an OpenStreetMap object, or -1. */
  find(osmType: 'node' | 'way', osmId: number): number {
    const way = osmType === 'way' ? PlaceFlag.Way : 0;
    const { osmId: ids, flags } = this.v;
    for (let id = 0; id < this.count; id++) if (ids[id] === osmId && (flags[id]! & PlaceFlag.Way) === way) return id;
    return -1;
  }

  /** Every place matching `query` (see the top of this file), in id order; none for a query without words. */
  matches(query: string): PlaceMatch[] {
    const q = normalizeWords(query);
    if (q.length === 0) return [];
    let hits = this.withWordStarting(Buffer.from(q[0]!, 'utf8'));
    for (const w of q.slice(1)) {
      const m = this.withWordStarting(Buffer.from(w, 'utf8'));
      hits = new Set([...hits].filter((id) => m.has(id)));
    }
    const joined = Buffer.from(q.join(' '), 'utf8');
    return [...hits].sort((a, b) => a - b).map((id) => ({ id, match: this.nameMatch(id, joined) }));
  }

  /**
   * Places matching `query`, ranked: the exact name, then a name starting with it, then the rest; peaks, huts
   * and settlements before addresses; shorter names first; then id (stable).
   */
  search(query: string, options: PlaceSearchOptions = {}): Place[] {
    const kinds = options.kinds ? new Set(options.kinds) : null;
    const { nameLength } = this.v;
    return this.matches(query)
      .filter(({ id }) => kinds === null || kinds.has(this.kind(id)))
      .sort(
        (a, b) =>
          a.match - b.match ||
          KIND_RANK[this.kind(a.id)] - KIND_RANK[this.kind(b.id)] ||
          nameLength[a.id]! - nameLength[b.id]! ||
          a.id - b.id,
      )
      .slice(0, options.limit ?? 10)
      .map(({ id }) => this.place(id));
  }

  /** String j (0 name, 1 street, 2 house number, 3 normalized name) of place `id`. */
  private string(id: number, j: number): string {
    const s = this.v.textStart;
    return this.text.toString('utf8', s[4 * id + j]!, s[4 * id + j + 1]!);
  }

  /** How the normalized name of `id` matches the normalized query `q`. */
  private nameMatch(id: number, q: Buffer): 0 | 1 | 2 {
    const s = this.v.textStart;
    const start = s[4 * id + 3]!;
    const length = s[4 * id + 4]! - start;
    if (length < q.byteLength || this.text.compare(q, 0, q.byteLength, start, start + q.byteLength) !== 0) return 2;
    return length === q.byteLength ? 0 : 1;
  }

  /** The places with a word starting with `prefix`. */
  private withWordStarting(prefix: Buffer): Set<number> {
    const { wordStart, postingStart, postings } = this.v;
    const count = wordStart.length - 1;
    const cmp = (k: number, end: number) => this.words.compare(prefix, 0, prefix.byteLength, wordStart[k]!, end);
    // The first word not below the prefix.
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(mid, wordStart[mid + 1]!) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out = new Set<number>();
    for (let k = lo; k < count; k++) {
      const start = wordStart[k]!;
      if (wordStart[k + 1]! - start < prefix.byteLength || cmp(k, start + prefix.byteLength) !== 0) break;
      for (let p = postingStart[k]!; p < postingStart[k + 1]!; p++) out.add(postings[p]!);
    }
    return out;
  }
}
