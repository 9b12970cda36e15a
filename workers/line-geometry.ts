// Line geometry the task modules share, worked out by the WASM geometry kernels (geo-wasm/src/geometry.ts):
// measures of a line from its own vertices, distances along it, its split at the point nearest another.
// Point-to-point searches use the one great-circle distance (data/region/geo.ts). Runs in the workers.
import { haversine } from '../data/region/geo.js';
import {
  cumulativeDistances,
  type GainOptions,
  type GeometryFailure,
  isGeometryFailure,
  lineGain,
  lineLength,
  nearestOnLine,
} from '../geo-wasm/src/geometry.js';
import type { LineMeasures } from '../contracts/line-tasks.js';
import type { LonLat } from '../contracts/routing.js';

/**
 * Ascent and descent as recorded: every rise and fall counts, unsmoothed (segment measures have always been
 * this). The kernel's smoothing (DEFAULT_GAIN_OPTIONS) suits raw SRTM profiles; adopting it would change
 * every freehand segment's ascent.
 */
export const RECORDED_GAIN: Required<GainOptions> = { windowMetres: 0, thresholdMetres: 0 };

/** The kernel's value; a failure here is a bug (inputs are checked before), so it throws. */
export function kernelValue<T>(value: T | GeometryFailure): T {
  if (isGeometryFailure(value)) throw new Error(`geometry kernel failed: ${value.reason}`);
  return value;
}

/**
 * Distance along a line (flat lon,lat,ele; at least one point) and its ascent and descent from its own
 * elevations, in metres. Unknown (NaN) elevations are skipped: the profile runs straight across them.
 */
export function measureOwn(coords: Float64Array): LineMeasures {
  const { ascent, descent } = kernelValue(lineGain(coords, RECORDED_GAIN));
  return { distance: kernelValue(lineLength(coords, 3)), ascent, descent };
}

/** Cumulative distance (m) at each point of a line of [lon, lat] or [lon, lat, ele] positions (at least one). */
export function distancesAlong(line: readonly (readonly number[])[]): Float64Array {
  const flat = new Float64Array(line.length * 2);
  line.forEach((p, i) => {
    flat[i * 2] = p[0] as number;
    flat[i * 2 + 1] = p[1] as number;
  });
  return kernelValue(cumulativeDistances(flat, 2));
}

export interface LineSplit {
  /** Where the parts meet: the line's point nearest the requested one (lon, lat, interpolated ele). */
  at: [number, number, number];
  /** Flat lon,lat,ele: the line up to `at`, and from `at` on. */
  head: number[];
  tail: number[];
}

/**
 * Splits a line (flat lon,lat,ele, at least two points) at its point nearest (lon, lat). A nearest point
 * on a vertex is that vertex to the last bit (and replaces it in the part it ends or starts), so a split
 * at either end of the line is recognisable by its coordinates.
 */
export function splitAt(coords: Float64Array, lon: number, lat: number): LineSplit {
  const near = kernelValue(nearestOnLine(coords, lon, lat, 3));
  const s = near.segment;
  const vertex = (i: number): [number, number, number] => [
    coords[i * 3] as number,
    coords[i * 3 + 1] as number,
    coords[i * 3 + 2] as number,
  ];
  const at =
    near.fraction === 0 ? vertex(s) : near.fraction === 1 ? vertex(s + 1) : ([near.lon, near.lat, near.ele] as [number, number, number]);
  const headEnd = near.fraction > 0 ? s + 1 : s;
  const tailStart = near.fraction < 1 ? s + 1 : s + 2;
  return {
    at,
    head: [...coords.subarray(0, headEnd * 3), ...at],
    tail: [...at, ...coords.subarray(tailStart * 3)],
  };
}

/** For each point, the index of the nearest candidate within `within` metres (the first on ties), or -1. */
export function nearestWithin(points: readonly LonLat[], candidates: readonly LonLat[], within: number): number[] {
  return points.map(([lon, lat]) => {
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    candidates.forEach(([clon, clat], i) => {
      const d = haversine(clon, clat, lon, lat);
      if (d <= within && d < bestDistance) {
        best = i;
        bestDistance = d;
      }
    });
    return best;
  });
}

/**
 * Index of the vertex of `line` nearest to `p` (the first on ties), and its distance in metres. Vertices
 * `skip` refuses are passed over (distance Infinity when it refuses them all).
 */
export function nearestVertex(
  line: readonly (readonly number[])[],
  p: readonly number[],
  skip?: (index: number) => boolean,
): { index: number; distance: number } {
  let index = 0;
  let distance = Number.POSITIVE_INFINITY;
  line.forEach((v, i) => {
    if (skip?.(i)) return;
    const d = haversine(v[0] as number, v[1] as number, p[0] as number, p[1] as number);
    if (d < distance) {
      distance = d;
      index = i;
    }
  });
  return { index, distance };
}

/**
 * A test "is `p` within `radius` metres (at most a few metres) of a vertex of `line`?" that stays fast for a
 * point per vertex (thousands). Vertices are bucketed on a grid of about 11 m (1e-4 degree of latitude;
 * longitude scaled by the cosine of the latitude), so each test looks at the 3 x 3 cells around the point.
 */
export function vertexProximity(line: readonly (readonly number[])[]): (p: readonly number[], radius: number) => boolean {
  const CELL = 1e-4;
  const cellOf = (p: readonly number[]) => {
    const lat = p[1] as number;
    return [Math.floor(lat / CELL), Math.floor(((p[0] as number) * Math.cos((lat * Math.PI) / 180)) / CELL)] as const;
  };
  const grid = new Map<string, (readonly number[])[]>();
  for (const v of line) {
    const [y, x] = cellOf(v);
    const key = `${y}:${x}`;
    const cell = grid.get(key);
    if (cell) cell.push(v);
    else grid.set(key, [v]);
  }
  const near = (v: readonly number[], p: readonly number[], radius: number) =>
    haversine(v[0] as number, v[1] as number, p[0] as number, p[1] as number) <= radius;
  return (p, radius) => {
    const [y, x] = cellOf(p);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (grid.get(`${y + dy}:${x + dx}`)?.some((v) => near(v, p, radius))) return true;
      }
    }
    return false;
  };
}
