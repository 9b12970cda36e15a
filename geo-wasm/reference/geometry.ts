// Plain-TS twin of the geometry WASM kernels: same signatures and arithmetic, scalar, no copies.
import type { DemGrid } from '../../data/region/dem-grid.js';
import {
  DEFAULT_GAIN_OPTIONS,
  type Gain,
  type GainOptions,
  type GeometryFailure,
  type NearestPoint,
  type PointOnLine,
  STATUS,
  type Stride,
  failureFor,
  vertexCount,
} from '../src/geometry.js';

const EARTH_RADIUS = 6371008.8;
const DEG = Math.PI / 180;
const HALF_DEG = Math.PI / 360;
const SHORT_RAD = 0.005;
const ANCHOR_RAD = 0.1;
const M_PER_DEG = EARTH_RADIUS * DEG;
const VOID = -32768;

let phi0 = 0;
let cosPhi0 = 1;
let sinPhi0 = 0;

function anchor(phi: number): void {
  phi0 = phi;
  cosPhi0 = cosLat(phi);
  sinPhi0 = sinLat(phi);
}

// cos and sin of a latitude (|x| <= pi/2) by Taylor polynomials, so that the twin computes the same bits
// as the kernel (Math.cos differs by an ulp between V8 and AssemblyScript). Truncation < 1e-19 at pi/2.
function cosLat(x: number): number {
  if (!(Math.abs(x) <= 1.5707963267948966)) return Math.cos(x);
  const x2 = x * x;
  return 1 - x2 * (1 / 2.0 - x2 * (1 / 24.0 - x2 * (1 / 720.0 - x2 * (1 / 40320.0 - x2 * (1 / 3628800.0 - x2 * (1 / 479001600.0 - x2 * (1 / 87178291200.0 - x2 * (1 / 20922789888000.0 - x2 * (1 / 6402373705728000.0 - x2 * (1 / 2432902008176640000.0 - x2 * (1 / 1.1240007277776077e21)))))))))));
}

function sinLat(x: number): number {
  if (!(Math.abs(x) <= 1.5707963267948966)) return Math.sin(x);
  const x2 = x * x;
  return x * (1 - x2 * (1 / 6.0 - x2 * (1 / 120.0 - x2 * (1 / 5040.0 - x2 * (1 / 362880.0 - x2 * (1 / 39916800.0 - x2 * (1 / 6227020800.0 - x2 * (1 / 1307674368000.0 - x2 * (1 / 355687428096000.0 - x2 * (1 / 121645100408832000.0 - x2 * (1 / 5.109094217170944e19)))))))))));
}


function cosNear(d: number): number {
  const d2 = d * d;
  const cd = 1 - d2 * (0.5 - d2 * (1 / 24 - d2 * (1 / 720)));
  const sd = d * (1 - d2 * (1 / 6 - d2 * (1 / 120)));
  return cosPhi0 * cd - sinPhi0 * sd;
}

function haversineMetres(lon0: number, lat0: number, lon1: number, lat1: number): number {
  const sdlat = Math.sin((lat1 - lat0) * HALF_DEG);
  const sdlon = Math.sin((lon1 - lon0) * HALF_DEG);
  const a = sdlat * sdlat + Math.cos(lat0 * DEG) * Math.cos(lat1 * DEG) * sdlon * sdlon;
  return 2 * EARTH_RADIUS * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

function segmentMetres(lon0: number, lat0: number, lon1: number, lat1: number): number {
  const dlon = (lon1 - lon0) * DEG;
  const dlat = (lat1 - lat0) * DEG;
  let m = (lat0 + lat1) * HALF_DEG - phi0;
  if (Math.abs(dlon) <= SHORT_RAD && Math.abs(dlat) <= SHORT_RAD) {
    if (Math.abs(m) > ANCHOR_RAD) {
      anchor((lat0 + lat1) * HALF_DEG);
      m = 0;
    }
    const x = cosNear(m) * dlon;
    return EARTH_RADIUS * Math.sqrt(dlat * dlat + x * x);
  }
  return haversineMetres(lon0, lat0, lon1, lat1);
}

function segmentAt(c: Float64Array, stride: number, j: number): number {
  const a = j * stride;
  const b = a + stride;
  return segmentMetres(c[a] as number, c[a + 1] as number, c[b] as number, c[b + 1] as number);
}

export function lineLength(coords: Float64Array, stride: Stride = 2): number | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  let total = 0;
  if (n >= 2) {
    anchor((coords[1] as number) * DEG);
    for (let j = 0; j < n - 1; j++) total += segmentAt(coords, stride, j);
  }
  return total;
}

