// Typed wrapper over the geometry WASM kernels: copies flat coordinates in, results out, maps status codes.
import type { DemGrid } from '../../data/region/dem-grid.js';
import { type WasmBuild, type WasmMemory, loadWasm } from './load-wasm.js';

/** 2 = [lon, lat, lon, lat, …]; 3 = [lon, lat, ele, …]. Degrees WGS84, elevations in metres. */
export type Stride = 2 | 3;

export type GeometryFailureReason = 'bad-stride' | 'too-few-vertices' | 'bad-argument' | 'bad-grid' | 'out-of-memory';

/** An expected failure, returned (never thrown) by every function here and by the reference twin. */
export interface GeometryFailure {
  readonly ok: false;
  readonly reason: GeometryFailureReason;
  /** The kernel's status code (see geo-wasm/README.md). */
  readonly code: number;
}

/** Kernel status codes (< 0), as in geo-wasm/assembly/geometry/memory.ts. */
export const STATUS = {
  BAD_STRIDE: -1,
  TOO_FEW_VERTICES: -2,
  BAD_ARGUMENT: -3,
  BAD_GRID: -4,
  OUT_OF_MEMORY: -5,
} as const;

const FAILURES: Readonly<Record<number, GeometryFailure>> = {
  [STATUS.BAD_STRIDE]: Object.freeze({ ok: false, reason: 'bad-stride', code: STATUS.BAD_STRIDE }),
  [STATUS.TOO_FEW_VERTICES]: Object.freeze({ ok: false, reason: 'too-few-vertices', code: STATUS.TOO_FEW_VERTICES }),
  [STATUS.BAD_ARGUMENT]: Object.freeze({ ok: false, reason: 'bad-argument', code: STATUS.BAD_ARGUMENT }),
  [STATUS.BAD_GRID]: Object.freeze({ ok: false, reason: 'bad-grid', code: STATUS.BAD_GRID }),
  [STATUS.OUT_OF_MEMORY]: Object.freeze({ ok: false, reason: 'out-of-memory', code: STATUS.OUT_OF_MEMORY }),
};

/** The failure value for a negative status code. */
export function failureFor(code: number): GeometryFailure {
  const failure = FAILURES[code];
  if (failure === undefined) throw new Error(`geo-wasm geometry: unknown status ${code}`);
  return failure;
}

export function isGeometryFailure(value: unknown): value is GeometryFailure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/** Vertex count of flat coordinates, or a failure when the stride is wrong or the length not a multiple. */
export function vertexCount(coords: Float64Array, stride: number): number | GeometryFailure {
  if (stride !== 2 && stride !== 3) return failureFor(STATUS.BAD_STRIDE);
  if (coords.length % stride !== 0) return failureFor(STATUS.BAD_ARGUMENT);
  return coords.length / stride;
}

export interface PointOnLine {
  lon: number;
  lat: number;
  /** metres, interpolated; NaN for stride 2 */
  ele: number;
  /** index of the segment holding the point (0 .. n-2; 0 for a one-vertex line) */
  segment: number;
  /** 0..1 along that segment, linear in degrees */
  fraction: number;
}

export interface NearestPoint extends PointOnLine {
  /** metres from the query point to the nearest point of the line */
  distance: number;
}

export interface GainOptions {
  /** width in metres of the distance window each elevation is averaged over (0 = no smoothing) */
  windowMetres?: number;
  /** metres a rise or fall must exceed before it counts (hysteresis; 0 = count every change) */
  thresholdMetres?: number;
}

/** Chosen for SRTM3 (about 90 m posts); the reasons are in geo-wasm/README.md. */
export const DEFAULT_GAIN_OPTIONS: Required<GainOptions> = {
  windowMetres: 100,
  thresholdMetres: 3,
};

export interface Gain {
  /** metres climbed and descended */
  ascent: number;
  descent: number;
  /** samples used (NaN elevations are skipped) */
  samples: number;
}

interface GeometryExports {
  memory: WasmMemory;
  freePtr(): number;
  resultPtr(): number;
  reserve(endByte: number): number;
  lineLength(ptr: number, n: number, stride: number): number;
  cumulativeDistances(ptr: number, n: number, stride: number, out: number): number;
  along(ptr: number, n: number, stride: number, d: number): number;
  slice(ptr: number, n: number, stride: number, d0: number, d1: number, out: number): number;
  simplify(ptr: number, n: number, stride: number, tol: number, out: number, work: number): number;
  simplifyWorkBytes(n: number): number;
  nearestOnLine(ptr: number, n: number, stride: number, lon: number, lat: number, work: number): number;
  nearestWorkBytes(n: number): number;
  sampleDem(
    grid: number, cols: number, rows: number, west: number, north: number, cellDeg: number,
    ptr: number, n: number, stride: number, out: number,
  ): number;
  profileGain(ele: number, eleStride: number, dist: number, n: number, window: number, threshold: number, work: number): number;
  gainWorkBytes(n: number): number;
}

