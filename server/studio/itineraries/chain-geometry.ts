// Plain geometry on chain lines: lengths, local measures, projecting a point onto a line, splitting.
// Coordinates are lon, lat (degrees), ele (metres, NaN = unknown).

import type { Coord, MeasuredGeometry } from './chain.js';

const EARTH_RADIUS = 6_371_008.8; // m, mean radius
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function haversine(a: readonly number[], b: readonly number[]): number {
  const dLat = ((b[1]! - a[1]!) * RAD) / 2;
  const dLon = ((b[0]! - a[0]!) * RAD) / 2;
  const h = Math.sin(dLat) ** 2 + Math.cos(a[1]! * RAD) * Math.cos(b[1]! * RAD) * Math.sin(dLon) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance, ascent and descent of a line from its own vertices (no network, no DEM). */
export function measureLocal(line: readonly Coord[]): { distance: number; ascent: number; descent: number } {
  let distance = 0;
  let ascent = 0;
  let descent = 0;
  for (let i = 1; i < line.length; i++) {
    distance += haversine(line[i - 1]!, line[i]!);
    const rise = line[i]![2] - line[i - 1]![2];
    if (Number.isFinite(rise)) {
      if (rise > 0) ascent += rise;
      else descent -= rise;
    }
  }
  return { distance, ascent, descent };
}

/** A line measured locally, with a duration at a walking pace of 4 km/h (used only without a worker pool). */
export function measuredLocally(line: Coord[]): MeasuredGeometry {
  const m = measureLocal(line);
  return { geometry: line, ...m, duration: m.distance / (4000 / 3600) };
}

export interface Projection {
  /** The piece (from vertex `index` to `index + 1`) the point falls on. */
  index: number;
  /** Fraction along that piece, 0..1. */
  t: number;
  /** The projected point (elevation interpolated). */
  coord: Coord;
  /** Distance from the requested point to the line (m). */
  offset: number;
}

/** Nearest point of `line` to `point`, in a local equirectangular frame (fine at segment scale). */
export function projectOntoLine(line: readonly Coord[], point: readonly number[]): Projection {
  const kx = Math.cos(point[1]! * RAD);
  let best: Projection | undefined;
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const dx = (b[0] - a[0]) * kx;
    const dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? (((point[0]! - a[0]) * kx) * dx + (point[1]! - a[1]) * dy) / len2 : 0;
    t = Math.max(0, Math.min(1, t));
    const coord: Coord =
      t === 0 ? [...a] : t === 1 ? [...b] : [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
    const offset = haversine(coord, point);
    if (!best || offset < best.offset) best = { index: i, t, coord, offset };
  }
  if (!best) throw new Error('projectOntoLine needs a line of two points or more');
  return best;
}

/** Splits `line` at a projection; both parts share the projected point. */
export function splitLine(line: readonly Coord[], at: Projection): [Coord[], Coord[]] {
  const head = line.slice(0, at.index + 1).map((c) => [...c] as Coord);
  const tail = line.slice(at.index + 1).map((c) => [...c] as Coord);
  if (at.t > 0 || head.length === 0) head.push([...at.coord] as Coord);
  else head[head.length - 1] = [...at.coord] as Coord;
  if (at.t < 1) tail.unshift([...at.coord] as Coord);
  else tail[0] = [...at.coord] as Coord;
  return [head, tail];
}

/** Joins two lines that meet at a shared vertex (the first of `b` is dropped). */
export function joinLines(a: readonly Coord[], b: readonly Coord[]): Coord[] {
  return [...a.map((c) => [...c] as Coord), ...b.slice(1).map((c) => [...c] as Coord)];
}
