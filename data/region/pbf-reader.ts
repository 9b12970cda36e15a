// Reads an .osm.pbf file into an OsmExtract in two passes over its blocks, with bounded memory: pass 1
// decodes every block and keeps routable ways, place objects and hiking relations with the node ids they
// need; the needed ids are sorted into one Float64Array; pass 2 decodes the node blocks again and fills
// the positions of the needed nodes only. No object per node, no Map of ids: the memory is a small
// multiple of what the region keeps, whatever the range of the ids (64-bit ids are exact below 2^53).
// Blocks decode on worker threads (pbf-worker.ts) when the file is large enough to pay for them.
import { existsSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import Pbf from 'pbf';
import type { ImportProgress } from './import-progress.js';
import type { ExtractWays, OsmExtract, PlaceSource, RouteSource } from './osm-extract.js';
import {
  CORRUPT_MARK,
  closeBlobFiles,
  headerTimestamp,
  inflateBlob,
  type PlaceNodeBatch,
  type PlaceWayBatch,
  readBlob,
  type ScanResult,
  type WayBatch,
} from './pbf-decode.js';
import { type DecodeTask, decode } from './pbf-worker.js';
import { ImportResourceError, RegionInputError } from './region-error.js';

/**
 * Checks that `path` exists and starts like an OSM PBF (a BlobHeader of type "OSMHeader"),
 * so that a wrong file fails with a clear message before any parsing.
 */
function checkPbf(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new RegionInputError(`cannot read OSM file ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  const head = Buffer.alloc(Math.min(64, size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.length < 16 || !head.includes('OSMHeader')) {
    throw new RegionInputError(`${path} is not an OpenStreetMap PBF file (no OSMHeader block)`);
  }
}

/** Where a blob's data lies in the file. */
interface BlobSpan {
  offset: number;
  size: number;
}

export interface PbfReadOptions {
  /** Decoding threads: 0 decodes in this thread; default all cores for files of 16 MB and more, else 0. */
  threads?: number;
  progress?: ImportProgress;
  /**
   * [west, south, east, north] in degrees: only the nodes inside are read, as if the extract had been cut there (a
   * way leaving the box is cut where its nodes leave it; a place outside is left out).
   */
  bbox?: readonly [number, number, number, number];
}

/** What reading the file found, for the import's summary. */
export interface PbfReadStats {
  bytes: number;
  blocks: number;
  threads: number;
  read: { nodes: number; ways: number; relations: number };
  kept: { routableWays: number; placeNodes: number; placeWays: number; routes: number; neededNodes: number; foundNodes: number };
}

export interface PbfExtract {
  extract: OsmExtract;
  /** Replication timestamp of the extract as ISO 8601, when the header has one. */
  timestamp: string | null;
  stats: PbfReadStats;
}

const corrupt = (path: string, why: string): RegionInputError =>
  new RegionInputError(`${path} is not a readable OSM PBF (truncated or corrupt: ${why})`);

/** Lists the blobs of the file from their headers alone (a few bytes each); a blob past the end is truncation. */
function indexBlobs(path: string): { header: BlobSpan | null; data: BlobSpan[]; size: number } {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  const data: BlobSpan[] = [];
  let header: BlobSpan | null = null;
  try {
    const len4 = Buffer.alloc(4);
    let pos = 0;
    while (pos < size) {
      if (size - pos < 4 || readSync(fd, len4, 0, 4, pos) < 4) throw corrupt(path, `the file ends inside a block header at byte ${pos}`);
      const len = len4.readUInt32BE(0);
      if (len > 64 * 1024) throw corrupt(path, `a block header at byte ${pos} claims ${len} bytes (at most 64 KiB)`);
      if (pos + 4 + len > size) throw corrupt(path, `the file ends inside the block header at byte ${pos}`);
      const head = Buffer.alloc(len);
      readSync(fd, head, 0, len, pos + 4);
      let type = '';
      let datasize = -1;
      try {
        const pbf = new Pbf(head);
        while (pbf.pos < pbf.length) {
          const val = pbf.readVarint();
          if (val >> 3 === 1) type = pbf.readString();
          else if (val >> 3 === 3) datasize = pbf.readVarint();
          else pbf.skip(val);
        }
      } catch (e) {
        throw corrupt(path, `bad block header at byte ${pos}: ${(e as Error).message}`);
      }
      if (datasize < 0) throw corrupt(path, `the block header at byte ${pos} has no data size`);
      const offset = pos + 4 + len;
      if (offset + datasize > size) {
        throw corrupt(path, `the block at byte ${pos} needs ${datasize} bytes, the file ends ${size - offset} bytes later`);
      }
      if (type === 'OSMHeader') header ??= { offset, size: datasize };
      else if (type === 'OSMData') data.push({ offset, size: datasize });
      pos = offset + datasize;
    }
  } finally {
    closeSync(fd);
  }
  return { header, data, size };
}

/** Runs decode tasks on worker threads, or in this thread. */
interface Decoder {
  threads: number;
  run(task: DecodeTask): Promise<ScanResult | number>;
  close(): Promise<void>;
}

/**
 * The worker module next to this one: the compiled .js, or the .ts source when a TypeScript loader (tsx) is
 * in the process's flags (worker threads inherit them). Null when neither can load, e.g. under a test runner
 * that compiles in memory; the import then decodes in its own thread.
 */
function workerFile(): string | null {
  const self = import.meta.url;
  if (self.endsWith('.js')) return fileURLToPath(new URL('./pbf-worker.js', self));
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  const ts = fileURLToPath(new URL('./pbf-worker.ts', self));
  return /\btsx\b/.test(flags) && existsSync(ts) ? ts : null;
}

function createDecoder(threads: number): Decoder {
  const filename = threads > 0 ? workerFile() : null;
  if (filename === null) {
    let n = 0;
    return {
      threads: 0,
      async run(task) {
        // Let timers (progress) run now and then.
        if (++n % 16 === 0) await new Promise((r) => setImmediate(r));
        return decode(task);
      },
      async close() {
        closeBlobFiles();
      },
    };
  }
  const pool = new Piscina({ filename, maxThreads: threads, minThreads: threads, idleTimeout: 60_000 });
  let closed: Promise<void> | null = null;
  return {
    threads,
    run: (task) => pool.run(task) as Promise<ScanResult | number>,
    close: () => {
      closed ??= pool.destroy();
      return closed;
    },
  };
}

/**
 * Runs `tasks` with up to `window` in flight and hands each result to `take` in task order (so what the
 * region keeps stays in file order).
 */
async function inOrder<T>(decoder: Decoder, tasks: DecodeTask[], take: (result: T, task: DecodeTask) => void): Promise<void> {
  const window = Math.max(2, decoder.threads * 4);
  const pending: Promise<T>[] = [];
  let next = 0;
  const start = (): void => {
    const p = decoder.run(tasks[next++]!) as Promise<T>;
    // Awaited in order below; a failure of a task not awaited yet must not go unhandled meanwhile.
    p.catch(() => undefined);
    pending.push(p);
  };
  while (next < tasks.length && pending.length < window) start();
  for (let i = 0; i < tasks.length; i++) {
    const result = await pending[i]!;
    pending[i] = undefined as unknown as Promise<T>;
    if (next < tasks.length) start();
    take(result, tasks[i]!);
  }
}

/** Concatenates the Float64 `refs` of batches. */
function concatRefs(batches: Array<{ refs: Float64Array }>, extra: Array<{ refs: Float64Array }>): Float64Array {
  let n = 0;
  for (const b of batches) n += b.refs.length;
  for (const b of extra) n += b.refs.length;
  const out = new Float64Array(n);
  let at = 0;
  for (const b of [...batches, ...extra]) {
    out.set(b.refs, at);
    at += b.refs.length;
  }
  return out;
}

/** Sorts ids and drops repeats, in place; returns the unique prefix's length. */
function sortUnique(ids: Float64Array): number {
  ids.sort();
  let u = 0;
  for (let i = 0; i < ids.length; i++) if (u === 0 || ids[i] !== ids[u - 1]) ids[u++] = ids[i]!;
  return u;
}

/** Index of `id` in the sorted `ids`, or -1. */
function indexOf(ids: Float64Array, id: number): number {
  let lo = 0;
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

/** True when some id of the sorted `ids` lies in [min, max]. */
function anyIn(ids: Float64Array, min: number, max: number): boolean {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids.length && ids[lo]! <= max;
}

/** Reads the PBF at `path` into an OsmExtract (see the file comment). Errors name their real cause. */
export async function readExtract(path: string, opts: PbfReadOptions = {}): Promise<PbfExtract> {
  checkPbf(path);
  const progress = opts.progress;
  progress?.stage('index blocks');
  const { header, data, size } = indexBlobs(path);
  let timestamp: string | null = null;
  if (header) {
    try {
      const ts = headerTimestamp(inflateBlob(readBlob(path, header.offset, header.size)));
      if (ts) timestamp = new Date(ts * 1000).toISOString();
    } catch (e) {
      throw importFailure(path, e, 'reading the header');
    }
  }
  const threads = opts.threads ?? (size >= 16e6 ? availableParallelism() : 0);
  const decoder = createDecoder(threads);
  let stage = 'reading ways and relations';
  try {
    // Pass 1: every block; keep ways, places, routes.
    progress?.stage('ways', size);
    const routable: WayBatch[] = [];
    const placeWays: PlaceWayBatch[] = [];
    const placeNodes: PlaceNodeBatch[] = [];
    const routes: RouteSource[] = [];
    const read = { nodes: 0, ways: 0, relations: 0 };
    const nodeBlocks: Array<BlobSpan & { min: number; max: number }> = [];
    const scanTasks: DecodeTask[] = data.map((b) => ({ kind: 'scan', path, offset: b.offset, size: b.size }));
    await inOrder<ScanResult>(decoder, scanTasks, (r, task) => {
      read.nodes += r.nodes;
      read.ways += r.ways;
      read.relations += r.relations;
      if (r.nodes > 0)
        nodeBlocks.push({
          offset: task.offset,
          size: task.size,
          min: r.minNodeId,
          max: r.maxNodeId,
        });
      if (r.routable.id.length > 0) routable.push(r.routable);
      if (r.placeWays.id.length > 0) placeWays.push(r.placeWays);
      if (r.placeNodes.id.length > 0) placeNodes.push(r.placeNodes);
      for (const route of r.routes) routes.push(route);
      progress?.advance(task.size);
    });

    // The needed node ids, sorted and unique, in shared memory for pass 2.
    stage = 'indexing the needed nodes';
    progress?.stage('node index');
    let all: Float64Array | null = concatRefs(routable, placeWays);
    const u = sortUnique(all);
    if (u > 2 ** 31 - 1) throw new ImportResourceError(`limit reached: the ways need ${u} nodes; one region holds at most 2^31 - 1`);
    const needed = new Float64Array(new SharedArrayBuffer(u * 8));
    needed.set(all.subarray(0, u));
    all = null; // every kept way's node ids, a copy of what the batches hold: free before pass 2
    const lonBuf = new SharedArrayBuffer(u * 8);
    const latBuf = new SharedArrayBuffer(u * 8);
    const presentBuf = new SharedArrayBuffer(u);

    // Pass 2: the node blocks that can hold a needed id; positions go straight into the shared arrays.
    stage = 'reading node positions';
    const nodeTasks: DecodeTask[] = nodeBlocks
      .filter((b) => anyIn(needed, b.min, b.max))
      .map((b) => ({
        kind: 'nodes',
        path,
        offset: b.offset,
        size: b.size,
        needed: needed.buffer as SharedArrayBuffer,
        lon: lonBuf,
        lat: latBuf,
        present: presentBuf,
      }));
    progress?.stage(
      'nodes',
      nodeTasks.reduce((s, t) => s + t.size, 0),
    );
    let found = 0;
    await inOrder<number>(decoder, nodeTasks, (n, task) => {
      found += n;
      progress?.advance(task.size);
    });

    await decoder.close(); // the decoding threads and their memory are not needed any more

    // A box cuts the extract: a node outside is as absent as a node the file lacks.
    const box = opts.bbox;
    const inBox = box ? (x: number, y: number) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3] : () => true;
    if (box) {
      const lonAt = new Float64Array(lonBuf);
      const latAt = new Float64Array(latBuf);
      const here = new Uint8Array(presentBuf);
      for (let i = 0; i < u; i++) if (here[i] === 1 && !inBox(lonAt[i]!, latAt[i]!)) here[i] = 0;
    }

    // Refs → slots (indices into the needed table; -1 where the extract lacks the node).
    stage = 'resolving way nodes';
    progress?.stage('resolve');
    const lon = new Float64Array(lonBuf);
    const lat = new Float64Array(latBuf);
    const present = new Uint8Array(presentBuf);
    const slotOf = (id: number): number => {
      const i = indexOf(needed, id);
      return i >= 0 && present[i] === 1 ? i : -1;
    };
    const ways = joinWays(routable, slotOf);
    const places: PlaceSource[] = [];
    for (const b of placeNodes) {
      for (let i = 0; i < b.id.length; i++) {
        if (!inBox(b.lon[i]!, b.lat[i]!)) continue;
        places.push({ osmType: 'node', osmId: b.id[i]!, tags: b.tags[i]!, lon: (0 + b.lon[i]!) / 1, lat: (0 + b.lat[i]!) / 1 });
      }
    }
    for (const b of placeWays) {
      for (let w = 0; w < b.id.length; w++) {
        let from = b.refStart[w]!;
        const to = b.refStart[w + 1]!;
        if (to - from > 1 && b.refs[from] === b.refs[to - 1]) from++;
        let x = 0;
        let y = 0;
        let n = 0;
        for (let k = from; k < to; k++) {
          const s = slotOf(b.refs[k]!);
          if (s < 0) continue;
          x += lon[s]!;
          y += lat[s]!;
          n++;
        }
        if (n > 0) places.push({ osmType: 'way', osmId: b.id[w]!, tags: b.tags[w]!, lon: x / n, lat: y / n });
      }
    }
    const stats: PbfReadStats = {
      bytes: size,
      blocks: data.length,
      threads: decoder.threads,
      read,
      kept: {
        routableWays: ways.count,
        placeNodes: placeNodes.reduce((s, b) => s + b.id.length, 0),
        placeWays: placeWays.reduce((s, b) => s + b.id.length, 0),
        routes: routes.length,
        neededNodes: u,
        foundNodes: found,
      },
    };
    return { extract: { counts: read, lon, lat, ways, places, routes }, timestamp, stats };
  } catch (e) {
    throw importFailure(path, e, stage);
  } finally {
    await decoder.close();
    closeBlobFiles();
  }
}

/** Joins the routable way batches into one ExtractWays, refs turned into slots. */
function joinWays(batches: WayBatch[], slotOf: (id: number) => number): ExtractWays {
  let count = 0;
  let refs = 0;
  for (const b of batches) {
    count += b.id.length;
    refs += b.refs.length;
  }
  const w: ExtractWays = {
    count,
    id: new Float64Array(count),
    refStart: new Uint32Array(count + 1),
    slots: new Int32Array(refs),
    highway: new Uint8Array(count),
    sac: new Uint8Array(count),
    flags: new Uint8Array(count),
    access: new Uint16Array(count),
    oneway: new Int8Array(count),
    name: [],
    surface: [],
  };
  let i = 0;
  let at = 0;
  for (const b of batches) {
    w.id.set(b.id, i);
    w.highway.set(b.highway, i);
    w.sac.set(b.sac, i);
    w.flags.set(b.flags, i);
    w.access.set(b.access, i);
    w.oneway.set(b.oneway, i);
    for (let k = 0; k < b.id.length; k++) {
      w.refStart[i + k + 1] = at + b.refStart[k + 1]!;
      w.name.push(b.name[k]!);
      w.surface.push(b.surface[k]!);
    }
    for (let k = 0; k < b.refs.length; k++) w.slots[at + k] = slotOf(b.refs[k]!);
    i += b.id.length;
    at += b.refs.length;
  }
  batches.length = 0;
  return w;
}

/** True for the errors a lack of memory raises (allocation, worker heap limits). */
export function isOutOfMemory(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  if (!err) return false;
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY' || err.code === 'ERR_MEMORY_ALLOCATION_FAILED') return true;
  return e instanceof RangeError && /allocation failed|out of memory|Array buffer allocation/i.test(err.message ?? '');
}

/** True for the errors a size limit of the runtime raises (typed array or Map lengths). */
export function isLimit(e: unknown): boolean {
  return (
    e instanceof RangeError &&
    /Invalid typed array length|Invalid array length|maximum size exceeded|Invalid string length/i.test(e.message)
  );
}

/** The error to report for `e` raised while `stage` reading `path`: its real cause, never a corrupt file unless it is one. */
export function importFailure(path: string, e: unknown, stage: string): Error {
  if (e instanceof RegionInputError || e instanceof ImportResourceError) return e;
  const message = (e as Error)?.message ?? String(e);
  if (message.startsWith(CORRUPT_MARK)) return corrupt(path, message.slice(CORRUPT_MARK.length));
  if (isOutOfMemory(e)) {
    return new ImportResourceError(
      `out of memory while ${stage}: ${message} (try a machine with more memory, fewer decoding threads with CAIRN_IMPORT_THREADS, or a smaller extract)`,
    );
  }
  if (isLimit(e)) return new ImportResourceError(`limit reached while ${stage}: ${message} (the extract is too large for one region)`);
  if (/compressed with/.test(message)) return new RegionInputError(`${path}: ${message}`);
  return e instanceof Error ? e : new Error(message);
}
