// Decoding of OSM PBF blobs into compact typed arrays, for the streaming import. Runs in the import's
// worker threads (pbf-worker.ts) or, without them, in the importing thread. No object per node is made:
// pass 1 (`scanBlock`) keeps routable ways, place objects and hiking relations; pass 2 (`locateNodes`)
// writes the positions of the needed nodes into shared arrays. Format: the OSM wiki's PBF Format page.
import { closeSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import Pbf from 'pbf';
import { bikeOneway, packedAccess, routableHighway, sacScale, type Tags, wayFlags } from './osm-tags.js';
import { placeKind } from './places.js';

/** Marks an error raised by bytes that are not valid PBF, so the importer can tell it from a lack of memory. */
export const CORRUPT_MARK = 'PBF_CORRUPT: ';

export class PbfCorruptError extends Error {
  constructor(message: string) {
    super(`${CORRUPT_MARK}${message}`);
  }
}

/** Routable ways of one block (or of a whole extract): ids, node ids and the per-way attributes the graph keeps. */
export interface WayBatch {
  id: Float64Array;
  /** refs of way i are refs[refStart[i] .. refStart[i+1]-1]. */
  refStart: Uint32Array;
  refs: Float64Array;
  highway: Uint8Array;
  sac: Uint8Array;
  flags: Uint8Array;
  access: Uint16Array;
  oneway: Int8Array;
  name: string[];
  surface: string[];
}

/** Ways kept for the places list (their position is the mean of their nodes). */
export interface PlaceWayBatch {
  id: Float64Array;
  refStart: Uint32Array;
  refs: Float64Array;
  tags: Tags[];
}

/** Nodes kept for the places list, with their position. */
export interface PlaceNodeBatch {
  id: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
  tags: Tags[];
}

export interface RouteRelation {
  id: number;
  tags: Tags;
  /** Ids of the members of type way, in member order. */
  wayIds: number[];
}

/** What pass 1 keeps of one block. */
export interface ScanResult {
  nodes: number;
  ways: number;
  relations: number;
  /** Smallest and largest node id of the block (NaN when it has none): pass 2 skips blocks no needed id falls in. */
  minNodeId: number;
  maxNodeId: number;
  routable: WayBatch;
  placeWays: PlaceWayBatch;
  placeNodes: PlaceNodeBatch;
  routes: RouteRelation[];
}

const fds = new Map<string, number>();

/** Reads `size` bytes at `offset` of `path` (the file stays open for the thread's next blob). */
export function readBlob(path: string, offset: number, size: number): Uint8Array {
  let fd = fds.get(path);
  if (fd === undefined) {
    fd = openSync(path, 'r');
    fds.set(path, fd);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, offset + at);
    if (n === 0) throw new PbfCorruptError(`unexpected end of file at byte ${offset + at}`);
    at += n;
  }
  return bytes;
}

/** Closes the files readBlob opened in this thread. */
export function closeBlobFiles(): void {
  for (const fd of fds.values()) closeSync(fd);
  fds.clear();
}

/** The uncompressed content of a Blob message (raw or zlib). */
export function inflateBlob(bytes: Uint8Array): Uint8Array {
  const pbf = new Pbf(bytes);
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let other = 0;
  try {
    while (pbf.pos < pbf.length) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      if (tag === 1) raw = pbf.readBytes();
      else if (tag === 3) zlib = pbf.readBytes();
      else if (tag >= 4 && tag <= 7) {
        other = tag;
        pbf.skip(val);
      } else pbf.skip(val);
    }
  } catch (e) {
    throw new PbfCorruptError(`bad blob: ${(e as Error).message}`);
  }
  if (raw) return raw;
  if (zlib) {
    try {
      return inflateSync(zlib);
    } catch (e) {
      throw new PbfCorruptError(`bad zlib data: ${(e as Error).message}`);
    }
  }
  if (other) {
    const name = ['lzma', 'bzip2', 'lz4', 'zstd'][other - 4];
    throw new Error(`a blob is compressed with ${name}, which this import does not read (recompress the file with zlib)`);
  }
  throw new PbfCorruptError('empty blob');
}

/** The replication timestamp (seconds) of a HeaderBlock, or 0. */
export function headerTimestamp(block: Uint8Array): number {
  const pbf = new Pbf(block);
  let ts = 0;
  while (pbf.pos < pbf.length) {
    const val = pbf.readVarint();
    if (val >> 3 === 32) ts = pbf.readVarint(true);
    else pbf.skip(val);
  }
  return ts;
}

/** Keys whose presence makes a node or way worth turning into a tags object (place kinds, highways, routes). */
const PLACE_KEYS = new Set(['natural', 'tourism', 'amenity', 'place', 'addr:housenumber']);
const WAY_KEYS = new Set([...PLACE_KEYS, 'highway']);

