// Seeded random lines for the geometry tests: hiking-like tracks and wild lines (long segments, poles, antimeridian).

export { seededRandom as rng } from '../../data/seeded-random.js';

/** n vertices, stride 3, steps of minStep..maxStep metres (log-uniform) from (lon, lat), wandering heading. */
export function randomTrack(r: () => number, n: number, lon: number, lat: number, minStep = 3, maxStep = 30): Float64Array {
  const out = new Float64Array(n * 3);
  let heading = r() * 2 * Math.PI;
  let ele = 500 + r() * 2000;
  for (let i = 0; i < n; i++) {
    out[i * 3] = lon;
    out[i * 3 + 1] = lat;
    out[i * 3 + 2] = ele;
    heading += (r() - 0.5) * 1.2;
    const step = minStep * (maxStep / minStep) ** r();
    const k = Math.max(Math.cos(lat * (Math.PI / 180)), 0.02);
    lon += (Math.cos(heading) * step) / (111_195 * k);
    lat = Math.max(-89, Math.min(89, lat + (Math.sin(heading) * step) / 111_195));
    if (lon > 180) lon -= 360;
    if (lon < -180) lon += 360;
    ele += (r() - 0.5) * 8;
  }
  return out;
}

export function toStride2(c3: Float64Array): Float64Array {
  const n = c3.length / 3;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = c3[i * 3] as number;
    out[i * 2 + 1] = c3[i * 3 + 1] as number;
  }
  return out;
}

export function positions(c2: Float64Array): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < c2.length; i += 2) out.push([c2[i] as number, c2[i + 1] as number]);
  return out;
}
