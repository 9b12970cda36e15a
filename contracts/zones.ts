// Wire shapes of zone matching: which zones meet a box or contain a point, by their true shape.
import type { LonLat } from './routing.js';

/** A zone's shape as stored: GeoJSON coordinates of its mode's geometry (degrees) and its size (m). */
export interface ZoneShapeInput {
  mode: 'POLYGON' | 'CIRCLE' | 'CORRIDOR';
  /** Polygon rings (POLYGON), the centre (CIRCLE) or the line (CORRIDOR). */
  coordinates: unknown;
  radiusM: number | null;
  widthM: number | null;
}
export interface MatchZonesInput {
  zones: ZoneShapeInput[];
  /** [west, south, east, north] degrees, west ≤ east: zones whose shape meets it. */
  bbox?: [number, number, number, number];
  /** [lon, lat] degrees: zones whose shape contains it. */
  point?: LonLat;
}
export interface MatchZonesOutput {
  ok: true;
  /** One flag per zone of the input, in its order. */
  matches: boolean[];
}