class Growable {
  a: Float64Array;
  n = 0;
  constructor(cap = 1024) {
    this.a = new Float64Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Float64Array {
    return this.a.slice(0, this.n);
  }
}

interface Block {
  strings: string[];
  /** 1 where the string is a key of WAY_KEYS, 2 where also of PLACE_KEYS, 4 for `route`. */
  keyKind: Uint8Array;
  granularity: number;
  latOffset: number;
  lonOffset: number;
  groups: Array<[start: number, end: number]>;
}

/** Reads the string table, scale and group positions of a PrimitiveBlock (groups are decoded later). */
function readBlock(pbf: Pbf, wantStrings: boolean): Block {
  const strings: string[] = [];
  const groups: Array<[number, number]> = [];
  let granularity = 100;
  let latOffset = 0;
  let lonOffset = 0;
  const decoder = new TextDecoder();
  while (pbf.pos < pbf.length) {
    const val = pbf.readVarint();
    const tag = val >> 3;
    if (tag === 1 && wantStrings) {
      const end = pbf.readVarint() + pbf.pos;
      while (pbf.pos < end) {
        const v = pbf.readVarint();
        if (v >> 3 === 1) {
          const len = pbf.readVarint();
          strings.push(decoder.decode(pbf.buf.subarray(pbf.pos, pbf.pos + len)));
          pbf.pos += len;
        } else pbf.skip(v);
      }
    } else if (tag === 2) {
      const len = pbf.readVarint();
      groups.push([pbf.pos, pbf.pos + len]);
      pbf.pos += len;
    } else if (tag === 17) granularity = pbf.readVarint();
    else if (tag === 19) latOffset = pbf.readVarint(true);
    else if (tag === 20) lonOffset = pbf.readVarint(true);
    else pbf.skip(val);
  }
  if (pbf.pos > pbf.length) throw new Error('block overruns its end');
  const keyKind = new Uint8Array(strings.length);
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i]!;
    if (WAY_KEYS.has(s)) keyKind[i] = PLACE_KEYS.has(s) ? 3 : 1;
    else if (s === 'route') keyKind[i] = 4;
  }
  // The same arithmetic as osm-pbf-parser-node, so positions are the same doubles as before.
  return {
    strings,
    keyKind,
    granularity: !granularity || granularity === 100 ? 1e7 : 1e9 / granularity,
    latOffset: latOffset * 1e-9,
    lonOffset: lonOffset * 1e-9,
    groups,
  };
}

/** Reads a packed (or single unpacked) varint field into `out`. */
function readPacked(pbf: Pbf, val: number, out: number[], signed: boolean): void {
  if ((val & 7) === 2) {
    const end = pbf.readVarint() + pbf.pos;
    if (signed) while (pbf.pos < end) out.push(pbf.readSVarint());
    else while (pbf.pos < end) out.push(pbf.readVarint());
  } else out.push(signed ? pbf.readSVarint() : pbf.readVarint());
}

function tagsOf(b: Block, keys: number[], vals: number[]): Tags {
  const tags: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) tags[b.strings[keys[i]!]!] = b.strings[vals[i]!]!;
  return tags;
}

function wants(b: Block, keys: number[], mask: number): boolean {
  for (const k of keys) if (b.keyKind[k]! & mask) return true;
  return false;
}

/** Pass 1 over one decompressed PrimitiveBlock: counts everything, keeps what the region needs. */
export function scanBlock(buf: Uint8Array): ScanResult {
  try {
    return scanBlockUnchecked(buf);
  } catch (e) {
    if (e instanceof RangeError && /allocation|memory/i.test(e.message)) throw e;
    throw new PbfCorruptError(`bad data block: ${(e as Error).message}`);
  }
}

