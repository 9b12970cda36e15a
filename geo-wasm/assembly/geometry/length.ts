// Line length, cumulative distances, the point at a distance (along) and the sub-line between two (slice).
import { CHUNK_SEGMENTS, ERR_ARGUMENT, ERR_STRIDE, ERR_TOO_FEW, chunkPtr, copyVertex, resultPtr, setResult } from './memory';
import { anchor, cumulativeLengths, segmentLengths } from './project';

function badStride(stride: i32): bool {
  return stride != 2 && stride != 3;
}

/** Length in metres of the line (n vertices, stride 2|3, degrees) into RESULT[0]. Returns 0 or a status. */
export function lineLength(ptr: usize, n: i32, stride: i32): i32 {
  if (badStride(stride)) return ERR_STRIDE;
  if (n < 0) return ERR_TOO_FEW;
  let total = 0.0;
  if (n >= 2) {
    anchor(load<f64>(ptr + 8) * (Math.PI / 180.0));
    const buf = chunkPtr();
    for (let first = 0; first < n - 1; first += CHUNK_SEGMENTS) {
      const count = min(CHUNK_SEGMENTS, n - 1 - first);
      segmentLengths(ptr, stride, first, count, buf);
      for (let k = 0; k < count; k++) total += load<f64>(buf + (<usize>k << 3));
    }
  }
  setResult(0, total);
  return 0;
}

/** Cumulative distance in metres at each vertex into out (n f64, out[0] = 0). Returns n; RESULT[0] = total. */
export function cumulativeDistances(ptr: usize, n: i32, stride: i32, out: usize): i32 {
  if (badStride(stride)) return ERR_STRIDE;
  if (n < 1) return ERR_TOO_FEW;
  let total = 0.0;
  store<f64>(out, 0.0);
  if (n >= 2) {
    anchor(load<f64>(ptr + 8) * (Math.PI / 180.0));
    total = cumulativeLengths(ptr, stride, n - 1, out);
  }
  setResult(0, total);
  return n;
}

// Chunked segment lengths for along and slice, so that a walk can stop early without a full pass.
let chunkFirst: i32 = 0;
let chunkCount: i32 = 0;

function startWalk(ptr: usize): void {
  chunkFirst = 0;
  chunkCount = 0;
  anchor(load<f64>(ptr + 8) * (Math.PI / 180.0));
}

/** Length of segment j (walks must ask for j in increasing order). */
function segLen(ptr: usize, n: i32, stride: i32, j: i32): f64 {
  const buf = chunkPtr();
  if (j >= chunkFirst + chunkCount) {
    chunkFirst = j;
    chunkCount = min(CHUNK_SEGMENTS, n - 1 - j);
    segmentLengths(ptr, stride, j, chunkCount, buf);
  }
  return load<f64>(buf + (<usize>(j - chunkFirst) << 3));
}

// Result of walkTo: the first segment whose end reaches d, the distance before it and its length.
let walkSegment: i32 = 0;
let walkBefore: f64 = 0.0;
let walkLength: f64 = 0.0;

/** First segment j >= from with acc + l >= d; false when the line ends first. */
function walkTo(ptr: usize, n: i32, stride: i32, from: i32, acc: f64, d: f64): bool {
  for (let j = from; j < n - 1; j++) {
    const l = segLen(ptr, n, stride, j);
    if (acc + l >= d) {
      walkSegment = j;
      walkBefore = acc;
      walkLength = l;
      return true;
    }
    acc += l;
  }
  walkBefore = acc;
  return false;
}

/** Writes the vertex at segment j, fraction f (linear in degrees) to dst (stride values). */
function lerpVertex(ptr: usize, stride: i32, j: i32, f: f64, dst: usize): void {
  const vb = <usize>stride << 3;
  const a = ptr + <usize>j * vb;
  for (let k = 0; k < stride; k++) {
    const o = <usize>k << 3;
    const va = load<f64>(a + o);
    store<f64>(dst + o, va + (load<f64>(a + vb + o) - va) * f);
  }
}

