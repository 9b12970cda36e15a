// What an operator sees of region folders without loading them: a region folder's description (name, bounds,
// build date, source extract, attribution, counts, size on disk), and the regions of a folder of region folders
// (REGIONS_PATH), and regions added to, replaced in and removed from such a folder. An import (and installRegion)
// stages a folder as a hidden sibling (`.name.tmp-…`) and renames it into place when it is complete, so a hidden
// folder is never a region.
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkRegionFolder, REGION_FILES } from './region-folder.js';
import type { RegionMeta } from './region.js';

export interface RegionListing {
  /** The folder's name: how requests, logs and the admin command name the region. */
  name: string;
  /** The folder's absolute path. */
  path: string;
  /** [west, south, east, north] in degrees: the extent of its network. */
  bounds: [number, number, number, number];
  /** When the import wrote it (ISO 8601: its meta.json's modification time). */
  builtAt: string;
  /** The OSM extract it was imported from (file name), null for the demo region. */
  source: string | null;
  /** The extract's replication timestamp (ISO 8601), when its header had one. */
  osmTimestamp: string | null;
  attribution: string;
  counts: { nodes: number; edges: number; ways: number; places: number };
  /** Bytes of its files. */
  bytes: number;
}

/** A region folder's listing; RegionInputError when it is not a region this build can load. */
export function describeRegion(dir: string): RegionListing {
  const meta: RegionMeta = checkRegionFolder(dir);
  const path = resolve(dir);
  let bytes = 0;
  // statSync follows links: a folder may link its files from elsewhere.
  for (const name of readdirSync(path)) {
    const stat = statSync(join(path, name), { throwIfNoEntry: false });
    if (stat?.isFile()) bytes += stat.size;
  }
  const { nodes, edges, ways, places } = meta.counts;
  return {
    name: basename(path),
    path,
    bounds: meta.bbox,
    builtAt: statSync(join(path, REGION_FILES.meta)).mtime.toISOString(),
    source: meta.sources.osm,
    osmTimestamp: meta.osmTimestamp,
    attribution: meta.attribution,
    counts: { nodes, edges, ways, places },
    bytes,
  };
}

export interface RegionCatalog {
  /** The loadable regions, by name. */
  regions: RegionListing[];
  /** Folders that look like regions (they hold a meta.json) but cannot be loaded, and why. */
  unusable: { name: string; path: string; reason: string }[];
}

/**
 * The region folders under `dir`, by name: `dir` itself when it is a region folder (it holds a meta.json), otherwise
 * each of its folders that holds one (a link to a folder followed), hidden folders (an import's staging) left out.
 * Throws the file system's error when `dir` cannot be read.
 */
export function regionFolders(dir: string): Map<string, string> {
  const root = resolve(dir);
  if (isRegionLike(root)) return new Map([[basename(root), root]]);
  const found = new Map<string, string>();
  // Not Dirent.isDirectory(): a region may be a link to a folder (current -> alps-2026-11); isRegionLike follows it.
  for (const name of readdirSync(root).sort()) {
    if (!name.startsWith('.') && isRegionLike(join(root, name))) found.set(name, join(root, name));
  }
  return found;
}

/**
 * The regions under `dir` (regionFolders), each described or said to be unusable. Throws RegionInputError when `dir`
 * is neither a region folder nor a folder of them, or does not exist.
 */
export function catalogRegions(dir: string): RegionCatalog {
  // One region folder asked for by itself: what is wrong with it is the answer.
  if (isRegionLike(resolve(dir))) return { regions: [describeRegion(dir)], unusable: [] };
  let folders: Map<string, string>;
  try {
    folders = regionFolders(dir);
  } catch {
    // describeRegion names what is wrong with a path that is no folder (missing, a file).
    return { regions: [describeRegion(dir)], unusable: [] };
  }
  const catalog: RegionCatalog = { regions: [], unusable: [] };
  for (const [name, path] of folders) {
    try {
      catalog.regions.push(describeRegion(path));
    } catch (e) {
      catalog.unusable.push({ name, path, reason: (e as Error).message });
    }
  }
  return catalog;
}

function isRegionLike(dir: string): boolean {
  try {
    return statSync(join(dir, REGION_FILES.meta)).isFile();
  } catch {
    return false;
  }
}

/** A region's name in a folder of regions: a folder name a URL, a log and a shell take as it is. */
const REGION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Thrown by installRegion and removeRegion: what is wrong, as `code`, and a sentence saying what to do. */
export class RegionFolderError extends Error {
  constructor(
    readonly code: 'INVALID_ARGUMENT' | 'NOT_FOUND' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Copies the region folder `from` into the folder of regions `root` as region `name`, atomically: copied into a hidden
 * staging folder (never served) and renamed into place once complete. `replace` swaps it for the region of that name
 * (which must exist; without `replace` it must not): the old folder is renamed away, the new one in, the old one
 * removed. A server watching `root` serves the new region once it is in place. Returns its listing.
 */
export function installRegion(root: string, name: string, from: string, { replace = false } = {}): RegionListing {
  if (!REGION_NAME.test(name)) {
    throw new RegionFolderError('INVALID_ARGUMENT', `region name '${name}' must be 1–64 lower-case letters, digits, '-' or '_'`);
  }
  describeRegion(from); // a folder this build serves, or RegionInputError saying why not
  const target = join(resolve(root), name);
  const exists = existsSync(target);
  if (replace && !exists) throw new RegionFolderError('NOT_FOUND', `no region ${name} in ${root}: add it instead`);
  if (!replace && exists) throw new RegionFolderError('CONFLICT', `region ${name} already exists in ${root}: replace it instead`);
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const staging = join(resolve(root), `.${name}.tmp-${suffix}`);
  const old = join(resolve(root), `.${name}.old-${suffix}`);
  try {
    // Links followed: the copy holds the files themselves, whatever `from` links to.
    cpSync(from, staging, { recursive: true, dereference: true, preserveTimestamps: true }); // built_at is meta.json's time
    if (replace) renameSync(target, old);
    renameSync(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return describeRegion(target);
}

/** Removes region `name` from the folder of regions `root`: renamed away at once (a server stops serving it), then deleted. */
export function removeRegion(root: string, name: string): void {
  if (!REGION_NAME.test(name)) throw new RegionFolderError('INVALID_ARGUMENT', `'${name}' is not a region name`);
  const target = join(resolve(root), name);
  if (!existsSync(target)) throw new RegionFolderError('NOT_FOUND', `no region ${name} in ${root}`);
  const old = join(resolve(root), `.${name}.old-${process.pid}-${Date.now().toString(36)}`);
  renameSync(target, old);
  rmSync(old, { recursive: true, force: true });
}