function scanBlockUnchecked(buf: Uint8Array): ScanResult {
  const pbf = new Pbf(buf);
  const b = readBlock(pbf, true);
  const r: ScanResult = { nodes: 0, ways: 0, relations: 0, minNodeId: Number.NaN, maxNodeId: Number.NaN } as ScanResult;
  const rwId = new Growable(256);
  const rwRefs = new Growable(4096);
  const rwStart: number[] = [0];
  const rwHighway: number[] = [];
  const rwSac: number[] = [];
  const rwFlags: number[] = [];
  const rwAccess: number[] = [];
  const rwOneway: number[] = [];
  const rwName: string[] = [];
  const rwSurface: string[] = [];
  const pwId = new Growable(16);
  const pwRefs = new Growable(256);
  const pwStart: number[] = [0];
  const pwTags: Tags[] = [];
  const pnId = new Growable(16);
  const pnLon = new Growable(16);
  const pnLat = new Growable(16);
  const pnTags: Tags[] = [];
  const routes: RouteRelation[] = [];
  let minId = Number.POSITIVE_INFINITY;
  let maxId = Number.NEGATIVE_INFINITY;

  const node = (id: number, lat: number, lon: number, tags: Tags | null): void => {
    r.nodes++;
    if (id < minId) minId = id;
    if (id > maxId) maxId = id;
    if (tags && placeKind(tags) !== null) {
      pnId.push(id);
      pnLon.push(b.lonOffset + lon / b.granularity);
      pnLat.push(b.latOffset + lat / b.granularity);
      pnTags.push(tags);
    }
  };

  const keys: number[] = [];
  const vals: number[] = [];
  const refs: number[] = [];
  const ids: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  const kv: number[] = [];
  const types: number[] = [];
  for (const [start, end] of b.groups) {
    pbf.pos = start;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      const len = pbf.readVarint();
      const stop = pbf.pos + len;
      if (tag === 1) {
        // Node
        keys.length = 0;
        vals.length = 0;
        let id = 0;
        let lat = 0;
        let lon = 0;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if (t === 1) id = pbf.readSVarint();
          else if (t === 2) readPacked(pbf, v, keys, false);
          else if (t === 3) readPacked(pbf, v, vals, false);
          else if (t === 8) lat = pbf.readSVarint();
          else if (t === 9) lon = pbf.readSVarint();
          else pbf.skip(v);
        }
        node(id, lat, lon, wants(b, keys, 2) ? tagsOf(b, keys, vals) : null);
      } else if (tag === 2) {
        // DenseNodes
        ids.length = 0;
        lats.length = 0;
        lons.length = 0;
        kv.length = 0;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if (t === 1) readPacked(pbf, v, ids, true);
          else if (t === 8) readPacked(pbf, v, lats, true);
          else if (t === 9) readPacked(pbf, v, lons, true);
          else if (t === 10) readPacked(pbf, v, kv, false);
          else pbf.skip(v);
        }
        if (lats.length !== ids.length || lons.length !== ids.length) throw new Error('dense node arrays differ in length');
        let id = 0;
        let lat = 0;
        let lon = 0;
        let j = 0;
        for (let i = 0; i < ids.length; i++) {
          id += ids[i]!;
          lat += lats[i]!;
          lon += lons[i]!;
          let tags: Tags | null = null;
          if (kv.length > 0) {
            let wanted = false;
            const from = j;
            while (j < kv.length && kv[j] !== 0) {
              if (b.keyKind[kv[j]!]! & 2) wanted = true;
              j += 2;
            }
            if (wanted) {
              const t: Record<string, string> = {};
              for (let k = from; k < j; k += 2) t[b.strings[kv[k]!]!] = b.strings[kv[k + 1]!]!;
              tags = t;
            }
            j++;
          }
          node(id, lat, lon, tags);
        }
      } else if (tag === 3) {
        // Way
        r.ways++;
        keys.length = 0;
        vals.length = 0;
        refs.length = 0;
        let id = 0;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if (t === 1) id = pbf.readVarint(true);
          else if (t === 2) readPacked(pbf, v, keys, false);
          else if (t === 3) readPacked(pbf, v, vals, false);
          else if (t === 8) readPacked(pbf, v, refs, true);
          else pbf.skip(v);
        }
        if (!wants(b, keys, 1)) continue;
        if (keys.length !== vals.length) throw new Error('way keys and values differ in length');
        const tags = tagsOf(b, keys, vals);
        const hw = routableHighway(tags);
        const place = placeKind(tags) !== null;
        if (hw === null && !place) continue;
        let ref = 0;
        for (let i = 0; i < refs.length; i++) refs[i] = ref += refs[i]!;
        if (hw !== null) {
          rwId.push(id);
          for (const x of refs) rwRefs.push(x);
          rwStart.push(rwRefs.n);
          rwHighway.push(hw);
          rwSac.push(sacScale(tags));
          rwFlags.push(wayFlags(tags));
          rwAccess.push(packedAccess(tags));
          rwOneway.push(bikeOneway(tags));
          rwName.push(tags.name ?? '');
          rwSurface.push(tags.surface ?? '');
        }
        if (place) {
          pwId.push(id);
          for (const x of refs) pwRefs.push(x);
          pwStart.push(pwRefs.n);
          pwTags.push(tags);
        }
      } else if (tag === 4) {
        // Relation
        r.relations++;
        keys.length = 0;
        vals.length = 0;
        refs.length = 0;
        types.length = 0;
        let id = 0;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if (t === 1) id = pbf.readVarint(true);
          else if (t === 2) readPacked(pbf, v, keys, false);
          else if (t === 3) readPacked(pbf, v, vals, false);
          else if (t === 9) readPacked(pbf, v, refs, true);
          else if (t === 10) readPacked(pbf, v, types, false);
          else pbf.skip(v);
        }
        if (!wants(b, keys, 4)) continue;
        const tags = tagsOf(b, keys, vals);
        if (tags.type !== 'route' || (tags.route !== 'hiking' && tags.route !== 'foot')) continue;
        const wayIds: number[] = [];
        let ref = 0;
        for (let i = 0; i < refs.length; i++) {
          ref += refs[i]!;
          if (types[i] === 1) wayIds.push(ref);
        }
        routes.push({ id, tags, wayIds });
      } else if (tag === 5) throw new Error('changesets are not supported');
      else pbf.pos = stop;
      pbf.pos = stop;
    }
  }
  if (r.nodes > 0) {
    r.minNodeId = minId;
    r.maxNodeId = maxId;
  }
  r.routable = {
    id: rwId.done(),
    refStart: Uint32Array.from(rwStart),
    refs: rwRefs.done(),
    highway: Uint8Array.from(rwHighway),
    sac: Uint8Array.from(rwSac),
    flags: Uint8Array.from(rwFlags),
    access: Uint16Array.from(rwAccess),
    oneway: Int8Array.from(rwOneway),
    name: rwName,
    surface: rwSurface,
  };
  r.placeWays = { id: pwId.done(), refStart: Uint32Array.from(pwStart), refs: pwRefs.done(), tags: pwTags };
  r.placeNodes = { id: pnId.done(), lon: pnLon.done(), lat: pnLat.done(), tags: pnTags };
  r.routes = routes;
  return r;
}

