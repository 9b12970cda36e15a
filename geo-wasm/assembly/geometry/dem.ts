// Bilinear sampling of an SRTM-style elevation grid (data/region/dem-grid.ts) at many points, void-aware.
import { ERR_GRID, ERR_STRIDE, ERR_TOO_FEW } from './memory';

const VOID: i32 = -32768;

/**
 * Elevation in metres at each point (n, stride 2|3, degrees) into out (n f64). grid: cols * rows int16,
 * row 0 at the north edge, sample (r, c) at (west + c * cellDeg, north - r * cellDeg). Bilinear over the
 * four surrounding samples; void samples are left out and the remaining weights renormalised; NaN when
 * the point is outside the grid or every sample with a non-zero weight is void. Returns how many points
 * got a value.
 */
export function sampleDem(
  grid: usize, cols: i32, rows: i32, west: f64, north: f64, cellDeg: f64,
  ptr: usize, n: i32, stride: i32, out: usize,
): i32 {
  if (stride != 2 && stride != 3) return ERR_STRIDE;
  if (n < 0) return ERR_TOO_FEW;
  if (cols < 2 || rows < 2 || !(cellDeg > 0.0)) return ERR_GRID;
  const vb = <usize>stride << 3;
  const inv = 1.0 / cellDeg;
  // (fx, fy) = ((lon - west) * inv, (north - lat) * inv) in one f64x2 op: (lat - north) * -inv has the
  // same bits as (north - lat) * inv, since negation is exact.
  gOrigin = f64x2(west, north);
  gScale = f64x2(inv, -inv);
  gLimit = f64x2(<f64>(cols - 1), <f64>(rows - 1));
  gGrid = grid;
  gCols = cols;
  gRows = rows;
  const zero = f64x2.splat(0.0);
  const one = f64x2.splat(1.0);
  const colMax = i32x4.splat(cols - 2);
  const rowMax = i32x4.splat(rows - 2);
  const colsV = i32x4.splat(cols);
  const voidV = i32x4.splat(VOID);
  const rowBytes = <usize>cols << 1;
  let found = 0;
  let i = 0;
  // Two points per iteration; a pair with a point outside the grid or a void post goes the scalar way.
  for (; i + 1 < n; i += 2) {
    const fa = f64x2.mul(f64x2.sub(v128.load(ptr + <usize>i * vb), gOrigin), gScale);
    const fb = f64x2.mul(f64x2.sub(v128.load(ptr + <usize>(i + 1) * vb), gOrigin), gScale);
    const inside = v128.and(
      v128.and(f64x2.ge(fa, zero), f64x2.le(fa, gLimit)),
      v128.and(f64x2.ge(fb, zero), f64x2.le(fb, gLimit)),
    );
    if (i64x2.all_true(inside)) {
      const fx = v128.shuffle<f64>(fa, fb, 0, 2);
      const fy = v128.shuffle<f64>(fa, fb, 1, 3);
      const c = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(fx), colMax);
      const r = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(fy), rowMax);
      const at = i32x4.add(i32x4.mul(r, colsV), c);
      const q0 = grid + (<usize>i32x4.extract_lane(at, 0) << 1);
      const q1 = grid + (<usize>i32x4.extract_lane(at, 1) << 1);
      // (top0, top1, bottom0, bottom1): two neighbouring posts per 32-bit load, the west one in the low half.
      let rowsV = i32x4.splat(load<i32>(q0));
      rowsV = i32x4.replace_lane(rowsV, 1, load<i32>(q1));
      rowsV = i32x4.replace_lane(rowsV, 2, load<i32>(q0 + rowBytes));
      rowsV = i32x4.replace_lane(rowsV, 3, load<i32>(q1 + rowBytes));
      const west4 = i32x4.shr_s(i32x4.shl(rowsV, 16), 16); // s00 of both points, then s10
      const east4 = i32x4.shr_s(rowsV, 16); // s01, then s11
      if (!v128.any_true(v128.or(i32x4.eq(west4, voidV), i32x4.eq(east4, voidV)))) {
        const tx = f64x2.sub(fx, f64x2.convert_low_i32x4_s(c));
        const ty = f64x2.sub(fy, f64x2.convert_low_i32x4_s(r));
        const ux = f64x2.sub(one, tx);
        const uy = f64x2.sub(one, ty);
        const s00 = f64x2.convert_low_i32x4_s(west4);
        const s01 = f64x2.convert_low_i32x4_s(east4);
        const s10 = f64x2.convert_low_i32x4_s(v128.shuffle<i32>(west4, west4, 2, 3, 0, 1));
        const s11 = f64x2.convert_low_i32x4_s(v128.shuffle<i32>(east4, east4, 2, 3, 0, 1));
        const top = f64x2.add(f64x2.mul(s00, ux), f64x2.mul(s01, tx));
        const bottom = f64x2.add(f64x2.mul(s10, ux), f64x2.mul(s11, tx));
        v128.store(out + (<usize>i << 3), f64x2.add(f64x2.mul(top, uy), f64x2.mul(bottom, ty)));
        found += 2;
        continue;
      }
    }
    for (let k = i; k < i + 2; k++) {
      const v = samplePoint(ptr + <usize>k * vb);
      if (v == v) found++;
      store<f64>(out + (<usize>k << 3), v);
    }
  }
  if (i < n) {
    const v = samplePoint(ptr + <usize>i * vb);
    if (v == v) found++;
    store<f64>(out + (<usize>i << 3), v);
  }
  return found;
}

