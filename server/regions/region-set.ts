// The regions a server serves, and their changes while it runs. REGIONS_PATH names a folder of region folders (each
// folder's name is its region's), REGION_PATH one region folder, neither the built-in demo region. Each folder's graph,
// places and routing files are read into a routing memory of its own (every worker searches that one copy), handed to
// every worker before the region serves, and its tile archive opened here.
//
// The folder is scanned every `pollMs` (and at once when the file system reports a change in it): a folder added is
// loaded and then served; one replaced (an import renames its new folder into place; a link may be repointed) is
// loaded as a new generation beside the old, which serves until the new one is ready, then finishes the tasks it has
// on their way and is dropped (its memory with it); one removed stops serving once it has been missing for a second
// (an import's replacement leaves the name missing for an instant). A hidden folder (an import's staging) is never looked
// at. A folder that cannot be loaded is reported (log and readiness) and the regions loaded before go on serving.
import { existsSync, type FSWatcher, statSync, watch } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { RegionRef } from '../../contracts/region-ref.js';
import { describeRegion, type RegionListing, regionFolders } from '../../data/region/region-catalog.js';
import { readRegionIntoMemory, REGION_FILES, ROUTING_MEMORY_FILES } from '../../data/region/region-folder.js';
import { TileArchive } from '../../data/region/tile-archive.js';
import type { WasmBuild } from '../../geo-wasm/src/load-wasm.js';
import { createRegionHandoff, handOver } from '../../geo-wasm/src/routing-memory.js';
import type { Logger } from '../logger.js';
import type { WorkerPool } from '../pool/pool.js';
import { taskError } from '../pool/task-error.js';
import { ApiError } from '../errors.js';
import { collectGarbage } from '../../lib/collect-garbage.js';
import type { Placed } from './region-choice.js';

/** A region as served: what picks it, what tasks on it carry, its tile archive, and the tasks on their way. */
export interface ServedRegion extends Placed {
  readonly name: string;
  /** What a task on it carries; undefined: the workers' own region (an app given no region set: tests). */
  readonly ref: RegionRef | undefined;
  /** Its description (bounds, build date, source extract, attribution, counts, size). */
  readonly listing: RegionListing;
  /** Its trail tiles: the folder's archive, or one a worker cut into memory (the demo region). */
  readonly archive: TileArchive;
  /** The folder's identity when it was loaded (device, inode, meta.json's time): a different one is a replacement. */
  readonly identity: string;
  /** Tasks on their way that run on it. */
  inFlight: number;
  /** Replaced or removed: no new task goes to it, and it is dropped once `inFlight` is 0. */
  retiring: boolean;
}

/** A folder the server cannot serve, and why. */
export interface RegionProblem {
  name: string;
  path: string;
  reason: string;
}

export interface RegionSetOptions {
  pool: WorkerPool;
  logger?: Logger;
  /** A folder of region folders (REGIONS_PATH), watched for regions added, replaced and removed. */
  regionsPath?: string;
  /** One region folder (REGION_PATH), watched for its replacement. */
  regionPath?: string;
  /** Ms between scans of the folder (0: never scan; tests scan by hand). */
  pollMs?: number;
  /** The routing module build the workers run (their memory layout). */
  build?: WasmBuild;
  /** How long a region may take to reach every worker (ms). */
  loadTimeoutMs?: number;
}

/** What a scan changed. */
export interface RegionChange {
  added: string[];
  replaced: string[];
  removed: string[];
  failed: RegionProblem[];
}

/** Thrown by a load when its folder changed while it was read (the next scan loads the new one). */
class FolderChanged extends Error {}

let generations = 0;

/**
 * How long a region's folder must stay away before the region stops serving: an import replacing a folder renames the
 * old one away and the new one into place, and a look between the two must not drop the region.
 */
const REMOVAL_GRACE_MS = 1000;

/** How long a dropped region's tile archive stays open for reads that picked it before. */
const ARCHIVE_GRACE_MS = 30_000;

/** The regions served now, once they are loaded (what the tile and Data API operations read). */
export type ServedRegions = () => Promise<readonly ServedRegion[]>;

/**
 * `set`'s regions; without a set (an app built without one: tests, in-process harnesses), the workers' own region,
 * described by a worker on first use (and again after a failure).
 */
export function servedRegions(set: RegionSet | undefined, pool: WorkerPool | undefined): ServedRegions {
  if (set) return () => Promise.resolve(set.regions);
  let own: Promise<RegionSet> | undefined;
  return async () => {
    if (!pool) throw new ApiError('SERVICE_UNAVAILABLE');
    own ??= RegionSet.own(pool).catch((e: unknown) => {
      own = undefined;
      throw e;
    });
    return (await own).regions;
  };
}