export function cumulativeDistances(coords: Float64Array, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (n < 1) return failureFor(STATUS.TOO_FEW_VERTICES);
  const out = new Float64Array(n);
  if (n >= 2) {
    anchor((coords[1] as number) * DEG);
    let total = 0;
    for (let j = 0; j < n - 1; j++) {
      total += segmentAt(coords, stride, j);
      out[j + 1] = total;
    }
  }
  return out;
}

function lerpInto(c: Float64Array, stride: number, j: number, f: number, dst: Float64Array, at: number): void {
  const a = j * stride;
  for (let k = 0; k < stride; k++) {
    const va = c[a + k] as number;
    dst[at + k] = va + ((c[a + stride + k] as number) - va) * f;
  }
}

export function along(coords: Float64Array, distance: number, stride: Stride = 2): PointOnLine | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (n < 1) return failureFor(STATUS.TOO_FEW_VERTICES);
  if (Number.isNaN(distance)) return failureFor(STATUS.BAD_ARGUMENT);
  let j = 0;
  let f = 0;
  if (n >= 2 && distance > 0) {
    anchor((coords[1] as number) * DEG);
    let acc = 0;
    j = -1;
    for (let s = 0; s < n - 1; s++) {
      const l = segmentAt(coords, stride, s);
      if (acc + l >= distance) {
        j = s;
        f = l > 0 ? (distance - acc) / l : 0;
        break;
      }
      acc += l;
    }
    if (j < 0) {
      j = n - 2;
      f = 1;
    }
  }
  const p = new Float64Array(3);
  p[2] = NaN;
  if (n === 1) p.set(coords.subarray(0, stride));
  else lerpInto(coords, stride, j, f, p, 0);
  return { lon: p[0] as number, lat: p[1] as number, ele: p[2] as number, segment: j, fraction: f };
}

export function sliceLine(coords: Float64Array, from: number, to: number, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (n < 2) return failureFor(STATUS.TOO_FEW_VERTICES);
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return failureFor(STATUS.BAD_ARGUMENT);
  const d0 = Math.max(from, 0);
  const d1 = Math.max(to, 0);
  const out = new Float64Array((n + 2) * stride);
  const lastAt = (n - 1) * stride;
  anchor((coords[1] as number) * DEG);
  let j = 0;
  let acc = 0;
  let l = 0;
  let found = false;
  for (; j < n - 1; j++) {
    l = segmentAt(coords, stride, j);
    if (acc + l >= d0) {
      found = true;
      break;
    }
    acc += l;
  }
  if (!found) {
    out.set(coords.subarray(lastAt, lastAt + stride), 0);
    out.set(coords.subarray(lastAt, lastAt + stride), stride);
    return out.slice(0, 2 * stride);
  }
  lerpInto(coords, stride, j, l > 0 ? (d0 - acc) / l : 0, out, 0);
  let count = 1;
  for (;;) {
    if (acc + l >= d1) {
      lerpInto(coords, stride, j, l > 0 ? (d1 - acc) / l : 0, out, count * stride);
      return out.slice(0, (count + 1) * stride);
    }
    acc += l;
    j++;
    if (acc > d0) {
      out.set(coords.subarray(j * stride, j * stride + stride), count * stride);
      count++;
    }
    if (j === n - 1) break;
    l = segmentAt(coords, stride, j);
  }
  if (!(acc > d0)) {
    out.set(coords.subarray(lastAt, lastAt + stride), count * stride);
    count++;
  }
  return out.slice(0, count * stride);
}

export function simplifyLine(coords: Float64Array, toleranceMetres: number, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (n < 1) return failureFor(STATUS.TOO_FEW_VERTICES);
  if (!(toleranceMetres >= 0)) return failureFor(STATUS.BAD_ARGUMENT);
  if (n <= 2) return coords.slice();
  let latMin = Infinity;
  let latMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const lat = coords[i * stride + 1] as number;
    latMin = Math.min(latMin, lat);
    latMax = Math.max(latMax, lat);
  }
  const latC = (latMin + latMax) * 0.5;
  const ky = EARTH_RADIUS * DEG;
  const kx = ky * cosLat(latC * DEG);
  const lon0 = coords[0] as number;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = ((coords[i * stride] as number) - lon0) * kx;
    ys[i] = ((coords[i * stride + 1] as number) - latC) * ky;
  }
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const sqTol = toleranceMetres * toleranceMetres;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    const ax = xs[first] as number;
    const ay = ys[first] as number;
    const bx = xs[last] as number;
    const by = ys[last] as number;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let best = sqTol;
    let idx = -1;
    for (let i = first + 1; i < last; i++) {
      const px = xs[i] as number;
      const py = ys[i] as number;
      let qx = ax;
      let qy = ay;
      if (dx !== 0 || dy !== 0) {
        const t = ((px - ax) * dx + (py - ay) * dy) / len2;
        if (t > 1) {
          qx = bx;
          qy = by;
        } else if (t > 0) {
          qx = ax + dx * t;
          qy = ay + dy * t;
        }
      }
      const ex = px - qx;
      const ey = py - qy;
      const d2 = ex * ex + ey * ey;
      if (d2 > best) {
        best = d2;
        idx = i;
      }
    }
    if (idx >= 0) {
      keep[idx] = 1;
      if (last - idx > 1) stack.push(idx, last);
      if (idx - first > 1) stack.push(first, idx);
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) count += keep[i] as number;
  const out = new Float64Array(count * stride);
  let o = 0;
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    for (let k = 0; k < stride; k++) out[o++] = coords[i * stride + k] as number;
  }
  return out;
}

