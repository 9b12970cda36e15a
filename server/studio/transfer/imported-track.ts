// What every import format is read into, and the GeoJSON walk that GPX, KML (through @tmcw/togeojson) and
// GeoJSON share.

import { ImportProblem } from './transfer-messages.js';

/** [lon, lat] or [lon, lat, ele]: degrees, degrees, metres. */
export type Position = number[];

export interface ImportedWaypoint {
  name?: string;
  kind?: string;
  coordinates: Position;
}

export interface ImportedTrack {
  /** The file's own name (GPX metadata, KML Document, GeoJSON `name`), when it has one. */
  name?: string;
  description?: string;
  /** The file's lines in document order (each track segment, route or LineString is one line). */
  lines: Position[][];
  waypoints: ImportedWaypoint[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** A position as numbers; anything unreadable or out of range is refused with its index in the file. */
function position(raw: unknown, index: () => number): Position {
  const n = index();
  const p = Array.isArray(raw) ? raw : [];
  const [lon, lat, ele] = p as unknown[];
  if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat) ||
    Math.abs(lon) > 180 || Math.abs(lat) > 90) {
    throw new ImportProblem('out_of_range', { index: n });
  }
  return typeof ele === 'number' && Number.isFinite(ele) ? [lon, lat, ele] : [lon, lat];
}

export interface FeatureReading {
  /** Which LineString features count as lines (GPX: tracks, or routes when the file has no track). */
  lineFeature?: (properties: Json) => boolean;
  /** Property holding a waypoint's kind (GPX: `type`; KML and GeoJSON: `kind`). */
  kindProperty: string;
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
    const name = text(props.name);
    const kind = text(props[reading.kindProperty]);
    if (name) w.name = name;
    if (kind) w.kind = kind;
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
  } else if (['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'GeometryCollection', 'Polygon', 'MultiPolygon'].includes(String(root.type))) {
    geometry(root, {}, true);
  } else {
    throw new ImportProblem('not_geojson');
  }
  return { lines, waypoints };
}

export { text as nonEmptyText, isObject };
