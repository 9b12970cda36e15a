// The geometry rules of a zone (DESIGN §16): POLYGON takes a GeoJSON Polygon (closed linear rings of at least
// four positions), CIRCLE a Point and radius_m > 0, CORRIDOR a LineString of at least two positions and
// width_m > 0. Positions are [lon, lat] or [lon, lat, ele] in degrees (metres). Returns one entry per bad field.

import type { ZoneMode } from '../../../data/model/zone.js';
import type { ErrorEntry } from '../../errors.js';

type Entry = Omit<ErrorEntry, 'code'>;
type Path = (string | number)[];

export interface ZoneShape {
  mode: ZoneMode;
  geometry: { type: string; coordinates: unknown };
  radiusM: number | null;
  widthM: number | null;
}

const GEOMETRY_OF: Record<ZoneMode, string> = { POLYGON: 'Polygon', CIRCLE: 'Point', CORRIDOR: 'LineString' };
/** Paths are relative to the zone's input (`['geometry','coordinates',0]`, `['radius_m']`). */
const entry = (path: Path, messageKey = 'VALIDATION_FAILED'): Entry => ({ path, messageKey });

/** Entries for a position that is not 2–3 finite numbers with lon in [-180, 180] and lat in [-90, 90]. */
function checkPosition(value: unknown, path: Path, out: Entry[]): boolean {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    out.push(entry(path, 'VALIDATION_FAILED.position'));
    return false;
  }
  const [lon, lat] = value as number[];
  let ok = true;
  if ((lon as number) < -180 || (lon as number) > 180) {
    out.push(entry([...path, 0], 'VALIDATION_FAILED.longitude'));
    ok = false;
  }
  if ((lat as number) < -90 || (lat as number) > 90) {
    out.push(entry([...path, 1], 'VALIDATION_FAILED.latitude'));
    ok = false;
  }
  return ok;
}

/** Checks a list of positions of at least `min`; true when every position is valid. */
function checkPositions(value: unknown, min: number, path: Path, out: Entry[]): value is number[][] {
  if (!Array.isArray(value) || value.length < min) {
    out.push(entry(path, 'VALIDATION_FAILED.too_few_positions'));
    return false;
  }
  let ok = true;
  value.forEach((p, i) => {
    if (!checkPosition(p, [...path, i], out)) ok = false;
  });
  return ok;
}

function checkCoordinates(mode: ZoneMode, coordinates: unknown, out: Entry[]): void {
  const path: Path = ['geometry', 'coordinates'];
  if (mode === 'CIRCLE') {
    checkPosition(coordinates, path, out);
    return;
  }
  if (mode === 'CORRIDOR') {
    checkPositions(coordinates, 2, path, out);
    return;
  }
  if (!Array.isArray(coordinates) || coordinates.length === 0) {
    out.push(entry(path, 'VALIDATION_FAILED.too_few_positions'));
    return;
  }
  coordinates.forEach((ring, r) => {
    const ringPath = [...path, r];
    if (!checkPositions(ring, 4, ringPath, out)) return;
    const first = ring[0] as number[];
    const last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1] || first[2] !== last[2]) {
      out.push(entry(ringPath, 'VALIDATION_FAILED.ring_not_closed'));
    }
  });
}

/**
 * Entries for everything wrong with the resulting shape. `given` says which of radius_m and width_m the request
 * itself carried: one carried for a mode that takes none is an error, a stored one is simply dropped.
 */
export function checkZoneShape(shape: ZoneShape, given: { radius: boolean; width: boolean }): Entry[] {
  const out: Entry[] = [];
  const expected = GEOMETRY_OF[shape.mode];
  if (shape.geometry.type !== expected) out.push(entry(['geometry', 'type'], 'VALIDATION_FAILED.geometry_type'));
  else checkCoordinates(shape.mode, shape.geometry.coordinates, out);
  if (shape.mode === 'CIRCLE' && shape.radiusM === null) out.push(entry(['radius_m'], 'VALIDATION_FAILED.required'));
  if (shape.mode !== 'CIRCLE' && given.radius) out.push(entry(['radius_m'], 'VALIDATION_FAILED.not_applicable'));
  if (shape.mode === 'CORRIDOR' && shape.widthM === null) out.push(entry(['width_m'], 'VALIDATION_FAILED.required'));
  if (shape.mode !== 'CORRIDOR' && given.width) out.push(entry(['width_m'], 'VALIDATION_FAILED.not_applicable'));
  return out;
}
