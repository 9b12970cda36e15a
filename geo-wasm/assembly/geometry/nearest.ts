// Distance in metres from a point to a line: nearest point, segment index and fraction along it.
import { ERR_ARGUMENT, ERR_STRIDE, ERR_TOO_FEW, setResult } from './memory';
import { ANCHOR_RAD, DEG, EARTH_RADIUS, HALF_DEG, anchor, cosLat, cosNear, cosPhi0, sinPhi0 } from './project';

const M_PER_DEG: f64 = EARTH_RADIUS * DEG;

/** Bytes of work region nearestOnLine needs: projected X and Y (f64) of every vertex. */
export function nearestWorkBytes(n: i32): i32 {
  return 16 * n + 16;
}

/** Scalar projection of one vertex into the plane centred on (plon, plat); x into projX, y returned. */
let projX: f64 = 0.0;
function projectVertex(lon: f64, lat: f64, plon: f64, plat: f64): f64 {
  let dlon = lon - plon;
  if (dlon > 180.0) dlon -= 360.0;
  else if (dlon < -180.0) dlon += 360.0;
  const m = (lat - plat) * HALF_DEG;
  const c = Math.abs(m) <= ANCHOR_RAD ? cosNear(m) : cosLat((lat + plat) * HALF_DEG);
  projX = dlon * M_PER_DEG * c;
  return (lat - plat) * M_PER_DEG;
}

/**
 * Nearest point of the line (n >= 1, stride 2|3, degrees) to (plon, plat). Each vertex is placed on a
 * plane centred on the point with x = R * dlon * cos(mid latitude of point and vertex), y = R * dlat
 * (cos from the Taylor polynomial, no trig per vertex); segments are straight on that plane.
 * RESULT: [0] distance m, [1] lon, [2] lat, [3] elevation (NaN for stride 2), [4] fraction along the
 * segment. Returns the segment index (0 when n = 1). work: nearestWorkBytes(n).
 */
export function nearestOnLine(ptr: usize, n: i32, stride: i32, plon: f64, plat: f64, work: usize): i32 {
  if (stride != 2 && stride != 3) return ERR_STRIDE;
  if (n < 1) return ERR_TOO_FEW;
  if (isNaN(plon) || isNaN(plat)) return ERR_ARGUMENT;
  const vb = <usize>stride << 3;
  const xs = work;
  const ys = work + (<usize>n << 3);
  anchor(plat * DEG);

  // Pass 1: project every vertex, two at a time.
  const pv = f64x2(plon, plat);
  const halfDeg = f64x2.splat(HALF_DEG);
  const mPerDeg = f64x2.splat(M_PER_DEG);
  const one = f64x2.splat(1.0);
  let i = 0;
  while (i + 1 < n) {
    const a = v128.load(ptr + <usize>i * vb);
    const b = v128.load(ptr + <usize>(i + 1) * vb);
    const da = f64x2.sub(a, pv);
    const db = f64x2.sub(b, pv);
    const dlon = v128.shuffle<f64>(da, db, 0, 2);
    const dlat = v128.shuffle<f64>(da, db, 1, 3);
    const m = f64x2.mul(dlat, halfDeg);
    const slow = v128.or(
      f64x2.gt(f64x2.abs(dlon), f64x2.splat(180.0)),
      f64x2.gt(f64x2.abs(m), f64x2.splat(ANCHOR_RAD)),
    );
    if (v128.any_true(slow)) {
      store<f64>(ys + (<usize>i << 3), projectVertex(f64x2.extract_lane(a, 0), f64x2.extract_lane(a, 1), plon, plat));
      store<f64>(xs + (<usize>i << 3), projX);
      store<f64>(ys + (<usize>(i + 1) << 3), projectVertex(f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1), plon, plat));
      store<f64>(xs + (<usize>(i + 1) << 3), projX);
    } else {
      const d2 = f64x2.mul(m, m);
      const cd = f64x2.sub(one, f64x2.mul(d2, f64x2.sub(f64x2.splat(0.5), f64x2.mul(d2, f64x2.sub(f64x2.splat(1.0 / 24.0), f64x2.mul(d2, f64x2.splat(1.0 / 720.0)))))));
      const sd = f64x2.mul(m, f64x2.sub(one, f64x2.mul(d2, f64x2.sub(f64x2.splat(1.0 / 6.0), f64x2.mul(d2, f64x2.splat(1.0 / 120.0))))));
      const c = f64x2.sub(f64x2.mul(f64x2.splat(cosPhi0), cd), f64x2.mul(f64x2.splat(sinPhi0), sd));
      v128.store(xs + (<usize>i << 3), f64x2.mul(f64x2.mul(dlon, mPerDeg), c));
      v128.store(ys + (<usize>i << 3), f64x2.mul(dlat, mPerDeg));
    }
    i += 2;
  }
  if (i < n) {
    const a = ptr + <usize>i * vb;
    store<f64>(ys + (<usize>i << 3), projectVertex(load<f64>(a), load<f64>(a + 8), plon, plat));
    store<f64>(xs + (<usize>i << 3), projX);
  }
  return nearestSegment(ptr, n, stride, xs, ys);
}

