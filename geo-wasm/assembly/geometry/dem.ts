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
  const maxX = <f64>(cols - 1);
  const maxY = <f64>(rows - 1);
  const rowBytes = <usize>cols << 1;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const p = ptr + <usize>i * vb;
    const fx = (load<f64>(p) - west) * inv;
    const fy = (north - load<f64>(p + 8)) * inv;
    let v = NaN;
    if (fx >= 0.0 && fy >= 0.0 && fx <= maxX && fy <= maxY) {
      const c = min(<i32>fx, cols - 2);
      const r = min(<i32>fy, rows - 2);
      const tx = fx - <f64>c;
      const ty = fy - <f64>r;
      const q = grid + <usize>r * rowBytes + (<usize>c << 1);
      const s00 = <i32>load<i16>(q);
      const s01 = <i32>load<i16>(q + 2);
      const s10 = <i32>load<i16>(q + rowBytes);
      const s11 = <i32>load<i16>(q + rowBytes + 2);
      const ux = 1.0 - tx;
      const uy = 1.0 - ty;
      if (s00 != VOID && s01 != VOID && s10 != VOID && s11 != VOID) {
        v = (<f64>s00 * ux + <f64>s01 * tx) * uy + (<f64>s10 * ux + <f64>s11 * tx) * ty;
      } else {
        v = voidAware(s00, s01, s10, s11, ux, tx, uy, ty);
      }
    }
    if (!isNaN(v)) found++;
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
