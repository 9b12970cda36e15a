// Short distances on a local equirectangular plane: metres east and north of a reference point. Close enough
// (a fraction of a percent) over the few tens of kilometres a walk or an isochrone spans, and cheap; exact
// lengths along lines come from the geometry kernels and the haversine (data/region/geo.ts).

/** Metres per degree of latitude. */
export const M_PER_DEG_LAT = 110_540;

/** Metres per degree of longitude at latitude `lat` (degrees). */
export function metresPerDegLon(lat: number): number {
  return 111_320 * Math.cos((lat * Math.PI) / 180);
}