export function nearestOnLine(coords: Float64Array, lon: number, lat: number, stride: Stride = 2): NearestPoint | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  if (n < 1) return failureFor(STATUS.TOO_FEW_VERTICES);
  if (Number.isNaN(lon) || Number.isNaN(lat)) return failureFor(STATUS.BAD_ARGUMENT);
  anchor(lat * DEG);
  // Project vertex by vertex, keeping the previous one, and test each segment as it closes.
  let best = Infinity;
  let seg = 0;
  let frac = 0;
  let ax = 0;
  let ay = 0;
  for (let i = 0; i < n; i++) {
    let dlon = (coords[i * stride] as number) - lon;
    const vlat = coords[i * stride + 1] as number;
    if (dlon > 180) dlon -= 360;
    else if (dlon < -180) dlon += 360;
    const m = (vlat - lat) * HALF_DEG;
    const c = Math.abs(m) <= ANCHOR_RAD ? cosNear(m) : cosLat((vlat + lat) * HALF_DEG);
    const bx = dlon * M_PER_DEG * c;
    const by = (vlat - lat) * M_PER_DEG;
    if (i === 0) {
      if (n === 1) best = bx * bx + by * by;
    } else {
      const dx = bx - ax;
      const dy = by - ay;
      const t = ((0 - ax) * dx + (0 - ay) * dy) / (dx * dx + dy * dy);
      let qx = ax;
      let qy = ay;
      let f = 0;
      if (t > 1) {
        qx = bx;
        qy = by;
        f = 1;
      } else if (t > 0) {
        qx = ax + dx * t;
        qy = ay + dy * t;
        f = t;
      }
      const d2 = qx * qx + qy * qy;
      if (d2 < best) {
        best = d2;
        seg = i - 1;
        frac = f;
      }
    }
    ax = bx;
    ay = by;
  }
  const p = new Float64Array(3);
  p[2] = NaN;
  if (n === 1) p.set(coords.subarray(0, stride));
  else lerpInto(coords, stride, seg, frac, p, 0);
  return { lon: p[0] as number, lat: p[1] as number, ele: p[2] as number, segment: seg, fraction: frac, distance: Math.sqrt(best) };
}

export function nearestOnSegment(
  lon0: number, lat0: number, lon1: number, lat1: number, lon: number, lat: number,
): NearestPoint | GeometryFailure {
  return nearestOnLine(new Float64Array([lon0, lat0, lon1, lat1]), lon, lat, 2);
}

export function sampleDem(grid: DemGrid, coords: Float64Array, stride: Stride = 2): Float64Array | GeometryFailure {
  const n = vertexCount(coords, stride);
  if (typeof n !== 'number') return n;
  const { cols, rows, west, north, cellDeg, samples } = grid;
  if (samples.length < cols * rows || cols < 2 || rows < 2 || !(cellDeg > 0)) return failureFor(STATUS.BAD_GRID);
  const out = new Float64Array(n);
  const inv = 1 / cellDeg;
  const maxX = cols - 1;
  const maxY = rows - 1;
  for (let i = 0; i < n; i++) {
    const fx = ((coords[i * stride] as number) - west) * inv;
    const fy = (north - (coords[i * stride + 1] as number)) * inv;
    let v = NaN;
    if (fx >= 0 && fy >= 0 && fx <= maxX && fy <= maxY) {
      const c = Math.min(Math.trunc(fx), cols - 2);
      const r = Math.min(Math.trunc(fy), rows - 2);
      const tx = fx - c;
      const ty = fy - r;
      const q = r * cols + c;
      const s00 = samples[q] as number;
      const s01 = samples[q + 1] as number;
      const s10 = samples[q + cols] as number;
      const s11 = samples[q + cols + 1] as number;
      const ux = 1 - tx;
      const uy = 1 - ty;
      if (s00 !== VOID && s01 !== VOID && s10 !== VOID && s11 !== VOID) {
        v = (s00 * ux + s01 * tx) * uy + (s10 * ux + s11 * tx) * ty;
      } else {
        let sum = 0;
        let wsum = 0;
        if (s00 !== VOID) { const w = ux * uy; sum += s00 * w; wsum += w; }
        if (s01 !== VOID) { const w = tx * uy; sum += s01 * w; wsum += w; }
        if (s10 !== VOID) { const w = ux * ty; sum += s10 * w; wsum += w; }
        if (s11 !== VOID) { const w = tx * ty; sum += s11 * w; wsum += w; }
        v = wsum > 0 ? sum / wsum : NaN;
      }
    }
    out[i] = v;
  }
  return out;
}