/** Pass 2: the first segment nearest the origin of the plane, two segments at a time; fills RESULT. */
function nearestSegment(ptr: usize, n: i32, stride: i32, xs: usize, ys: usize): i32 {
  const vb = <usize>stride << 3;
  if (n == 1) {
    const x = load<f64>(xs);
    const y = load<f64>(ys);
    setResult(0, Math.sqrt(x * x + y * y));
    setResult(1, load<f64>(ptr));
    setResult(2, load<f64>(ptr + 8));
    setResult(3, stride == 3 ? load<f64>(ptr + 16) : NaN);
    setResult(4, 0.0);
    return 0;
  }
  const zero = f64x2.splat(0.0);
  const one = f64x2.splat(1.0);
  let best = f64x2.splat(Infinity);
  let bestIdx = f64x2.splat(-1.0);
  let idx = f64x2(0.0, 1.0);
  const two = f64x2.splat(2.0);
  let j = 0;
  while (j + 2 < n) {
    const ax = v128.load(xs + (<usize>j << 3));
    const ay = v128.load(ys + (<usize>j << 3));
    const bx = v128.load(xs + (<usize>(j + 1) << 3));
    const by = v128.load(ys + (<usize>(j + 1) << 3));
    const dx = f64x2.sub(bx, ax);
    const dy = f64x2.sub(by, ay);
    const t = f64x2.div(
      f64x2.add(f64x2.mul(f64x2.sub(zero, ax), dx), f64x2.mul(f64x2.sub(zero, ay), dy)),
      f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy)),
    );
    const above = f64x2.gt(t, one);
    const inside = f64x2.gt(t, zero);
    const qx = v128.bitselect(bx, v128.bitselect(f64x2.add(ax, f64x2.mul(dx, t)), ax, inside), above);
    const qy = v128.bitselect(by, v128.bitselect(f64x2.add(ay, f64x2.mul(dy, t)), ay, inside), above);
    const d2 = f64x2.add(f64x2.mul(qx, qx), f64x2.mul(qy, qy));
    const better = f64x2.lt(d2, best);
    best = v128.bitselect(d2, best, better);
    bestIdx = v128.bitselect(idx, bestIdx, better);
    idx = f64x2.add(idx, two);
    j += 2;
  }
  let m0 = f64x2.extract_lane(best, 0);
  let i0 = f64x2.extract_lane(bestIdx, 0);
  const m1 = f64x2.extract_lane(best, 1);
  const i1 = f64x2.extract_lane(bestIdx, 1);
  if (m1 < m0 || (m1 == m0 && i1 >= 0.0 && (i0 < 0.0 || i1 < i0))) {
    m0 = m1;
    i0 = i1;
  }
  if (j + 1 < n) {
    const d2 = segmentSq(xs, ys, j);
    if (d2 < m0) {
      m0 = d2;
      i0 = <f64>j;
    }
  }
  const seg = i0 < 0.0 ? 0 : <i32>i0; // every distance NaN (NaN input): report segment 0, like the twin
  segmentSq(xs, ys, seg);
  const f = lastT;
  const a = ptr + <usize>seg * vb;
  setResult(0, Math.sqrt(m0));
  for (let k = 0; k < stride; k++) {
    const va = load<f64>(a + (<usize>k << 3));
    setResult(1 + k, va + (load<f64>(a + vb + (<usize>k << 3)) - va) * f);
  }
  if (stride == 2) setResult(3, NaN);
  setResult(4, f);
  return seg;
}

let lastT: f64 = 0.0;

/** Squared distance from the origin to segment j on the plane; lastT = the clamped fraction. */
function segmentSq(xs: usize, ys: usize, j: i32): f64 {
  const ax = load<f64>(xs + (<usize>j << 3));
  const ay = load<f64>(ys + (<usize>j << 3));
  const bx = load<f64>(xs + (<usize>(j + 1) << 3));
  const by = load<f64>(ys + (<usize>(j + 1) << 3));
  const dx = bx - ax;
  const dy = by - ay;
  const t = ((0.0 - ax) * dx + (0.0 - ay) * dy) / (dx * dx + dy * dy);
  let qx = ax;
  let qy = ay;
  lastT = 0.0;
  if (t > 1.0) {
    qx = bx;
    qy = by;
    lastT = 1.0;
  } else if (t > 0.0) {
    qx = ax + dx * t;
    qy = ay + dy * t;
    lastT = t;
  }
  return qx * qx + qy * qy;
}
