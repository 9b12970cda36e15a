// Smoothed ascent and descent of an elevation profile: distance-window mean, then hysteresis.
import { ERR_ARGUMENT, ERR_TOO_FEW, setResult } from './memory';

/** Bytes of work region profileGain needs: S, E, prefix integral P and smoothed Z (f64 each). */
export function gainWorkBytes(n: i32): i32 {
  return 32 * n + 32;
}

let S: usize = 0;
let E: usize = 0;
let P: usize = 0;

function at(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

/** Integral of the piecewise-linear profile from S[0] to s, s within segment j (S[j] <= s <= S[j+1]). */
function integral(s: f64, j: i32): f64 {
  const s0 = at(S, j);
  const e0 = at(E, j);
  const ds = at(S, j + 1) - s0;
  const u = s - s0;
  const e = ds > 0.0 ? e0 + (at(E, j + 1) - e0) * (u / ds) : e0;
  return at(P, j) + u * (e0 + e) * 0.5;
}

/**
 * Ascent and descent in metres of the profile ele[i * eleStride] at distances dist[i] (metres,
 * non-decreasing). NaN elevations are skipped (the profile is linear across them). Each elevation is first
 * replaced by the mean of the piecewise-linear profile over [s - w, s + w], w = min(window/2, distance
 * to either end of the profile), so the end elevations are kept (window 0 = no smoothing); then a rise or fall counts, from trough to peak, once it exceeds
 * threshold (hysteresis). RESULT[0] = ascent, RESULT[1] = descent. Returns the number of samples used.
 */
export function profileGain(
  ele: usize, eleStride: i32, dist: usize, n: i32, window: f64, threshold: f64, work: usize,
): i32 {
  if (n < 0 || eleStride < 1) return ERR_TOO_FEW;
  if (!(window >= 0.0) || !(threshold >= 0.0)) return ERR_ARGUMENT;
  S = work;
  E = S + (<usize>n << 3);
  P = E + (<usize>n << 3);
  const Z = P + (<usize>n << 3);
  // Compact the valid samples; elevations relative to the first one keep the prefix integral small.
  let m = 0;
  let base = 0.0;
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = load<f64>(dist + (<usize>i << 3));
    if (!(s >= prev)) return ERR_ARGUMENT;
    prev = s;
    const e = load<f64>(ele + (<usize>(i * eleStride) << 3));
    if (isNaN(e)) continue;
    if (m == 0) base = e;
    store<f64>(S + (<usize>m << 3), s);
    store<f64>(E + (<usize>m << 3), e - base);
    m++;
  }
  setResult(0, 0.0);
  setResult(1, 0.0);
  if (m < 2) return m;

  if (window > 0.0) {
    store<f64>(P, 0.0);
    for (let j = 0; j < m - 1; j++) {
      store<f64>(P + (<usize>(j + 1) << 3), at(P, j) + (at(S, j + 1) - at(S, j)) * (at(E, j) + at(E, j + 1)) * 0.5);
    }
    const h = window * 0.5;
    const first = at(S, 0);
    const last = at(S, m - 1);
    let jl = 0;
    let jh = 0;
    for (let k = 0; k < m; k++) {
      const sk = at(S, k);
      // Near the ends the window shrinks symmetrically, so the first and last elevations stay as they are.
      const hk = min(h, min(sk - first, last - sk));
      const lo = sk - hk;
      const hi = sk + hk;
      let z = at(E, k);
      if (hi > lo) {
        while (jl < m - 2 && at(S, jl + 1) <= lo) jl++;
        while (jh < m - 2 && at(S, jh + 1) < hi) jh++;
        z = (integral(hi, jh) - integral(lo, jl)) / (hi - lo);
      }
      store<f64>(Z + (<usize>k << 3), z);
    }
  } else {
    memory.copy(Z, E, <usize>m << 3);
  }

  // Hysteresis: dir 0 until the first move beyond threshold from the extreme seen so far.
  let ascent = 0.0;
  let descent = 0.0;
  let z0 = at(Z, 0);
  let lo = z0;
  let hi = z0;
  let ref = z0;
  let ext = z0;
  let dir = 0;
  for (let k = 1; k < m; k++) {
    const z = at(Z, k);
    if (dir == 0) {
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
  setResult(0, ascent);
  setResult(1, descent);
  return m;
}