/** Index of `id` in the sorted `ids` (searching from `from`), or -1. */
function find(ids: Float64Array, id: number, from: number): number {
  let lo = from;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Pass 2 over one decompressed PrimitiveBlock: writes the position of every node whose id is in the sorted
 * `needed` into `lon`/`lat` at the same index and sets `present` there. Returns how many it found.
 */
export function locateNodes(buf: Uint8Array, needed: Float64Array, lon: Float64Array, lat: Float64Array, present: Uint8Array): number {
  try {
    return locateUnchecked(buf, needed, lon, lat, present);
  } catch (e) {
    throw new PbfCorruptError(`bad node block: ${(e as Error).message}`);
  }
}

function locateUnchecked(buf: Uint8Array, needed: Float64Array, lonOut: Float64Array, latOut: Float64Array, present: Uint8Array): number {
  const pbf = new Pbf(buf);
  const b = readBlock(pbf, false);
  let found = 0;
  let from = 0;
  let lastId = Number.NEGATIVE_INFINITY;
  const put = (id: number, lat: number, lon: number): void => {
    // Ids of a block are ascending in sorted files: search only above the last hit; else from the start.
    if (id < lastId) from = 0;
    lastId = id;
    const i = find(needed, id, from);
    if (i < 0) return;
    from = i;
    lonOut[i] = b.lonOffset + lon / b.granularity;
    latOut[i] = b.latOffset + lat / b.granularity;
    present[i] = 1;
    found++;
  };
  for (const [start, end] of b.groups) {
    pbf.pos = start;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      const len = pbf.readVarint();
      const stop = pbf.pos + len;
      if (tag === 1) {
        let id = 0;
        let lat = 0;
        let lon = 0;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if (t === 1) id = pbf.readSVarint();
          else if (t === 8) lat = pbf.readSVarint();
          else if (t === 9) lon = pbf.readSVarint();
          else pbf.skip(v);
        }
        put(id, lat, lon);
      } else if (tag === 2) {
        let idsAt = -1;
        let idsEnd = -1;
        let latAt = -1;
        let lonAt = -1;
        let latEnd = -1;
        let lonEnd = -1;
        while (pbf.pos < stop) {
          const v = pbf.readVarint();
          const t = v >> 3;
          if ((t === 1 || t === 8 || t === 9) && (v & 7) === 2) {
            const l = pbf.readVarint();
            if (t === 1) [idsAt, idsEnd] = [pbf.pos, pbf.pos + l];
            else if (t === 8) [latAt, latEnd] = [pbf.pos, pbf.pos + l];
            else [lonAt, lonEnd] = [pbf.pos, pbf.pos + l];
            pbf.pos += l;
          } else pbf.skip(v);
        }
        if (idsAt < 0) continue;
        // Walk the three packed arrays side by side, without materialising them.
        let id = 0;
        let lat = 0;
        let lon = 0;
        let pi = idsAt;
        let pa = latAt;
        let po = lonAt;
        while (pi < idsEnd) {
          pbf.pos = pi;
          id += pbf.readSVarint();
          pi = pbf.pos;
          if (pa >= latEnd || po >= lonEnd) throw new Error('dense node arrays differ in length');
          pbf.pos = pa;
          lat += pbf.readSVarint();
          pa = pbf.pos;
          pbf.pos = po;
          lon += pbf.readSVarint();
          po = pbf.pos;
          put(id, lat, lon);
        }
      }
      pbf.pos = stop;
    }
  }
  return found;
}