export class RegionSet {
  #served: ServedRegion[] = [];
  readonly #problems = new Map<string, RegionProblem & { identity: string }>();
  /** When each served region's folder was first found missing (cleared when it is back). */
  readonly #misses = new Map<string, number>();
  #scanning: Promise<RegionChange> | undefined;
  #rescan = false;
  #timer: NodeJS.Timeout | undefined;
  #watcher: FSWatcher | undefined;
  #closed = false;
  /** Why the folder of regions could not be read at the last look (logged once). */
  #unreadable: string | undefined;

  private constructor(
    private readonly options: RegionSetOptions,
    /** What is served: a folder of regions, one folder, or the demo region. */
    private readonly mode: 'folders' | 'folder' | 'demo' | 'own',
  ) {}

  /**
   * The regions of `options` loaded and handed to every worker: REGIONS_PATH's, REGION_PATH's or the demo region.
   * Throws when the one region (REGION_PATH, the demo) cannot be loaded; a folder of regions starts with the ones
   * that load (and reports the others).
   */
  static async open(options: RegionSetOptions): Promise<RegionSet> {
    const mode = options.regionsPath ? 'folders' : options.regionPath ? 'folder' : 'demo';
    // A folder of regions that is not there is a mistake in the configuration, not an empty deployment.
    if (options.regionsPath && !statSync(options.regionsPath, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(`regions folder ${options.regionsPath} does not exist or is not a folder (REGIONS_PATH)`);
    }
    const set = new RegionSet(options, mode);
    if (mode === 'demo') set.#served = [await set.#loadDemo()];
    else {
      const change = await set.scan();
      if (mode === 'folder' && set.#served.length === 0) throw new Error(change.failed[0]?.reason ?? 'the region could not be loaded');
      set.#watch();
    }
    return set;
  }

  /**
   * The workers' own region as the one region (an app built without a region set: tests, in-process harnesses): tasks
   * carry no reference, its outline and archive come from a worker.
   */
  static async own(pool: WorkerPool): Promise<RegionSet> {
    const set = new RegionSet({ pool }, 'own');
    await set.#handToWorkers(undefined, 'demo');
    set.#served = [await set.#describe(undefined, 'demo', 'own')];
    return set;
  }

  /** The regions serving now, in name order (a replaced region's new generation once it is ready). */
  get regions(): readonly ServedRegion[] {
    return this.#served;
  }

  /** Folders found and not served, and why. */
  get problems(): RegionProblem[] {
    return [...this.#problems.values()].map(({ name, path, reason }) => ({ name, path, reason }));
  }

  /** Counts a task on its way on `region`; the returned function ends it (and drops a retired region it was the last of). */
  acquire(region: ServedRegion): () => void {
    region.inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      region.inFlight--;
      if (region.retiring && region.inFlight === 0) this.#drop(region);
    };
  }

  /**
   * Looks at the folder now: loads what was added or replaced, retires what was removed or replaced. One scan at a
   * time; a scan asked for during one runs after it.
   */
  scan(): Promise<RegionChange> {
    if (this.#scanning) {
      this.#rescan = true;
      return this.#scanning;
    }
    this.#scanning = this.#scanOnce().finally(() => {
      this.#scanning = undefined;
      if (this.#rescan && !this.#closed) {
        this.#rescan = false;
        void this.scan();
      }
    });
    return this.#scanning;
  }

  /** Stops watching and drops every region. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#watcher?.close();
    await this.#scanning?.catch(() => undefined);
    for (const region of this.#served) this.#retire(region);
    this.#served = [];
  }

  #watch(): void {
    const { pollMs = 2000 } = this.options;
    if (pollMs <= 0) return;
    this.#timer = setInterval(
      () => void this.scan().catch((e: unknown) => this.#log('error', 'region scan failed', { error: String(e) })),
      pollMs,
    );
    this.#timer.unref();
    // A hint to look sooner; the poll is what makes a change seen (a network file system may report nothing).
    try {
      const root = this.options.regionsPath ?? resolve(this.options.regionPath!, '..');
      this.#watcher = watch(root, { persistent: false }, () => void this.scan().catch(() => undefined));
      this.#watcher.on('error', () => this.#watcher?.close());
    } catch {
      // no watch on this file system: the poll alone
    }
  }

  /** The region folders to serve now: name → absolute path (a folder without a meta.json is no region). */
  #folders(): Map<string, string> {
    if (this.mode === 'folder') {
      const path = resolve(this.options.regionPath!);
      return new Map([[basename(path), path]]);
    }
    const root = resolve(this.options.regionsPath!);
    try {
      const folders = regionFolders(root);
      this.#unreadable = undefined;
      return folders;
    } catch (e) {
      // Once per cause, not every look: the regions loaded before go on serving.
      if (this.#unreadable !== String(e)) this.#log('error', 'regions folder unreadable', { path: root, error: String(e) });
      this.#unreadable = String(e);
      return new Map();
    }
  }

