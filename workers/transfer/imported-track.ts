// What every import format is read into, and the GeoJSON walk that GPX, KML (through @tmcw/togeojson) and
// GeoJSON share.

import { countLineLosses, DESCRIPTION_PROPERTIES, pointLosses } from './feature-losses.js';
import { addLoss, type Losses, type WaypointLoss } from './import-losses.js';
import { cleanDescription, cleanName, KIND_MAX } from '../../lib/import-text.js';
import { ImportProblem } from './import-problem.js';

/** [lon, lat] or [lon, lat, ele]: degrees, degrees, metres. */
export type Position = number[];

export interface ImportedWaypoint {
  name?: string;
  kind?: string;
  description?: string;
  coordinates: Position;
  /**
   * The file gives this point nothing of its own (no name, description, kind or position) and its format
   * does not mark it as a waypoint: on the line it is track decoration, not a waypoint (import-plan.ts).
   */
  bare?: true;
  /** What the file gives this point that a waypoint cannot hold (counted once the plan keeps the point). */
  losses?: WaypointLoss[];
}

export interface ImportedTrack {
  /** The file's own name (GPX metadata, KML Document, GeoJSON `name`), when it has one. */
  name?: string;
  /** The first track's (or line's) name. */
  trackName?: string;
  description?: string;
  /** The file's lines in document order (each track segment, route or LineString is one line). */
  lines: Position[][];
  waypoints: ImportedWaypoint[];
  /** What reading the file left out, by kind (waypoints' own losses are on each waypoint). */
  losses?: Losses;
  /**
   * Points of `lines` where the file marks the start of a segment (Cairn's own exports): the import splits
   * there, so an exported itinerary comes back with the same segments.
   */
  segmentStarts?: Set<Position>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A description property: a string, or (KML through togeojson) `{ '@type': 'html', value }`. */
const descriptionOf = (v: unknown): string | undefined => cleanDescription(isObject(v) ? v.value : v);

/**
 * A point's description: each description property that says something (DESCRIPTION_PROPERTIES: KML and
 * GeoJSON `description`, GPX `desc`, then its comment `cmt`) once, joined by a blank line, so a GPX waypoint
 * with both keeps both. Cut to the length a description may have, like the itinerary's.
 */
function pointDescription(props: Json): string | undefined {
  const parts = new Set(DESCRIPTION_PROPERTIES.map((key) => descriptionOf(props[key])).filter((text) => text !== undefined));
  return cleanDescription([...parts].join('\n\n'));
}

/** A position as numbers; anything unreadable or out of range is refused with its index in the file. */
function position(raw: unknown, index: () => number): Position {
  const n = index();
  const p = Array.isArray(raw) ? raw : [];
  const [lon, lat, ele] = p as unknown[];
  if (
    typeof lon !== 'number' ||
    typeof lat !== 'number' ||
    !Number.isFinite(lon) ||
    !Number.isFinite(lat) ||
    Math.abs(lon) > 180 ||
    Math.abs(lat) > 90
  ) {
    throw new ImportProblem('out_of_range', { index: n });
  }
  return typeof ele === 'number' && Number.isFinite(ele) ? [lon, lat, ele] : [lon, lat];
}

export interface FeatureReading {
  /** Which LineString features count as lines (GPX: tracks, or routes when the file has no track). */
  lineFeature?: (properties: Json) => boolean;
  /** Property holding a waypoint's kind (GPX: `type`; KML and GeoJSON: `kind`). */
  kindProperty: string;
  /**
   * Whether a point may be mere track decoration. GPX keeps waypoints (`wpt`) apart from track points, so
   * its points are all waypoints; KML and GeoJSON have only Points, which converters also use to draw
   * every track point.
   */
  pointsMayDecorate: boolean;
  /**
   * Whether lines' properties are counted as losses here. GPX counts them on the document instead
   * (gpx-losses.ts): togeojson copies a track's first point's extensions onto the track's properties.
   */
  countLineProperties: boolean;
}

/** Cairn's GeoJSON export: one LineString Feature per segment, marked by its `engine` and `position`. */
const isCairnSegment = (props: Json) => typeof props.engine === 'string' && typeof props.position === 'number';

/** Cairn's KML export: one line with the index of each segment's first point (`segment_starts`, "0 12 40"). */
function markedStarts(props: Json): number[] {
  const value = props.segment_starts;
  if (typeof value !== 'string' || !/^\s*\d+(?:\s+\d+)*\s*$/.test(value)) return [];
  return value.trim().split(/\s+/).map(Number);
}

/**
 * Lines and waypoints of a GeoJSON object (FeatureCollection, Feature or bare geometry), in document order.
 * Polygons and other geometries are ignored.
 */
export function readFeatures(
  root: unknown,
  reading: FeatureReading,
): Pick<ImportedTrack, 'lines' | 'waypoints' | 'losses' | 'segmentStarts'> {
  const lines: Position[][] = [];
  const waypoints: ImportedWaypoint[] = [];
  const losses: Losses = {};
  const segmentStarts = new Set<Position>();
  let seen = 0;
  const next = () => ++seen; // 1-based, as a person counts points in a file

  const waypoint = (coords: unknown, props: Json) => {
    const w: ImportedWaypoint = { coordinates: position(coords, next) };
    const name = cleanName(props.name);
    // Devices (Garmin's GPX) give a symbol rather than a type: the symbol is the kind then.
    const kind = cleanName(props[reading.kindProperty], KIND_MAX) ?? cleanName(props.sym, KIND_MAX);
    const description = pointDescription(props);
    if (name) w.name = name;
    if (kind) w.kind = kind;
    if (description) w.description = description;
    const lost = pointLosses(props, reading.kindProperty, kind);
    if (lost.length > 0) w.losses = lost;
    // `position` is what Cairn's own KML and GeoJSON exports give every waypoint, named or not.
    const own = name || kind || description || props.position !== undefined;
    if (reading.pointsMayDecorate && !own) w.bare = true;
    waypoints.push(w);
  };
  const line = (coords: unknown, props: Json) => {
    if (!Array.isArray(coords)) throw new ImportProblem('not_geojson');
    const points = coords.map((c) => position(c, next));
    lines.push(points);
    if (isCairnSegment(props) && points[0]) segmentStarts.add(points[0]);
    for (const i of markedStarts(props)) if (points[i]) segmentStarts.add(points[i]);
  };
  const geometry = (g: unknown, props: Json, takeLines: boolean) => {
    if (!isObject(g)) return;
    switch (g.type) {
      case 'Point':
        return waypoint(g.coordinates, props);
      case 'MultiPoint':
        for (const c of Array.isArray(g.coordinates) ? g.coordinates : []) waypoint(c, props);
        return;
      case 'LineString':
        if (takeLines) line(g.coordinates, props);
        return;
      case 'MultiLineString':
        if (takeLines) for (const l of Array.isArray(g.coordinates) ? g.coordinates : []) line(l, props);
        return;
      case 'GeometryCollection':
        for (const member of Array.isArray(g.geometries) ? g.geometries : []) geometry(member, props, takeLines);
        return;
      default:
        // Polygons: an itinerary is a line; the area is not kept.
        if (typeof g.type === 'string') addLoss(losses, 'other_geometry');
        return;
    }
  };
  const feature = (f: Json) => {
    const props = isObject(f.properties) ? f.properties : {};
    const takeLines = reading.lineFeature ? reading.lineFeature(props) : true;
    geometry(f.geometry, props, takeLines);
    const g = f.geometry;
    const holdsLine = isObject(g) && /LineString$/.test(String(g.type));
    if (takeLines && holdsLine && reading.countLineProperties) countLineLosses(props, losses);
  };

  if (!isObject(root)) throw new ImportProblem('not_geojson');
  if (root.type === 'FeatureCollection') {
    if (!Array.isArray(root.features)) throw new ImportProblem('not_geojson');
    for (const f of root.features) if (isObject(f)) feature(f);
  } else if (root.type === 'Feature') {
    feature(root);
  } else if (
    ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'GeometryCollection', 'Polygon', 'MultiPolygon'].includes(String(root.type))
  ) {
    geometry(root, {}, true);
  } else {
    throw new ImportProblem('not_geojson');
  }
  return { lines, waypoints, losses, segmentStarts };
}

export { isObject };