// Per-thread state: the instance, its memory views and the layout of the free area (README "Memory").
interface State {
  k: GeometryExports;
  f64: Float64Array;
  i16: Int16Array;
  result: number; // f64 index of RESULT[0]
  free: number; // byte offset of the free area
  dem: Int16Array | null; // the samples array currently resident
  demBytes: number; // bytes reserved for it (16-aligned)
}

let state: State | null = null;

/** Instantiates the module for this thread (tests pass 'debug'); the first call wins, later calls reuse it. */
export function initGeometry(build?: WasmBuild): void {
  if (state !== null) return;
  const k = loadWasm('geometry', build).exports as unknown as GeometryExports;
  state = {
    k,
    f64: new Float64Array(k.memory.buffer),
    i16: new Int16Array(k.memory.buffer),
    result: k.resultPtr() >>> 3,
    free: k.freePtr(),
    dem: null,
    demBytes: 0,
  };
}

function st(): State {
  if (state === null) initGeometry();
  return state as State;
}

const align16 = (bytes: number): number => (bytes + 15) & ~15;

/**
 * Byte offset of a scratch area of `bytes` after the resident DEM; grows memory (rebuilding the views,
 * since growing replaces memory.buffer). Returns -1 when memory cannot grow.
 */
function scratch(s: State, bytes: number): number {
  const base = s.free + s.demBytes;
  if (base + bytes > s.f64.byteLength) {
    if (s.k.reserve(base + bytes) < 0) return -1;
    s.f64 = new Float64Array(s.k.memory.buffer);
    s.i16 = new Int16Array(s.k.memory.buffer);
  }
  return base;
}

/** Scratch for `coords` plus `extra` bytes, with coords copied in at the returned offset. */
function copyIn(s: State, coords: Float64Array, extra: number): number {
  const ptr = scratch(s, align16(coords.length * 8) + extra);
  if (ptr >= 0) s.f64.set(coords, ptr >>> 3);
  return ptr;
}

const OOM = (): GeometryFailure => failureFor(STATUS.OUT_OF_MEMORY);

/** Length of the line in metres (spherical, R = 6,371,008.8 m). */
export function lineLength(coords: Float64Array, stride: Stride = 2): number | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const ptr = copyIn(s, coords, 0);
  if (ptr < 0) return OOM();
  const code = s.k.lineLength(ptr, n, stride);
  return code < 0 ? failureFor(code) : (s.f64[s.result] as number);
}

/** Distance in metres from the start at each vertex (a new array of n values, first 0). */
export function cumulativeDistances(coords: Float64Array, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const ptr = copyIn(s, coords, n * 8);
  if (ptr < 0) return OOM();
  const out = ptr + align16(coords.length * 8);
  const code = s.k.cumulativeDistances(ptr, n, stride, out);
  return code < 0 ? failureFor(code) : s.f64.slice(out >>> 3, (out >>> 3) + n);
}

function pointFromResult(s: State, segment: number, offset: number): PointOnLine {
  const r = s.result + offset;
  return {
    lon: s.f64[r] as number,
    lat: s.f64[r + 1] as number,
    ele: s.f64[r + 2] as number,
    segment,
    fraction: s.f64[r + 3] as number,
  };
}

/** The point `distance` metres along the line (clamped to its ends). */
export function along(coords: Float64Array, distance: number, stride: Stride = 2): PointOnLine | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const ptr = copyIn(s, coords, 0);
  if (ptr < 0) return OOM();
  const code = s.k.along(ptr, n, stride, distance);
  return code < 0 ? failureFor(code) : pointFromResult(s, code, 0);
}

/**
 * The sub-line between `from` and `to` metres along the line (clamped; from <= to): the cut point at
 * `from`, the vertices strictly between, the cut point at `to`. A new array with the input's stride.
 */
export function sliceLine(coords: Float64Array, from: number, to: number, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const ptr = copyIn(s, coords, (n + 2) * stride * 8);
  if (ptr < 0) return OOM();
  const out = ptr + align16(coords.length * 8);
  const code = s.k.slice(ptr, n, stride, from, to, out);
  return code < 0 ? failureFor(code) : s.f64.slice(out >>> 3, (out >>> 3) + code * stride);
}

