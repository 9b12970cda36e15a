// Trig-free local measures on the sphere: the segment length every kernel shares, and its exact fallback.
//
// A segment's length is R * sqrt(dphi^2 + (cos(phi_m) * dlambda)^2) with phi_m its mid latitude (the
// "equirectangular at the mid latitude" distance). cos(phi_m) comes from a Taylor polynomial around an
// anchor latitude phi0 (one Math.cos/Math.sin per anchor, re-anchored when |phi_m - phi0| > ANCHOR_RAD),
// so the hot loop has no trig. Segments with |dphi| or |dlambda| > SHORT_RAD (about 32 km) use the exact
// haversine instead. Bounds are in geo-wasm/README.md and checked by test/geo-wasm/geometry.test.ts.

export const EARTH_RADIUS: f64 = 6371008.8; // metres, the mean radius turf uses
export const DEG: f64 = Math.PI / 180.0;
export const HALF_DEG: f64 = Math.PI / 360.0;
export const SHORT_RAD: f64 = 0.005;
export const ANCHOR_RAD: f64 = 0.1;

export let phi0: f64 = 0.0;
export let cosPhi0: f64 = 1.0;
export let sinPhi0: f64 = 0.0;

export function anchor(phi: f64): void {
  phi0 = phi;
  cosPhi0 = cosLat(phi);
  sinPhi0 = sinLat(phi);
}

// cos and sin of a latitude (|x| <= pi/2) by Taylor polynomials, so that the twin computes the same bits
// as the kernel (Math.cos differs by an ulp between V8 and AssemblyScript). Truncation < 1e-19 at pi/2.
export function cosLat(x: f64): f64 {
  if (!(Math.abs(x) <= 1.5707963267948966)) return Math.cos(x);
  const x2 = x * x;
  return 1.0 - x2 * (1.0 / 2.0 - x2 * (1.0 / 24.0 - x2 * (1.0 / 720.0 - x2 * (1.0 / 40320.0 - x2 * (1.0 / 3628800.0 - x2 * (1.0 / 479001600.0 - x2 * (1.0 / 87178291200.0 - x2 * (1.0 / 20922789888000.0 - x2 * (1.0 / 6402373705728000.0 - x2 * (1.0 / 2432902008176640000.0 - x2 * (1.0 / 1.1240007277776077e21)))))))))));
}

export function sinLat(x: f64): f64 {
  if (!(Math.abs(x) <= 1.5707963267948966)) return Math.sin(x);
  const x2 = x * x;
  return x * (1.0 - x2 * (1.0 / 6.0 - x2 * (1.0 / 120.0 - x2 * (1.0 / 5040.0 - x2 * (1.0 / 362880.0 - x2 * (1.0 / 39916800.0 - x2 * (1.0 / 6227020800.0 - x2 * (1.0 / 1307674368000.0 - x2 * (1.0 / 355687428096000.0 - x2 * (1.0 / 121645100408832000.0 - x2 * (1.0 / 5.109094217170944e19)))))))))));
}


/** cos(phi0 + d) for |d| <= ANCHOR_RAD; truncation error below 3e-11. */
export function cosNear(d: f64): f64 {
  const d2 = d * d;
  const cd = 1.0 - d2 * (0.5 - d2 * (1.0 / 24.0 - d2 * (1.0 / 720.0)));
  const sd = d * (1.0 - d2 * (1.0 / 6.0 - d2 * (1.0 / 120.0)));
  return cosPhi0 * cd - sinPhi0 * sd;
}

export function haversineMetres(lon0: f64, lat0: f64, lon1: f64, lat1: f64): f64 {
  const sdlat = Math.sin((lat1 - lat0) * HALF_DEG);
  const sdlon = Math.sin((lon1 - lon0) * HALF_DEG);
  const a = sdlat * sdlat + Math.cos(lat0 * DEG) * Math.cos(lat1 * DEG) * sdlon * sdlon;
  return 2.0 * EARTH_RADIUS * Math.atan2(Math.sqrt(a), Math.sqrt(1.0 - a));
}

/** Length in metres of one segment (degrees in). May move the anchor. */
export function segmentMetres(lon0: f64, lat0: f64, lon1: f64, lat1: f64): f64 {
  const dlon = (lon1 - lon0) * DEG;
  const dlat = (lat1 - lat0) * DEG;
  let m = (lat0 + lat1) * HALF_DEG - phi0;
  if (Math.abs(dlon) <= SHORT_RAD && Math.abs(dlat) <= SHORT_RAD) {
    if (Math.abs(m) > ANCHOR_RAD) {
      anchor((lat0 + lat1) * HALF_DEG);
      m = 0.0;
    }
    const x = cosNear(m) * dlon;
    return EARTH_RADIUS * Math.sqrt(dlat * dlat + x * x);
  }
  return haversineMetres(lon0, lat0, lon1, lat1);
}

// Set by segmentLengths' SIMD pair when a lane needs the scalar path.
let pairSlow: bool = false;