function profileGain(ele: Float64Array, eleOffset: number, eleStride: number, dist: Float64Array, n: number, window: number, threshold: number): Gain | GeometryFailure {
  if (!(window >= 0) || !(threshold >= 0)) return failureFor(STATUS.BAD_ARGUMENT);
  const S = new Float64Array(n);
  const E = new Float64Array(n);
  let m = 0;
  let base = 0;
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = dist[i] as number;
    if (!(s >= prev)) return failureFor(STATUS.BAD_ARGUMENT);
    prev = s;
    const e = ele[eleOffset + i * eleStride] as number;
    if (Number.isNaN(e)) continue;
    if (m === 0) base = e;
    S[m] = s;
    E[m] = e - base;
    m++;
  }
  if (m < 2) return { ascent: 0, descent: 0, samples: m };
  let Z = E;
  if (window > 0) {
    const P = new Float64Array(m);
    for (let j = 0; j < m - 1; j++) {
      P[j + 1] = (P[j] as number) + ((S[j + 1] as number) - (S[j] as number)) * ((E[j] as number) + (E[j + 1] as number)) * 0.5;
    }
    const integral = (s: number, j: number): number => {
      const s0 = S[j] as number;
      const e0 = E[j] as number;
      const ds = (S[j + 1] as number) - s0;
      const u = s - s0;
      const e = ds > 0 ? e0 + ((E[j + 1] as number) - e0) * (u / ds) : e0;
      return (P[j] as number) + u * (e0 + e) * 0.5;
    };
    Z = new Float64Array(m);
    const h = window * 0.5;
    const first = S[0] as number;
    const last = S[m - 1] as number;
    let jl = 0;
    let jh = 0;
    for (let k = 0; k < m; k++) {
      const sk = S[k] as number;
      const hk = Math.min(h, Math.min(sk - first, last - sk));
      const lo = sk - hk;
      const hi = sk + hk;
      let z = E[k] as number;
      if (hi > lo) {
        while (jl < m - 2 && (S[jl + 1] as number) <= lo) jl++;
        while (jh < m - 2 && (S[jh + 1] as number) < hi) jh++;
        z = (integral(hi, jh) - integral(lo, jl)) / (hi - lo);
      }
      Z[k] = z;
    }
  }
  let ascent = 0;
  let descent = 0;
  const z0 = Z[0] as number;
  let lo = z0;
  let hi = z0;
  let ref = z0;
  let ext = z0;
  let dir = 0;
  for (let k = 1; k < m; k++) {
    const z = Z[k] as number;
    if (dir === 0) {
      if (z < lo) lo = z;
      if (z > hi) hi = z;
      if (z - lo > threshold) { dir = 1; ref = lo; ext = z; }
      else if (hi - z > threshold) { dir = -1; ref = hi; ext = z; }
    } else if (dir > 0) {
      if (z > ext) ext = z;
      else if (ext - z > threshold) { ascent += ext - ref; ref = ext; ext = z; dir = -1; }
    } else {
      if (z < ext) ext = z;
      else if (z - ext > threshold) { descent += ref - ext; ref = ext; ext = z; dir = 1; }
    }
  }
  if (dir > 0) ascent += ext - ref;
  else if (dir < 0) descent += ref - ext;
  return { ascent, descent, samples: m };
}

export function elevationGain(elevations: Float64Array, distances: Float64Array, options: GainOptions = {}): Gain | GeometryFailure {
  if (distances.length !== elevations.length) return failureFor(STATUS.BAD_ARGUMENT);
  const { windowMetres, thresholdMetres } = { ...DEFAULT_GAIN_OPTIONS, ...options };
  return profileGain(elevations, 0, 1, distances, elevations.length, windowMetres, thresholdMetres);
}

export function lineGain(coords: Float64Array, options: GainOptions = {}): Gain | GeometryFailure {
  const n = vertexCount(coords, 3);
  if (typeof n !== 'number') return n;
  if (n === 0) return { ascent: 0, descent: 0, samples: 0 };
  const { windowMetres, thresholdMetres } = { ...DEFAULT_GAIN_OPTIONS, ...options };
  const dist = cumulativeDistances(coords, 3);
  if (!(dist instanceof Float64Array)) return dist;
  return profileGain(coords, 2, 3, dist, n, windowMetres, thresholdMetres);
}
