// Douglas-Peucker simplification with a tolerance in metres, on a per-line equirectangular projection.
import { ERR_ARGUMENT, ERR_STRIDE, ERR_TOO_FEW, copyVertex } from './memory';
import { DEG, EARTH_RADIUS, cosLat } from './project';

/** Bytes of work region simplify needs for n vertices: X, Y (f64), keep flags (u8, padded), stack (2n i32). */
export function simplifyWorkBytes(n: i32): i32 {
  return 8 * n + 8 * n + ((n + 15) & ~15) + 8 * n;
}

/**
 * Keeps the vertices of the line (n, stride 2|3, degrees) that Douglas-Peucker needs so that no dropped
 * vertex lies farther than tol metres from the kept line; first and last are always kept. Writes the
 * kept vertices (full stride) to out and returns their count. Distances are squared segment distances
 * (as simplify-js) on x = (lon - lon[0]) * R * cos(phic), y = (lat - phic) * R, phic the middle of the
 * line's latitude range.
 */
export function simplify(ptr: usize, n: i32, stride: i32, tol: f64, out: usize, work: usize): i32 {
  if (stride != 2 && stride != 3) return ERR_STRIDE;
  if (n < 1) return ERR_TOO_FEW;
  if (!(tol >= 0.0)) return ERR_ARGUMENT;
  const vb = <usize>stride << 3;
  if (n <= 2) {
    memory.copy(out, ptr, <usize>n * vb);
    return n;
  }
  const xs = work;
  const ys = xs + (<usize>n << 3);
  const keep = ys + (<usize>n << 3);
  const stack = keep + <usize>((n + 15) & ~15);

  let latMin = Infinity;
  let latMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const lat = load<f64>(ptr + <usize>i * vb + 8);
    latMin = min(latMin, lat);
    latMax = max(latMax, lat);
  }
  const latC = (latMin + latMax) * 0.5;
  const ky = EARTH_RADIUS * DEG;
  const kx = ky * cosLat(latC * DEG);
  const lon0 = load<f64>(ptr);
  const origin = f64x2(lon0, latC);
  const scale = f64x2(kx, ky);
  for (let i = 0; i < n; i++) {
    const v = f64x2.mul(f64x2.sub(v128.load(ptr + <usize>i * vb), origin), scale);
    store<f64>(xs + (<usize>i << 3), f64x2.extract_lane(v, 0));
    store<f64>(ys + (<usize>i << 3), f64x2.extract_lane(v, 1));
  }
  memory.fill(keep, 0, <usize>n);
  store<u8>(keep, 1);
  store<u8>(keep + <usize>(n - 1), 1);

  const sqTol = tol * tol;
  let top = 0;
  store<i32>(stack, 0);
  store<i32>(stack + 4, n - 1);
  top = 1;
  while (top > 0) {
    top--;
    const first = load<i32>(stack + (<usize>top << 3));
    const last = load<i32>(stack + (<usize>top << 3) + 4);
    const idx = farthest(xs, ys, first, last, sqTol);
    if (idx >= 0) {
      store<u8>(keep + <usize>idx, 1);
      // Push the right half first so the left is processed first (order does not change the result).
      if (last - idx > 1) {
        store<i32>(stack + (<usize>top << 3), idx);
        store<i32>(stack + (<usize>top << 3) + 4, last);
        top++;
      }
      if (idx - first > 1) {
        store<i32>(stack + (<usize>top << 3), first);
        store<i32>(stack + (<usize>top << 3) + 4, idx);
        top++;
      }
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (load<u8>(keep + <usize>i) != 0) {
      copyVertex(out + <usize>count * vb, ptr + <usize>i * vb, stride);
      count++;
    }
  }
  return count;
}

/** Index in (first, last) of the first vertex farthest from segment first-last if beyond sqTol, else -1. */
function farthest(xs: usize, ys: usize, first: i32, last: i32, sqTol: f64): i32 {
  const ax = load<f64>(xs + (<usize>first << 3));
  const ay = load<f64>(ys + (<usize>first << 3));
  const bx = load<f64>(xs + (<usize>last << 3));
  const by = load<f64>(ys + (<usize>last << 3));
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const vax = f64x2.splat(ax);
  const vay = f64x2.splat(ay);
  const vbx = f64x2.splat(bx);
  const vby = f64x2.splat(by);
  const vdx = f64x2.splat(dx);
  const vdy = f64x2.splat(dy);
  const vlen2 = f64x2.splat(len2);
  const zero = f64x2.splat(0.0);
  const one = f64x2.splat(1.0);
  let best = f64x2.splat(sqTol);
  let bestIdx = f64x2.splat(-1.0);
  let idx = f64x2(<f64>(first + 1), <f64>(first + 2));
  const two = f64x2.splat(2.0);
  let i = first + 1;
  while (i + 1 < last) {
    const px = v128.load(xs + (<usize>i << 3));
    const py = v128.load(ys + (<usize>i << 3));
    const t = f64x2.div(
      f64x2.add(f64x2.mul(f64x2.sub(px, vax), vdx), f64x2.mul(f64x2.sub(py, vay), vdy)),
      vlen2,
    );
    const above = f64x2.gt(t, one);
    const inside = f64x2.gt(t, zero);
    const qx = v128.bitselect(vbx, v128.bitselect(f64x2.add(vax, f64x2.mul(vdx, t)), vax, inside), above);
    const qy = v128.bitselect(vby, v128.bitselect(f64x2.add(vay, f64x2.mul(vdy, t)), vay, inside), above);
    const ex = f64x2.sub(px, qx);
    const ey = f64x2.sub(py, qy);
    const d2 = f64x2.add(f64x2.mul(ex, ex), f64x2.mul(ey, ey));
    const better = f64x2.gt(d2, best);
    best = v128.bitselect(d2, best, better);
    bestIdx = v128.bitselect(idx, bestIdx, better);
    idx = f64x2.add(idx, two);
    i += 2;
  }
  let m0 = f64x2.extract_lane(best, 0);
  let i0 = f64x2.extract_lane(bestIdx, 0);
  const m1 = f64x2.extract_lane(best, 1);
  const i1 = f64x2.extract_lane(bestIdx, 1);
  if (m1 > m0 || (m1 == m0 && i1 >= 0.0 && (i0 < 0.0 || i1 < i0))) {
    m0 = m1;
    i0 = i1;
  }
  if (i < last) {
    const px = load<f64>(xs + (<usize>i << 3));
    const py = load<f64>(ys + (<usize>i << 3));
    let qx = ax;
    let qy = ay;
    if (dx != 0.0 || dy != 0.0) {
      const t = ((px - ax) * dx + (py - ay) * dy) / len2;
      if (t > 1.0) {
        qx = bx;
        qy = by;
      } else if (t > 0.0) {
        qx = ax + dx * t;
        qy = ay + dy * t;
      }
    }
    const ex = px - qx;
    const ey = py - qy;
    const d2 = ex * ex + ey * ey;
    if (d2 > m0) {
      m0 = d2;
      i0 = <f64>i;
    }
  }
  return <i32>i0;
}