  async #scanOnce(): Promise<RegionChange> {
    const change: RegionChange = { added: [], replaced: [], removed: [], failed: [] };
    if (this.#closed) return change;
    const folders = this.#folders();
    for (const [name, path] of folders) {
      this.#misses.delete(name);
      const identity = folderIdentity(path);
      const current = this.#served.find((r) => r.name === name);
      if (identity === undefined) continue; // its meta.json went since the listing
      if (current?.identity === identity || this.#problems.get(name)?.identity === identity) continue;
      try {
        const loaded = await this.#loadFolder(name, path, identity);
        this.#problems.delete(name);
        this.#served = [...this.#served.filter((r) => r !== current), loaded].sort((a, b) => a.name.localeCompare(b.name));
        if (current) this.#retire(current);
        (current ? change.replaced : change.added).push(name);
        this.#log('info', current ? 'region replaced' : 'region added', {
          region: name,
          path,
          key: loaded.ref?.key,
          bounds: loaded.bounds,
        });
      } catch (e) {
        if (e instanceof FolderChanged) {
          this.#rescan = true;
          continue;
        }
        this.#problem(name, path, identity, e instanceof Error ? e.message : String(e), change);
      }
    }
    for (const region of this.#served) {
      if (folders.has(region.name)) continue;
      const missingSince = this.#misses.get(region.name) ?? Date.now();
      this.#misses.set(region.name, missingSince);
      // The one region of REGION_PATH stays while its folder is away: the server has nothing else to serve.
      if (Date.now() - missingSince < REMOVAL_GRACE_MS || this.mode === 'folder') continue;
      this.#misses.delete(region.name);
      this.#served = this.#served.filter((r) => r !== region);
      this.#retire(region);
      change.removed.push(region.name);
      this.#log('info', 'region removed', { region: region.name, key: region.ref?.key });
    }
    for (const name of this.#problems.keys()) if (!folders.has(name)) this.#problems.delete(name);
    return change;
  }

