// What a GeoJSON feature's properties (GeoJSON files, and KML and GPX read through @tmcw/togeojson) carry
// beyond what an itinerary keeps: per-point times and sensor data on lines, times, symbols, styles and
// other data on points. Counted as losses (import-losses.ts) so the import can say so.

import { addLoss, type Losses, type WaypointLoss } from './import-losses.js';

type Json = Record<string, unknown>;

/** Presentation: KML styles as @tmcw/togeojson spells them, and simplestyle-spec in GeoJSON. */
const STYLE = /^(?:styleUrl|styleHash|styleMapHash|stroke|stroke-.+|fill|fill-.+|icon|icon-.+|label-.+|marker-.+)$/;
const TIME = new Set(['time', 'timestamp', 'timespan']);
/**
 * A point's description properties, in the order a waypoint's description joins them (imported-track.ts):
 * KML's and GeoJSON's `description`, GPX's `desc`, then GPX's comment `cmt`.
 */
export const DESCRIPTION_PROPERTIES = ['description', 'desc', 'cmt'] as const;
const DESCRIPTION = new Set<string>(DESCRIPTION_PROPERTIES);
/**
 * Read elsewhere or derived again on import: names, togeojson's bookkeeping, per-point arrays (counted as
 * such), and what Cairn's own exports write about a segment (its measures are computed again on import).
 */
const CONSUMED = new Set([
  'name',
  '_gpxType',
  '@id',
  'coordinateProperties',
  'coordTimes',
  'engine',
  'position',
  'distance',
  'ascent',
  'descent',
  'duration',
  'segment_starts',
  'segment_engines',
]);

/** A property value that holds something (not null, blank, or an empty list or object). */
function hasValue(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** Values of a per-point array, one level of nesting flattened (a MultiLineString's arrays per line). */
function perPoint(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  return v.some(Array.isArray) ? v.flatMap((x) => (Array.isArray(x) ? x : [x])) : v;
}

/**
 * Adds a line's per-point times (`coordinateProperties.times`, or `coordTimes`) and other per-point data
 * (heart rate, cadence, temperature… as `coordinateProperties` arrays), its style and its other properties.
 */
export function countLineLosses(props: Json, losses: Losses): void {
  const perPointData = (props.coordinateProperties ?? {}) as Json;
  const times = perPointData.times ?? props.coordTimes;
  addLoss(losses, 'track_point_time', perPoint(times).filter(hasValue).length);
  const sensors = Object.entries(perPointData)
    .filter(([key]) => key !== 'times')
    .map(([, values]) => perPoint(values));
  const points = Math.max(0, ...sensors.map((values) => values.length));
  let withData = 0;
  for (let i = 0; i < points; i++) if (sensors.some((values) => hasValue(values[i]))) withData++;
  addLoss(losses, 'track_point_extension', withData);
  const keys = Object.keys(props).filter((key) => hasValue(props[key]) && !CONSUMED.has(key));
  if (keys.some((key) => STYLE.test(key))) addLoss(losses, 'style');
  if (keys.some((key) => !STYLE.test(key))) addLoss(losses, 'feature_properties');
}

/**
 * What a point keeps no room for. `kindFrom` is the property its kind was read from; a symbol (`sym`)
 * that differs from a kind given by another property is lost.
 */
export function pointLosses(props: Json, kindProperty: string, kind: string | undefined): WaypointLoss[] {
  const lost = new Set<WaypointLoss>();
  for (const [key, value] of Object.entries(props)) {
    // Descriptions become the waypoint's own (imported-track.ts).
    if (!hasValue(value) || CONSUMED.has(key) || DESCRIPTION.has(key) || key === kindProperty) continue;
    if (TIME.has(key)) lost.add('waypoint_time');
    else if (key === 'sym') {
      if (String(value).trim().toLowerCase() !== kind?.toLowerCase()) lost.add('waypoint_symbol');
    } else if (STYLE.test(key)) lost.add('style');
    else lost.add('feature_properties');
  }
  return [...lost];
}