/** Douglas–Peucker with a tolerance in metres; keeps first and last. A new array with the input's stride. */
export function simplifyLine(coords: Float64Array, toleranceMetres: number, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const inBytes = align16(coords.length * 8);
  const ptr = copyIn(s, coords, inBytes + s.k.simplifyWorkBytes(n));
  if (ptr < 0) return OOM();
  const out = ptr + inBytes;
  const code = s.k.simplify(ptr, n, stride, toleranceMetres, out, out + inBytes);
  return code < 0 ? failureFor(code) : s.f64.slice(out >>> 3, (out >>> 3) + code * stride);
}

/** Nearest point of the line to (lon, lat), with its distance in metres. */
export function nearestOnLine(coords: Float64Array, lon: number, lat: number, stride: Stride = 2): NearestPoint | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const s = st();
  const ptr = copyIn(s, coords, s.k.nearestWorkBytes(n));
  if (ptr < 0) return OOM();
  const code = s.k.nearestOnLine(ptr, n, stride, lon, lat, ptr + align16(coords.length * 8));
  if (code < 0) return failureFor(code);
  const p = pointFromResult(s, code, 1) as NearestPoint;
  p.distance = s.f64[s.result] as number;
  return p;
}

/** Distance in metres from (lon, lat) to the segment (lon0, lat0)-(lon1, lat1), with the nearest point. */
export function nearestOnSegment(
  lon0: number, lat0: number, lon1: number, lat1: number, lon: number, lat: number,
): NearestPoint | GeometryFailure {
  return nearestOnLine(new Float64Array([lon0, lat0, lon1, lat1]), lon, lat, 2);
}

/**
 * Bilinear elevation (metres) of the grid at each point; NaN outside the grid or over voids. The grid's
 * samples are copied into WASM memory on first use and stay resident until another grid is sampled, so
 * the samples array is treated as read-only (region data is): to change a grid, pass a new array.
 */
export function sampleDem(grid: DemGrid, coords: Float64Array, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (grid.samples.length < grid.cols * grid.rows) return failureFor(STATUS.BAD_GRID);
  const s = st();
  if (s.dem !== grid.samples) {
    s.dem = null;
    s.demBytes = align16(grid.samples.length * 2);
    if (scratch(s, 0) < 0) {
      s.demBytes = 0;
      return OOM();
    }
    s.i16.set(grid.samples, s.free >>> 1);
    s.dem = grid.samples;
  }
  const ptr = copyIn(s, coords, n * 8);
  if (ptr < 0) return OOM();
  const out = ptr + align16(coords.length * 8);
  const code = s.k.sampleDem(s.free, grid.cols, grid.rows, grid.west, grid.north, grid.cellDeg, ptr, n, stride, out);
  return code < 0 ? failureFor(code) : s.f64.slice(out >>> 3, (out >>> 3) + n);
}

function gainFromResult(s: State, samples: number): Gain {
  return { ascent: s.f64[s.result] as number, descent: s.f64[s.result + 1] as number, samples };
}

/** Smoothed ascent/descent of elevations (metres) at non-decreasing distances (metres). */
export function elevationGain(elevations: Float64Array, distances: Float64Array, options: GainOptions = {}): Gain | GeometryFailure {
  const n = elevations.length;
  if (distances.length !== n) return failureFor(STATUS.BAD_ARGUMENT);
  const { windowMetres, thresholdMetres } = { ...DEFAULT_GAIN_OPTIONS, ...options };
  const s = st();
  const bytes = align16(n * 8);
  const ptr = scratch(s, 2 * bytes + s.k.gainWorkBytes(n));
  if (ptr < 0) return OOM();
  s.f64.set(elevations, ptr >>> 3);
  s.f64.set(distances, (ptr + bytes) >>> 3);
  const code = s.k.profileGain(ptr, 1, ptr + bytes, n, windowMetres, thresholdMetres, ptr + 2 * bytes);
  return code < 0 ? failureFor(code) : gainFromResult(s, code);
}

/** Smoothed ascent/descent along a stride-3 line, distances measured on the line itself. */
export function lineGain(coords: Float64Array, options: GainOptions = {}): Gain | GeometryFailure {
  const n = vertexCount(coords, 3);
  if (typeof n !== 'number') return n;
  const { windowMetres, thresholdMetres } = { ...DEFAULT_GAIN_OPTIONS, ...options };
  const s = st();
  const inBytes = align16(coords.length * 8);
  const distBytes = align16(n * 8);
  const ptr = copyIn(s, coords, distBytes + s.k.gainWorkBytes(n));
  if (ptr < 0) return OOM();
  const dist = ptr + inBytes;
  if (n === 0) return { ascent: 0, descent: 0, samples: 0 };
  const c = s.k.cumulativeDistances(ptr, n, 3, dist);
  if (c < 0) return failureFor(c);
  const code = s.k.profileGain(ptr + 16, 3, dist, n, windowMetres, thresholdMetres, dist + distBytes);
  return code < 0 ? failureFor(code) : gainFromResult(s, code);
}