let gOrigin: v128 = f64x2.splat(0.0);
let gScale: v128 = f64x2.splat(0.0);
let gLimit: v128 = f64x2.splat(0.0);
let gGrid: usize = 0;
let gCols: i32 = 0;
let gRows: i32 = 0;

/** One point, scalar: the same arithmetic as the pair path, plus the void-aware fallback. */
function samplePoint(p: usize): f64 {
  const f = f64x2.mul(f64x2.sub(v128.load(p), gOrigin), gScale);
  if (!i64x2.all_true(v128.and(f64x2.ge(f, f64x2.splat(0.0)), f64x2.le(f, gLimit)))) return NaN;
  const fx = f64x2.extract_lane(f, 0);
  const fy = f64x2.extract_lane(f, 1);
  const c = min(<i32>fx, gCols - 2);
  const r = min(<i32>fy, gRows - 2);
  const tx = fx - <f64>c;
  const ty = fy - <f64>r;
  const rowBytes = <usize>gCols << 1;
  const q = gGrid + <usize>r * rowBytes + (<usize>c << 1);
  const top = load<i32>(q);
  const bottom = load<i32>(q + rowBytes);
  const s00 = <i32>(<i16>top);
  const s01 = top >> 16;
  const s10 = <i32>(<i16>bottom);
  const s11 = bottom >> 16;
  const ux = 1.0 - tx;
  const uy = 1.0 - ty;
  // VOID is the smallest int16, so one comparison of the minimum finds any void corner.
  if (min(min(s00, s01), min(s10, s11)) != VOID) {
    return (<f64>s00 * ux + <f64>s01 * tx) * uy + (<f64>s10 * ux + <f64>s11 * tx) * ty;
  }
  return voidAware(s00, s01, s10, s11, ux, tx, uy, ty);
}

function voidAware(s00: i32, s01: i32, s10: i32, s11: i32, ux: f64, tx: f64, uy: f64, ty: f64): f64 {
  let sum = 0.0;
  let wsum = 0.0;
  if (s00 != VOID) { const w = ux * uy; sum += <f64>s00 * w; wsum += w; }
  if (s01 != VOID) { const w = tx * uy; sum += <f64>s01 * w; wsum += w; }
  if (s10 != VOID) { const w = ux * ty; sum += <f64>s10 * w; wsum += w; }
  if (s11 != VOID) { const w = tx * ty; sum += <f64>s11 * w; wsum += w; }
  return wsum > 0.0 ? sum / wsum : NaN;
}
