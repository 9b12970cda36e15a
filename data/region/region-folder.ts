// Writing a region folder atomically and loading it back (graph.bin read once, zero-copy views).
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEM_HEADER_BYTES, decodeDemFile, encodeDemFile, readDemHeader } from './dem-file.js';
import { decodeGraphFile, encodeGraphFile, GRAPH_HEADER_BYTES, readGraphHeader, writeGraphFile } from './graph-file.js';
import { decodePlaceFile, PLACE_HEADER_BYTES, readPlaceHeader } from './place-table.js';
import { REGION_FORMAT_VERSION, type HazardWay, type HikingRoute, type Region, type RegionMeta } from './region.js';
import { RegionInputError } from './region-error.js';
import type { SharedWasmMemory, WasmBuild } from '../../geo-wasm/src/load-wasm.js';
import { readIntoRoutingMemory, type SharedRegionFiles } from '../../geo-wasm/src/routing-memory.js';

/** File names inside a region folder. */
export const REGION_FILES = {
  meta: 'meta.json',
  graph: 'graph.bin',
  dem: 'dem.bin',
  places: 'places.bin',
  hazards: 'hazards.json',
  routes: 'routes.json',
  /** The trail tiles, cut once by the import (MBTiles, ./tile-archive.ts); a folder without it is cut at start. */
  tiles: 'tiles.mbtiles',
  /** Routing prepared at import (geo-wasm/src/routing-file.ts); a folder without it is prepared at load. */
  routing: 'routing.bin',
} as const;

/**
 * Checks, without decoding the graph, that `dir` is a region folder this build can load: it exists, its
 * meta.json has this format version, every file the workers load is there and readable, the headers of
 * graph.bin and places.bin (and dem.bin, when present) are valid and match the file sizes, and tiles.mbtiles (when present) is a
 * SQLite file. Throws RegionInputError naming
 * the problem; returns the metadata. The server runs it at start so a bad REGION_PATH stops it at once.
 */
export function checkRegionFolder(dir: string): RegionMeta {
  if (!existsSync(dir)) throw new RegionInputError(`region folder ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new RegionInputError(`region path ${dir} is not a folder`);
  const meta = readJson<RegionMeta>(dir, REGION_FILES.meta);
  if (meta === null || typeof meta !== 'object' || meta.formatVersion !== REGION_FORMAT_VERSION) {
    throw new RegionInputError(
      `region ${dir} has format version ${meta?.formatVersion}; this build reads ${REGION_FORMAT_VERSION} (re-import)`,
    );
  }
  for (const name of [REGION_FILES.hazards, REGION_FILES.routes]) readHead(join(dir, name), 0);
  const graphPath = join(dir, REGION_FILES.graph);
  const graph = readHead(graphPath, GRAPH_HEADER_BYTES);
  readGraphHeader(graph.head, graph.size, graphPath);
  const placesPath = join(dir, REGION_FILES.places);
  const places = readHead(placesPath, PLACE_HEADER_BYTES);
  readPlaceHeader(places.head, places.size, placesPath);
  const demPath = join(dir, REGION_FILES.dem);
  if (existsSync(demPath)) {
    const dem = readHead(demPath, DEM_HEADER_BYTES);
    readDemHeader(dem.head, dem.size, demPath);
  }
  // The tile archive, when there is one (a folder written before archives has none: its tiles are cut at start).
  const tilesPath = join(dir, REGION_FILES.tiles);
  if (existsSync(tilesPath) && Buffer.from(readHead(tilesPath, 16).head).toString('latin1') !== 'SQLite format 3\0') {
    throw new RegionInputError(`region file ${tilesPath} is not an MBTiles (SQLite) file: re-import the region`);
  }
  return meta;
}

/** The first `bytes` bytes of a file and its size; RegionInputError when it is missing or cannot be read. */
function readHead(path: string, bytes: number): { head: Uint8Array; size: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RegionInputError(`region file ${path} is ${code === 'ENOENT' ? 'missing' : 'unreadable'}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a file');
    const size = stat.size;
    const head = new Uint8Array(Math.min(bytes, size));
    if (head.byteLength > 0) readSync(fd, head, 0, head.byteLength, 0);
    return { head, size };
  } catch {
    throw new RegionInputError(`region file ${path} is unreadable`);
  } finally {
    closeSync(fd);
  }
}

