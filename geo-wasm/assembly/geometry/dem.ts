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
  const origin = f64x2(west, north);
  const scale = f64x2(inv, -inv);
  const zero = f64x2.splat(0.0);
  const limit = f64x2(<f64>(cols - 1), <f64>(rows - 1));
  const rowBytes = <usize>cols << 1;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const f = f64x2.mul(f64x2.sub(v128.load(ptr + <usize>i * vb), origin), scale);
    let v = NaN;
    if (i64x2.all_true(v128.and(f64x2.ge(f, zero), f64x2.le(f, limit)))) {
      const fx = f64x2.extract_lane(f, 0);
      const fy = f64x2.extract_lane(f, 1);
      const c = min(<i32>fx, cols - 2);
      const r = min(<i32>fy, rows - 2);
      const tx = fx - <f64>c;
      const ty = fy - <f64>r;
      const q = grid + <usize>r * rowBytes + (<usize>c << 1);
      // Two neighbouring samples per 32-bit load (little-endian: the west one in the low half).
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
        v = (<f64>s00 * ux + <f64>s01 * tx) * uy + (<f64>s10 * ux + <f64>s11 * tx) * ty;
      } else {
        v = voidAware(s00, s01, s10, s11, ux, tx, uy, ty);
      }
    }
    if (v == v) found++;
    store<f64>(out + (<usize>i << 3), v);
  }
  return found;
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
