// Piscina task module for zone searches: which zones meet a bounding box or contain a point, by their true
// shape: a polygon by its rings (holes excluded), a circle by its radius around the centre, a corridor by half
// its width on either side of its line. Distances to lines come from the geometry kernels; point-to-point
// distance is the one great-circle distance (data/region/geo.ts). Box tests run in longitude/latitude degrees,
// which is exact for crossings and close enough (a box is small next to the Earth) for nearest points.
import { haversine } from '../data/region/geo.js';
import { nearestOnLine } from '../geo-wasm/src/geometry.js';
import { kernelValue } from './line-geometry.js';
import type { MatchZonesInput, MatchZonesOutput, ZoneShapeInput } from '../contracts/zones.js';

type Position = readonly number[];
/** [west, south, east, north], degrees, west ≤ east. */
type Box = readonly [number, number, number, number];

/** For each zone, whether it matches every condition given (all zones when none is given). */
export function matchZones(input: MatchZonesInput): MatchZonesOutput {
  const { bbox, point } = input;
  const matches = input.zones.map((zone) => (!point || containsPoint(zone, point)) && (!bbox || meetsBox(zone, bbox)));
  return { ok: true, matches };
}

export function containsPoint(zone: ZoneShapeInput, p: Position): boolean {
  switch (zone.mode) {
    case 'POLYGON':
      return inPolygon(zone.coordinates as Position[][], p);
    case 'CIRCLE': {
      const c = zone.coordinates as Position;
      return haversine(c[0]!, c[1]!, p[0]!, p[1]!) <= (zone.radiusM ?? 0);
    }
    case 'CORRIDOR':
      return distanceToLine(zone.coordinates as Position[], p) <= (zone.widthM ?? 0) / 2;
  }
}

export function meetsBox(zone: ZoneShapeInput, box: Box): boolean {
  switch (zone.mode) {
    case 'POLYGON': {
      const rings = zone.coordinates as Position[][];
      // A vertex in the box, a corner of the box in the polygon, or an edge crossing the box's outline.
      if (rings.some((ring) => ring.some((v) => inBox(box, v)))) return true;
      if (corners(box).some((c) => inPolygon(rings, c))) return true;
      return rings.some((ring) => lineCrossesBox(ring, box));
    }
    case 'CIRCLE': {
      const c = zone.coordinates as Position;
      const nearest = [clamp(c[0]!, box[0], box[2]), clamp(c[1]!, box[1], box[3])];
      return haversine(c[0]!, c[1]!, nearest[0]!, nearest[1]!) <= (zone.radiusM ?? 0);
    }
    case 'CORRIDOR': {
      const line = zone.coordinates as Position[];
      if (line.some((v) => inBox(box, v)) || lineCrossesBox(line, box)) return true;
      // Apart, the nearest points of the line and the box's outline include a vertex of one of them.
      const half = (zone.widthM ?? 0) / 2;
      const outline = [...corners(box), corners(box)[0]!];
      return corners(box).some((c) => distanceToLine(line, c) <= half) || line.some((v) => distanceToLine(outline, v) <= half);
    }
  }
}

/** Metres from a point to a line of [lon, lat(, ele)] positions (at least two). */
function distanceToLine(line: readonly Position[], p: Position): number {
  const flat = new Float64Array(line.length * 2);
  line.forEach((v, i) => {
    flat[i * 2] = v[0]!;
    flat[i * 2 + 1] = v[1]!;
  });
  return kernelValue(nearestOnLine(flat, p[0]!, p[1]!, 2)).distance;
}

/** Even-odd rule over every ring: inside the outer ring and outside its holes. */
function inPolygon(rings: readonly Position[][], p: Position): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!;
      const b = ring[j]!;
      if (a[1]! > p[1]! !== b[1]! > p[1]! && p[0]! < ((b[0]! - a[0]!) * (p[1]! - a[1]!)) / (b[1]! - a[1]!) + a[0]!) inside = !inside;
    }
  }
  return inside;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const inBox = (box: Box, v: Position) => v[0]! >= box[0] && v[0]! <= box[2] && v[1]! >= box[1] && v[1]! <= box[3];
const corners = (box: Box): Position[] => [
  [box[0], box[1]],
  [box[2], box[1]],
  [box[2], box[3]],
  [box[0], box[3]],
];

/** True when a piece of the line crosses one of the box's sides. */
function lineCrossesBox(line: readonly Position[], box: Box): boolean {
  const c = corners(box);
  for (let i = 0; i + 1 < line.length; i++) {
    for (let k = 0; k < 4; k++) if (segmentsCross(line[i]!, line[i + 1]!, c[k]!, c[(k + 1) % 4]!)) return true;
  }
  return false;
}

function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const side = (p: Position, q: Position, r: Position) => Math.sign((q[0]! - p[0]!) * (r[1]! - p[1]!) - (q[1]! - p[1]!) * (r[0]! - p[0]!));
  const d1 = side(c, d, a);
  const d2 = side(c, d, b);
  const d3 = side(a, b, c);
  const d4 = side(a, b, d);
  if (d1 !== d2 && d3 !== d4 && d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) return true;
  // Touching counts as meeting.
  const onSegment = (p: Position, q: Position, r: Position) =>
    Math.min(p[0]!, q[0]!) <= r[0]! &&
    r[0]! <= Math.max(p[0]!, q[0]!) &&
    Math.min(p[1]!, q[1]!) <= r[1]! &&
    r[1]! <= Math.max(p[1]!, q[1]!);
  return (
    (d1 === 0 && onSegment(c, d, a)) ||
    (d2 === 0 && onSegment(c, d, b)) ||
    (d3 === 0 && onSegment(a, b, c)) ||
    (d4 === 0 && onSegment(a, b, d))
  );
}