/** The folder's files as bytes, in a fixed order (deterministic for the same region). */
export function encodeRegionFiles(region: Region): Map<string, Uint8Array> {
  const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v)}\n`);
  const files = new Map<string, Uint8Array>();
  files.set(REGION_FILES.meta, new TextEncoder().encode(`${JSON.stringify(region.meta, null, 2)}\n`));
  files.set(REGION_FILES.graph, encodeGraphFile(region.graph));
  if (region.dem) files.set(REGION_FILES.dem, encodeDemFile(region.dem));
  files.set(REGION_FILES.places, region.places.bytes);
  files.set(REGION_FILES.hazards, json(region.hazards));
  files.set(REGION_FILES.routes, json(region.routes));
  return files;
}

/** A file added to a region folder: its bytes, or a function writing it at `path` and returning its size. */
export type ExtraFile = Uint8Array | ((path: string) => number);

/**
 * Writes the region to `dir`: first into a temporary folder beside it, then renamed into place,
 * so a failure never leaves a half-written region (an existing region at `dir` is replaced only
 * once the new one is complete). graph.bin is written section by section, never whole in memory.
 * `extra` adds files made from the region (the import's routing.bin). Returns the size of each file written.
 */
export function writeRegion(dir: string, region: Region, extra: ReadonlyMap<string, ExtraFile> = new Map()): Record<string, number> {
  const staged = stageRegion(dir, region, extra);
  try {
    staged.place();
  } finally {
    staged.clean();
  }
  return staged.sizes;
}

/**
 * writeRegion, with `more` writing further files into the temporary folder (the tile archive) before it is renamed
 * into place; a failure of `more` leaves the existing region as it was.
 */
export async function writeRegionWith(
  dir: string,
  region: Region,
  more: (tmp: string) => Promise<void>,
  extra: ReadonlyMap<string, ExtraFile> = new Map(),
): Promise<Record<string, number>> {
  const staged = stageRegion(dir, region, extra);
  try {
    await more(staged.tmp);
    for (const name of readdirSync(staged.tmp)) staged.sizes[name] ??= statSync(join(staged.tmp, name)).size;
    staged.place();
  } finally {
    staged.clean();
  }
  return staged.sizes;
}

/** The region's files written into a temporary folder beside `dir`; `place` renames it into place. */
function stageRegion(
  dir: string,
  region: Region,
  extra: ReadonlyMap<string, ExtraFile>,
): { tmp: string; sizes: Record<string, number>; place: () => void; clean: () => void } {
  const target = resolve(dir);
  mkdirSync(dirname(target), { recursive: true });
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const tmp = join(dirname(target), `.${basename(target)}.tmp-${suffix}`);
  const old = join(dirname(target), `.${basename(target)}.old-${suffix}`);
  const sizes: Record<string, number> = {};
  removeStaleSiblings(target);
  const clean = () => {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  };
  try {
    mkdirSync(tmp);
    const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v)}\n`);
    const put = (name: string, bytes: Uint8Array): void => {
      writeFileSync(join(tmp, name), bytes);
      sizes[name] = bytes.byteLength;
    };
    // The order and bytes of encodeRegionFiles.
    put(REGION_FILES.meta, new TextEncoder().encode(`${JSON.stringify(region.meta, null, 2)}\n`));
    sizes[REGION_FILES.graph] = writeGraphFile(join(tmp, REGION_FILES.graph), region.graph);
    if (region.dem) put(REGION_FILES.dem, encodeDemFile(region.dem));
    put(REGION_FILES.places, region.places.bytes);
    put(REGION_FILES.hazards, json(region.hazards));
    put(REGION_FILES.routes, json(region.routes));
    for (const [name, file] of extra) {
      if (typeof file === 'function') sizes[name] = file(join(tmp, name));
      else put(name, file);
    }
  } catch (e) {
    clean();
    throw e;
  }
  const place = () => {
    if (existsSync(target)) renameSync(target, old);
    renameSync(tmp, target);
  };
  return { tmp, sizes, place, clean };
}