  #problem(name: string, path: string, identity: string, reason: string, change: RegionChange): void {
    const known = this.#problems.get(name);
    if (known?.reason === reason && known.identity === identity) return;
    this.#problems.set(name, { name, path, reason, identity });
    change.failed.push({ name, path, reason });
    this.#log('error', 'region not loaded', { region: name, path, reason });
  }

  /** A folder read into a routing memory of its own and handed to every worker; its archive opened. */
  async #loadFolder(name: string, path: string, identity: string): Promise<ServedRegion> {
    const { pool } = this.options;
    const t0 = performance.now();
    const listing = describeRegion(path);
    const handoff = createRegionHandoff(ROUTING_MEMORY_FILES, this.options.build);
    const ref: RegionRef = { key: `${name}@${++generations}`, dir: listing.path, files: handoff, retired: sharedFlag() };
    try {
      // Handed to the workers first: each loads the rest of the region (its metadata, DEM, way names) while this
      // thread reads the routing files, then waits until they are published (RegionHandoff).
      const handing = this.#handToWorkers(ref, name);
      const [read, handed] = await Promise.allSettled([
        handOver(handoff, () => readRegionIntoMemory(path, handoff.build, handoff.memory)),
        handing,
      ]);
      if (read.status === 'rejected') throw read.reason;
      if (handed.status === 'rejected') throw handed.reason;
      const region = await this.#describe(ref, name, identity, listing, path);
      // The workers read the folder's other files by path: a replacement renamed in meanwhile would mix two imports.
      if (folderIdentity(path) !== identity) throw new FolderChanged();
      this.#log('info', 'region loaded', {
        region: name,
        key: ref.key,
        sharedMb: Math.round(Object.values(read.value.files).reduce((sum, f) => sum + f.bytes, 0) / 1e6),
        ms: Math.round(performance.now() - t0),
        workers: pool.piscina.threads.length,
      });
      return region;
    } catch (e) {
      Atomics.store(ref.retired, 0, 1);
      void pool.everyWorker('dropRegions', {}).catch(() => undefined);
      throw e;
    }
  }

  /** The demo region, which each worker builds for itself. */
  async #loadDemo(): Promise<ServedRegion> {
    const ref: RegionRef = { key: `demo@${++generations}`, retired: sharedFlag() };
    await this.#handToWorkers(ref, 'demo');
    return this.#describe(ref, 'demo', 'demo');
  }

  /** Hands `ref` to every worker: each loads the region now, so that no request waits for it. */
  async #handToWorkers(ref: RegionRef | undefined, name: string): Promise<void> {
    const { pool } = this.options;
    const handed = await pool.everyWorker('ping', ref ? { region: ref } : {}, this.options.loadTimeoutMs ?? 600_000);
    if (handed.failure) throw new Error(`the workers could not load region ${name}: ${handed.failure.reason}`);
    if (handed.answered < pool.piscina.options.minThreads) throw new Error(`only ${handed.answered} workers loaded region ${name} in time`);
  }

  /** The region as served: its outline from a worker (which holds it), its archive opened. */
  async #describe(
    ref: RegionRef | undefined,
    name: string,
    identity: string,
    listing?: RegionListing,
    path?: string,
  ): Promise<ServedRegion> {
    const { pool } = this.options;
    const outline = await pool.runTask('regionOutline', ref ? { region: ref } : {});
    if (!outline.ok) throw taskError(outline);
    const tiles = path ? join(path, REGION_FILES.tiles) : undefined;
    let archive: TileArchive;
    if (tiles && existsSync(tiles)) archive = new TileArchive(tiles);
    else {
      if (path)
        this.#log('info', 'trail tiles', {
          message: `region ${path} has no ${REGION_FILES.tiles}: its tiles are cut into memory now; re-import it (npm run import -- --osm … --out …) to cut them once`,
        });
      const bytes = await pool.runTask('trailTileArchive', ref ? { region: ref } : {});
      if (!(bytes instanceof Uint8Array)) throw taskError(bytes);
      archive = new TileArchive(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
    const { meta } = outline;
    const described: RegionListing = listing ?? {
      name,
      path: '',
      bounds: meta.bbox,
      builtAt: new Date().toISOString(),
      source: meta.sources.osm,
      osmTimestamp: meta.osmTimestamp,
      attribution: meta.attribution,
      counts: { nodes: meta.counts.nodes, edges: meta.counts.edges, ways: meta.counts.ways, places: meta.counts.places },
      bytes: 0,
    };
    return {
      name,
      ref,
      listing: described,
      bounds: described.bounds,
      coverage: outline.coverage,
      extent: outline.extent,
      archive,
      identity,
      inFlight: 0,
      retiring: false,
    };
  }

  /** No new task goes to `region`; it is dropped once its tasks on their way are done. */
  #retire(region: ServedRegion): void {
    region.retiring = true;
    if (region.inFlight === 0) this.#drop(region);
  }

  /** Workers drop the region at their next task (asked for now), its archive closes, its memory goes with the last reference. */
  #drop(region: ServedRegion): void {
    if (!region.ref) return;
    Atomics.store(region.ref.retired, 0, 1);
    this.#log('info', 'region dropped', { region: region.name, key: region.ref.key });
    // A tile read that picked the region just before keeps its archive a while (tile reads hold no region); the timer
    // holds the archive alone, not the region (its routing memory goes now).
    const { archive } = region;
    setTimeout(() => archive.close(), ARCHIVE_GRACE_MS).unref();
    // Every worker drops it now; this thread's references go at its next major collection, made now (lib/collect-garbage.ts).
    if (!this.#closed) {
      void this.options.pool
        .everyWorker('dropRegions', {})
        .catch(() => undefined)
        .then(() => collectGarbage());
    }
  }

  #log(level: 'info' | 'error', message: string, fields: Record<string, unknown>): void {
    this.options.logger?.[level](message, fields);
  }
}

function sharedFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** What tells one import of a folder from the next: the folder itself (a rename or a link makes another) and its meta.json. */
function folderIdentity(path: string): string | undefined {
  const folder = statSync(path, { throwIfNoEntry: false });
  const meta = statSync(join(path, REGION_FILES.meta), { throwIfNoEntry: false });
  if (!folder?.isDirectory() || !meta) return undefined;
  // The folder's time changes as files are added to it: a copy finished after a failed load is looked at again.
  return `${folder.dev}:${folder.ino}:${folder.mtimeMs}:${meta.ino}:${meta.mtimeMs}`;
}
