// Web Mercator tile arithmetic for tests: which tile holds a point.

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** The tile holding a point (lon, lat in degrees) at zoom z. */
export function tileAt(lon: number, lat: number, z: number): TileAddress {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

/** The same tile as a `z/x/y` path. */
export function tilePath([lon, lat]: readonly [number, number], z: number): string {
  const { x, y } = tileAt(lon, lat, z);
  return `${z}/${x}/${y}`;
}