/**
 * A file beside region folder `dir` that an import writes before the folder is staged (`kind`, e.g. "routing"):
 * named for this process, so that a later import removes it if this one was killed.
 */
export function regionWorkFile(dir: string, kind: string): string {
  const target = resolve(dir);
  mkdirSync(dirname(target), { recursive: true });
  return join(dirname(target), `.${basename(target)}.${kind}-${process.pid}-${Date.now().toString(36)}`);
}

/**
 * Removes the temporary folders and files an earlier writer of `target` left when it was killed (SIGKILL, out of
 * memory): `.NAME.tmp-PID-…`, `.NAME.old-PID-…` and `.NAME.routing-PID-…` whose process is gone.
 */
function removeStaleSiblings(target: string): void {
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\.(?:tmp|old|routing)-(\d+)-/.exec(name.slice(prefix.length - 1));
    if (!name.startsWith(prefix) || !m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readJson<T>(dir: string, name: string): T {
  const path = join(dir, name);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RegionInputError(`region file ${path} is ${code === 'ENOENT' ? 'missing' : 'unreadable'}`);
  }
}

export interface LoadOptions {
  /**
   * A file of the folder already read (graph.bin and places.bin: the server reads them once into the shared
   * routing memory, geo-wasm/src/routing-memory.ts, and every worker views them there); the region's arrays view
   * its bytes. Asked for after the folder's other files are loaded (a worker loads those while the main thread
   * still reads).
   */
  sharedFile?: (name: string) => Uint8Array;
}

/**
 * Reads `dir`'s graph.bin, places.bin and routing.bin (when it has one) into a new routing memory, once for the
 * process: every worker given the result views them there and searches them in place (workers/region-source.ts),
 * so memory does not grow with the workers. Throws RegionInputError for a folder that is not a region,
 * RoutingMemoryFullError for one too large for a routing memory.
 */
export function readRegionIntoMemory(dir: string, build?: WasmBuild, memory?: SharedWasmMemory): Promise<SharedRegionFiles> {
  checkRegionFolder(dir);
  return readIntoRoutingMemory(Object.fromEntries(ROUTING_MEMORY_FILES.map((name) => [name, join(dir, name)])), build, memory);
}

/** The files of a region folder that go into the routing memory. */
export const ROUTING_MEMORY_FILES: readonly string[] = [REGION_FILES.graph, REGION_FILES.places, REGION_FILES.routing];

/**
 * Loads a region folder written by writeRegion. graph.bin and places.bin are each read once into one Buffer (or
 * taken from `options.sharedFile`) and the region's arrays are views over them (no copy). Throws RegionInputError
 * when the folder is missing, incomplete, or of another format version; hazards.json and routes.json, checked to
 * be readable files here, are parsed when first used (a damaged one throws then).
 */
export function loadRegion(dir: string, options: LoadOptions = {}): Region {
  const meta = checkRegionFolder(dir);
  const demPath = join(dir, REGION_FILES.dem);
  const dem = existsSync(demPath) ? decodeDemFile(readFileSync(demPath), demPath) : null;
  // Hazard ways and hiking routes feed only the trail layers' features: a server answering tiles from the folder's
  // archive never needs them, so each is read on first use (a country's take ~30 MB of each worker's heap).
  const hazards = onFirstUse(() => readJson<HazardWay[]>(dir, REGION_FILES.hazards));
  const routes = onFirstUse(() => readJson<HikingRoute[]>(dir, REGION_FILES.routes));
  const bytesOf = (name: string): Uint8Array => {
    const path = join(dir, name);
    try {
      return options.sharedFile?.(name) ?? readFileSync(path);
    } catch (e) {
      if (options.sharedFile) throw e;
      throw new RegionInputError(`region file ${path} is missing`);
    }
  };
  const graph = decodeGraphFile(bytesOf(REGION_FILES.graph), join(dir, REGION_FILES.graph));
  const places = decodePlaceFile(bytesOf(REGION_FILES.places), join(dir, REGION_FILES.places));
  return {
    graph,
    places,
    get hazards() {
      return hazards();
    },
    get routes() {
      return routes();
    },
    dem,
    meta,
  };
}

/** `read`'s value, read once when first asked for. */
function onFirstUse<T>(read: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: read() }).v;
}
