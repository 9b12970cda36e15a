// Small geodesy helpers on WGS84 degrees. `haversine` is the one great-circle distance in plain TypeScript
// (region building, point-to-point searches in the workers); lines are measured by the geometry kernels.

/** Mean Earth radius in metres (IUGG). */
export const EARTH_RADIUS_M = 6_371_008.8;

const RAD = Math.PI / 180;

/** Great-circle distance in metres between two lon/lat points in degrees. */
export function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A longitude as a fraction of the Web Mercator world's width (0 at 180° W, 1 at 180° E): × 2^z is a tile column. */
export function mercatorX(lon: number): number {
  return (lon + 180) / 360;
}

/** A latitude as a fraction of the Web Mercator world's height (0 at the top): × 2^z is a tile row. */
export function mercatorY(lat: number): number {
  const rad = Math.max(-85.05, Math.min(85.05, lat)) * RAD;
  return (1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2;
}

/** Metres along a meridian per degree of latitude. */
export const METRES_PER_DEGREE_LAT = (Math.PI / 180) * EARTH_RADIUS_M;

/** Metres along a parallel per degree of longitude at latitude `lat`. */
export function metresPerDegreeLon(lat: number): number {
  return (Math.PI / 180) * EARTH_RADIUS_M * Math.cos(lat * RAD);
}
