// Which region a worker task runs on. A deployment may serve several regions (REGIONS_PATH), each read into a routing
// memory of its own and replaced live: the main thread picks the region for a request (server/regions/) and hands the
// task its reference; a worker loads a region on the first task that names it and keeps it until the main thread
// retires it (workers/region-source.ts). Structured-cloneable: the memory and the flag are shared, never copied.

/**
 * A region's routing memory as handed to workers, before its files are read (geo-wasm/src/routing-memory.ts makes and
 * reads it): the main thread publishes where each file lies once it is read, and a worker waits for that.
 * Structured-cloneable: the memory and both arrays are shared.
 */
export interface RegionHandoff {
  /** A shared WebAssembly.Memory. */
  memory: { readonly buffer: SharedArrayBuffer };
  /** The routing module build every instance on this memory must be (builds differ in their static data). */
  build: 'debug' | 'release';
  names: string[];
  /** READING, then PUBLISHED or FAILED. */
  state: Int32Array;
  /** Per name: pointer and length (-1, -1: the folder has no such file). */
  table: Float64Array;
}

export interface RegionRef {
  /** `name@generation`: a worker keeps one loaded region per key, so a replaced folder is a new key. */
  key: string;
  /** The region folder; absent for the built-in demo region (each worker builds it). */
  dir?: string;
  /** The routing memory the folder's graph, places and routing files were read into (a folder's only). */
  files?: RegionHandoff;
  /** 0 while the region serves; set to 1 by the main thread once it is retired and no task names it any more. */
  retired: Int32Array;
}

/**
 * A region named by its key alone: what a task carries once every worker has been handed the region (cloning the
 * shared memory into every task message cost ~15 µs a task). A worker that does not hold it (one started since)
 * throws REGION_NOT_HELD, and the task is sent again with the whole reference.
 */
export interface RegionKey {
  key: string;
}

/** How a worker's error starts when a task names by key alone a region it does not hold. */
export const REGION_NOT_HELD = 'region not held: ';

/** What a task that answers from a region carries: without `region`, the worker's own (REGION_PATH, or the demo). */
export interface OnRegion {
  region?: RegionRef | RegionKey;
}

/**
 * Where a region's network lies, coarsely: a grid of cells over its bounds, 1 where a node of its graph lies. A
 * point is in the region when its cell or a neighbour is (the grid is coarser than the farthest a point snaps).
 */
export interface RegionCoverage {
  west: number;
  south: number;
  cellDeg: number;
  cols: number;
  rows: number;
  cells: Uint8Array;
}

/** What the main thread shows of a region's meta.json (data/region/region.ts RegionMeta, of which this is a part). */
export interface RegionOutlineMeta {
  kind: 'import' | 'demo';
  sources: { osm: string | null };
  osmTimestamp: string | null;
  attribution: string;
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number];
  counts: { nodes: number; edges: number; ways: number; places: number };
}

/**
 * A region's bounds in the measures the main thread compares without trigonometry (worked out by the worker that
 * loaded it): in Web Mercator world fractions (× 2^z: tile columns and rows), and degrees of longitude per metre.
 */
export interface RegionExtent {
  /** [left, top, right, bottom] as fractions of the world's width and height (top < bottom). */
  world: [number, number, number, number];
  /** Degrees of longitude a metre spans at the region's mid latitude (for a plane measure of distances to it). */
  lonDegPerMetre: number;
  /**
   * Degrees of longitude a metre spans at most within the largest search radius of the region (at its poleward edge
   * moved LOOKUP_LIMITS.radius.max poleward): a box this wide around a point holds every place the radius reaches.
   */
  lonDegPerMetreMax: number;
}

export interface RegionOutlineOutput {
  ok: true;
  meta: RegionOutlineMeta;
  coverage: RegionCoverage;
  extent: RegionExtent;
}
