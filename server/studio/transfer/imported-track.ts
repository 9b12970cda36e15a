// What every import format is read into, and the GeoJSON walk that GPX, KML (through @tmcw/togeojson) and
// GeoJSON share.

import { cleanDescription, cleanName, KIND_MAX } from './import-text.js';
import { ImportProblem } from './transfer-messages.js';

/** [lon, lat] or [lon, lat, ele]: degrees, degrees, metres. */
export type Position = number[];

export interface ImportedWaypoint {
  name?: string;
  kind?: string;
  coordinates: Position;
  /**
   * The file gives this point nothing of its own (no name, description, kind or position) and its format
   * does not mark it as a waypoint: on the line it is track decoration, not a waypoint (import-plan.ts).
   */
  bare?: true;
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
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A description property: a string, or (KML through togeojson) `{ '@type': 'html', value }`. */
const descriptionOf = (v: unknown): string | undefined => cleanDescription(isObject(v) ? v.value : v);

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
  /** Property holding a point's description (GPX: `desc`; KML and GeoJSON: `description`). */
  descriptionProperty: string;
  /**
   * Whether a point may be mere track decoration. GPX keeps waypoints (`wpt`) apart from track points, so
   * its points are all waypoints; KML and GeoJSON have only Points, which converters also use to draw
   * every track point.
   */
  pointsMayDecorate: boolean;
}

/**
 * Lines and waypoints of a GeoJSON object (FeatureCollection, Feature or bare geometry), in document order.
 * Polygons and other geometries are ignored.
 */
export function readFeatures(root: unknown, reading: FeatureReading): Pick<ImportedTrack, 'lines' | 'waypoints'> {
  const lines: Position[][] = [];
  const waypoints: ImportedWaypoint[] = [];
  let seen = 0;
  const next = () => ++seen; // 1-based, as a person counts points in a file

  const waypoint = (coords: unknown, props: Json) => {
    const w: ImportedWaypoint = { coordinates: position(coords, next) };
    const name = cleanName(props.name);
    const kind = cleanName(props[reading.kindProperty], KIND_MAX);
    if (name) w.name = name;
    if (kind) w.kind = kind;
    // `position` is what Cairn's own KML and GeoJSON exports give every waypoint, named or not.
    const own = name || kind || descriptionOf(props[reading.descriptionProperty]) || props.position !== undefined;
    if (reading.pointsMayDecorate && !own) w.bare = true;
    waypoints.push(w);
  };
  const line = (coords: unknown) => {
    if (!Array.isArray(coords)) throw new ImportProblem('not_geojson');
    lines.push(coords.map((c) => position(c, next)));
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
        if (takeLines) line(g.coordinates);
        return;
      case 'MultiLineString':
        if (takeLines) for (const l of Array.isArray(g.coordinates) ? g.coordinates : []) line(l);
        return;
      case 'GeometryCollection':
        for (const member of Array.isArray(g.geometries) ? g.geometries : []) geometry(member, props, takeLines);
        return;
      default:
        return;
    }
  };
  const feature = (f: Json) => {
    const props = isObject(f.properties) ? f.properties : {};
    geometry(f.geometry, props, reading.lineFeature ? reading.lineFeature(props) : true);
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
  return { lines, waypoints };
}

export { isObject };