function pairLengths(a: v128, b: v128, c: v128): v128 {
  const d1 = f64x2.sub(b, a);
  const d2 = f64x2.sub(c, b);
  const dlon = f64x2.mul(v128.shuffle<f64>(d1, d2, 0, 2), f64x2.splat(DEG));
  const dlat = f64x2.mul(v128.shuffle<f64>(d1, d2, 1, 3), f64x2.splat(DEG));
  const sum = v128.shuffle<f64>(f64x2.add(a, b), f64x2.add(b, c), 1, 3);
  const m = f64x2.sub(f64x2.mul(sum, f64x2.splat(HALF_DEG)), f64x2.splat(phi0));
  const short = f64x2.splat(SHORT_RAD);
  const slow = v128.or(
    v128.or(f64x2.gt(f64x2.abs(dlon), short), f64x2.gt(f64x2.abs(dlat), short)),
    f64x2.gt(f64x2.abs(m), f64x2.splat(ANCHOR_RAD)),
  );
  pairSlow = v128.any_true(slow);
  const one = f64x2.splat(1.0);
  const d2v = f64x2.mul(m, m);
  const cd = f64x2.sub(
    one,
    f64x2.mul(d2v, f64x2.sub(f64x2.splat(0.5), f64x2.mul(d2v, f64x2.sub(f64x2.splat(1.0 / 24.0), f64x2.mul(d2v, f64x2.splat(1.0 / 720.0)))))),
  );
  const sd = f64x2.mul(
    m,
    f64x2.sub(one, f64x2.mul(d2v, f64x2.sub(f64x2.splat(1.0 / 6.0), f64x2.mul(d2v, f64x2.splat(1.0 / 120.0))))),
  );
  const cosm = f64x2.sub(f64x2.mul(f64x2.splat(cosPhi0), cd), f64x2.mul(f64x2.splat(sinPhi0), sd));
  const x = f64x2.mul(cosm, dlon);
  return f64x2.mul(
    f64x2.splat(EARTH_RADIUS),
    f64x2.sqrt(f64x2.add(f64x2.mul(dlat, dlat), f64x2.mul(x, x))),
  );
}

/**
 * Writes the lengths (metres) of segments first .. first+count-1 to out (f64), two at a time with f64x2.
 * Results are bit-identical to calling segmentMetres on each segment in order.
 */
export function segmentLengths(ptr: usize, stride: i32, first: i32, count: i32, out: usize): void {
  const vb = <usize>stride << 3;
  let p = ptr + <usize>first * vb;
  let k = 0;
  let a = v128.load(p);
  while (k + 2 <= count) {
    const b = v128.load(p + vb);
    const c = v128.load(p + 2 * vb);
    const l = pairLengths(a, b, c);
    if (pairSlow) {
      store<f64>(out + (<usize>k << 3), segmentMetres(f64x2.extract_lane(a, 0), f64x2.extract_lane(a, 1), f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1)));
      store<f64>(out + (<usize>(k + 1) << 3), segmentMetres(f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1), f64x2.extract_lane(c, 0), f64x2.extract_lane(c, 1)));
    } else {
      v128.store(out + (<usize>k << 3), l);
    }
    a = c;
    p += 2 * vb;
    k += 2;
  }
  if (k < count) {
    const b = v128.load(p + vb);
    store<f64>(out + (<usize>k << 3), segmentMetres(f64x2.extract_lane(a, 0), f64x2.extract_lane(a, 1), f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1)));
  }
}

/**
 * Cumulative distances: out[k] = out[k - 1] + length of segment k - 1 for k = 1 .. count, out[0] = 0;
 * the same sums in the same order as adding segmentMetres one by one, in one pass. Returns the total.
 */
export function cumulativeLengths(ptr: usize, stride: i32, count: i32, out: usize): f64 {
  const vb = <usize>stride << 3;
  let p = ptr;
  let total = 0.0;
  store<f64>(out, 0.0);
  let k = 0;
  let a = v128.load(p);
  while (k + 2 <= count) {
    const b = v128.load(p + vb);
    const c = v128.load(p + 2 * vb);
    const l = pairLengths(a, b, c);
    if (pairSlow) {
      total += segmentMetres(f64x2.extract_lane(a, 0), f64x2.extract_lane(a, 1), f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1));
      store<f64>(out + (<usize>(k + 1) << 3), total);
      total += segmentMetres(f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1), f64x2.extract_lane(c, 0), f64x2.extract_lane(c, 1));
      store<f64>(out + (<usize>(k + 2) << 3), total);
    } else {
      total += f64x2.extract_lane(l, 0);
      store<f64>(out + (<usize>(k + 1) << 3), total);
      total += f64x2.extract_lane(l, 1);
      store<f64>(out + (<usize>(k + 2) << 3), total);
    }
    a = c;
    p += 2 * vb;
    k += 2;
  }
  if (k < count) {
    const b = v128.load(p + vb);
    total += segmentMetres(f64x2.extract_lane(a, 0), f64x2.extract_lane(a, 1), f64x2.extract_lane(b, 0), f64x2.extract_lane(b, 1));
    store<f64>(out + (<usize>(k + 1) << 3), total);
  }
  return total;
}