/**
 * Point at distance d metres from the start (clamped to the line). RESULT[0..stride) = the point
 * (RESULT[2] = NaN for stride 2), RESULT[3] = fraction along its segment. Returns the segment index
 * (0 .. n-2; 0 when n = 1).
 */
export function along(ptr: usize, n: i32, stride: i32, d: f64): i32 {
  if (badStride(stride)) return ERR_STRIDE;
  if (n < 1) return ERR_TOO_FEW;
  if (isNaN(d)) return ERR_ARGUMENT;
  const res = resultPtr();
  let j = 0;
  let f = 0.0;
  if (n >= 2 && d > 0.0) {
    // Chunk by chunk, so that the walk stops early; the scan is a tight loop over the chunk.
    anchor(load<f64>(ptr + 8) * (Math.PI / 180.0));
    const buf = chunkPtr();
    let acc = 0.0;
    j = -1;
    for (let first = 0; first < n - 1 && j < 0; first += CHUNK_SEGMENTS) {
      const count = min(CHUNK_SEGMENTS, n - 1 - first);
      segmentLengths(ptr, stride, first, count, buf);
      for (let k = 0; k < count; k++) {
        const l = load<f64>(buf + (<usize>k << 3));
        if (acc + l >= d) {
          j = first + k;
          f = l > 0.0 ? (d - acc) / l : 0.0;
          break;
        }
        acc += l;
      }
    }
    if (j < 0) {
      j = n - 2;
      f = 1.0;
    }
  }
  if (n == 1) {
    for (let k = 0; k < stride; k++) store<f64>(res + (<usize>k << 3), load<f64>(ptr + (<usize>k << 3)));
  } else {
    lerpVertex(ptr, stride, j, f, res);
  }
  if (stride == 2) setResult(2, NaN);
  setResult(3, f);
  return j;
}

/**
 * Sub-line between distances d0 <= d1 (metres, clamped to the line) into out: the cut point at d0, every
 * vertex strictly after d0 and before d1, the cut point at d1 (2 .. n + 1 vertices). Returns the count.
 */
export function slice(ptr: usize, n: i32, stride: i32, d0: f64, d1: f64, out: usize): i32 {
  if (badStride(stride)) return ERR_STRIDE;
  if (n < 2) return ERR_TOO_FEW;
  if (isNaN(d0) || isNaN(d1) || d0 > d1) return ERR_ARGUMENT;
  d0 = max(d0, 0.0);
  d1 = max(d1, 0.0);
  const vb = <usize>stride << 3;
  const last = ptr + <usize>(n - 1) * vb;
  startWalk(ptr);
  if (!walkTo(ptr, n, stride, 0, 0.0, d0)) {
    // d0 at or past the end: a degenerate slice on the last vertex.
    copyVertex(out, last, stride);
    copyVertex(out + vb, last, stride);
    return 2;
  }
  let j = walkSegment;
  let acc = walkBefore;
  let l = walkLength;
  lerpVertex(ptr, stride, j, l > 0.0 ? (d0 - acc) / l : 0.0, out);
  let count = 1;
  while (true) {
    if (acc + l >= d1) {
      lerpVertex(ptr, stride, j, l > 0.0 ? (d1 - acc) / l : 0.0, out + <usize>count * vb);
      return count + 1;
    }
    acc += l;
    j++;
    // vertex j now lies at acc: inside (d0, d1) unless it sits exactly on d0.
    if (acc > d0) {
      copyVertex(out + <usize>count * vb, ptr + <usize>j * vb, stride);
      count++;
    }
    if (j == n - 1) break;
    l = segLen(ptr, n, stride, j);
  }
  // d1 past the end: the last vertex closes the slice (written above unless it sits exactly on d0).
  if (!(acc > d0)) {
    copyVertex(out + <usize>count * vb, last, stride);
    count++;
  }
  return count;
}
