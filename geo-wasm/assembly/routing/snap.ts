// Nearest-edge snapping and line matching over a uniform lon/lat grid of undirected edges.
// Distances use a local equirectangular projection at the query latitude (error < 0.1% for
// pieces under a few km, which is all a snap ever measures).

const METRES_PER_DEG: f64 = 111319.49079327357; // WGS84 equatorial, 2*pi*6378137/360

let sLon: usize = 0; // i32[n] node longitudes, 1e-7 degree
let sLat: usize = 0; // i32[n] node latitudes, 1e-7 degree
let sPieceStart: usize = 0; // u32[chains + 1]: chain k holds pieces pieceStart[k] … pieceStart[k + 1] - 1
let sChainFrom: usize = 0; // u32[chains]: tower
let sChainTo: usize = 0; // u32[chains]: tower
let sTowers: u32 = 0;
let sChains: u32 = 0;
let gridW: i32 = 0;
let gridH: i32 = 0;
let gridWest: f64 = 0;
let gridSouth: f64 = 0;
let gridCell: f64 = 1;
let cellStart: usize = 0; // u32[w*h+1]
let cellItems: usize = 0; // u32[]: one even edge id (2u) per piece u

/** Node n's longitude and latitude in degrees (the host divides alike: region-graph.ts lonOf). */
@inline function lonAt(n: usize): f64 {
  return <f64>load<i32>(sLon + (n << 2)) / 1e7;
}
@inline function latAt(n: usize): f64 {
  return <f64>load<i32>(sLat + (n << 2)) / 1e7;
}

/**
 * Describes the node coordinates, the junction graph's chains (data/region/region-graph.ts: edge 2u runs piece u
 * forwards along its chain, 2u + 1 back) and the grid (cells row-major from the south-west).
 */
export function useSpatial(
  lon: usize, lat: usize, pieceStart: usize, chainFrom: usize, chainTo: usize, towers: u32, chains: u32,
  w: i32, h: i32, west: f64, south: f64, cellDeg: f64, start: usize, items: usize,
): void {
  sLon = lon;
  sLat = lat;
  sPieceStart = pieceStart;
  sChainFrom = chainFrom;
  sChainTo = chainTo;
  sTowers = towers;
  sChains = chains;
  gridW = w;
  gridH = h;
  gridWest = west;
  gridSouth = south;
  gridCell = cellDeg;
  cellStart = start;
  cellItems = items;
}

/** The node at place `pos` of chain k (region-graph.ts chainNode). */
function chainNode(k: u32, pos: u32): usize {
  if (pos == 0) return <usize>load<u32>(sChainFrom + (<usize>k << 2));
  const start = load<u32>(sPieceStart + (<usize>k << 2));
  if (pos == load<u32>(sPieceStart + (<usize>(k + 1) << 2)) - start) return <usize>load<u32>(sChainTo + (<usize>k << 2));
  return <usize>(sTowers + start - k + pos - 1);
}

let endA: usize = 0;
let endB: usize = 0;

/** Sets endA, endB to edge e's source and target (its chain by binary search in pieceStart). */
function edgeEnds(e: u32): void {
  const u = e >> 1;
  let lo: u32 = 0;
  let hi: u32 = sChains - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (load<u32>(sPieceStart + (<usize>mid << 2)) <= u) lo = mid;
    else hi = mid - 1;
  }
  const i = u - load<u32>(sPieceStart + (<usize>lo << 2));
  const a = chainNode(lo, i);
  const b = chainNode(lo, i + 1);
  endA = (e & 1) == 0 ? a : b;
  endB = (e & 1) == 0 ? b : a;
}

let snapEdgeV: i32 = -1;
let snapFracV: f64 = 0;
let snapDistV: f64 = Infinity;
let snapLonV: f64 = 0;
let snapLatV: f64 = 0;

/** Fraction (0..1) along the snapped edge from its source node. */
export function snapFraction(): f64 {
  return snapFracV;
}
/** Distance in metres from the query point to the snapped point. */
export function snapDistance(): f64 {
  return snapDistV;
}
export function snapLon(): f64 {
  return snapLonV;
}
export function snapLat(): f64 {
  return snapLatV;
}

function consider(e: i32, lon: f64, lat: f64, kx: f64, open: usize, dx: f64, dy: f64, minCos: f64): void {
  const eo = <usize>e;
  if (open != 0 && (load<u32>(open + ((eo >> 5) << 2)) & (<u32>1 << (<u32>e & 31))) == 0) return;
  edgeEnds(<u32>e);
  const a = endA;
  const b = endB;
  const ax = (lonAt(a) - lon) * kx;
  const ay = (latAt(a) - lat) * METRES_PER_DEG;
  const bx = (lonAt(b) - lon) * kx;
  const by = (latAt(b) - lat) * METRES_PER_DEG;
  const ex = bx - ax;
  const ey = by - ay;
  const len2 = ex * ex + ey * ey;
  if (dx != 0 || dy != 0) {
    if (len2 == 0) return;
    const c = (ex * dx + ey * dy) / Math.sqrt(len2);
    if (Math.abs(c) < minCos) return;
  }
  let t: f64 = 0;
  if (len2 > 0) {
    t = -(ax * ex + ay * ey) / len2;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  const px = ax + t * ex;
  const py = ay + t * ey;
  const d = Math.sqrt(px * px + py * py);
  if (d < snapDistV || (d == snapDistV && e < snapEdgeV)) {
    snapDistV = d;
    snapEdgeV = e;
    snapFracV = t;
    snapLonV = lon + px / kx;
    snapLatV = lat + py / METRES_PER_DEG;
  }
}

function scanCell(cx: i32, cy: i32, lon: f64, lat: f64, kx: f64, open: usize, dx: f64, dy: f64, minCos: f64): void {
  if (cx < 0 || cy < 0 || cx >= gridW || cy >= gridH) return;
  const c = <usize>(cy * gridW + cx);
  const end = load<u32>(cellStart + ((c + 1) << 2));
  for (let i = load<u32>(cellStart + (c << 2)); i < end; i++) {
    consider(load<i32>(cellItems + (<usize>i << 2)), lon, lat, kx, open, dx, dy, minCos);
  }
}

/**
 * Nearest edge to (lon, lat) within `maxDist` metres. `open` (a bit per edge; 0 = any edge) keeps only
 * pieces allowed in at least one direction; (dx, dy) ≠ 0 keeps only pieces whose direction has
 * |cos| ≥ minCos with it (metres east, north). Returns the edge id or -1; details via snap*().
 */
export function snap(lon: f64, lat: f64, maxDist: f64, open: usize, dx: f64, dy: f64, minCos: f64): i32 {
  snapEdgeV = -1;
  snapDistV = Infinity;
  snapFracV = 0;
  const kx = Math.cos(lat * (Math.PI / 180)) * METRES_PER_DEG;
  const cellMin = gridCell * (kx < METRES_PER_DEG ? kx : METRES_PER_DEG);
  let dn: f64 = 0;
  if (dx != 0 || dy != 0) {
    dn = Math.sqrt(dx * dx + dy * dy);
  }
  const ux = dn > 0 ? dx / dn : 0;
  const uy = dn > 0 ? dy / dn : 0;
  const cx = <i32>Math.floor((lon - gridWest) / gridCell);
  const cy = <i32>Math.floor((lat - gridSouth) / gridCell);
  // Rings beyond the grid on every side hold nothing: stop there.
  let maxR = gridW + gridH + 2;
  const outX = cx < 0 ? -cx : cx >= gridW ? cx - gridW + 1 : 0;
  const outY = cy < 0 ? -cy : cy >= gridH ? cy - gridH + 1 : 0;
  const minR = outX > outY ? outX : outY;
  maxR += minR;
  for (let r = 0; r <= maxR; r++) {
    if (r >= minR) {
      if (r == 0) scanCell(cx, cy, lon, lat, kx, open, ux, uy, minCos);
      else {
        for (let x = cx - r; x <= cx + r; x++) {
          scanCell(x, cy - r, lon, lat, kx, open, ux, uy, minCos);
          scanCell(x, cy + r, lon, lat, kx, open, ux, uy, minCos);
        }
        for (let y = cy - r + 1; y <= cy + r - 1; y++) {
          scanCell(cx - r, y, lon, lat, kx, open, ux, uy, minCos);
          scanCell(cx + r, y, lon, lat, kx, open, ux, uy, minCos);
        }
      }
    }
    const reach = <f64>r * cellMin;
    if (snapDistV <= reach) break;
    if (reach > maxDist) break;
  }
  if (snapDistV > maxDist) {
    snapEdgeV = -1;
  }
  return snapEdgeV;
}

/**
 * Matches each piece of a line (`count` points, f64 lon,lat pairs at `coords`) to the nearest
 * roughly parallel edge (|cos| ≥ 0.7) within `maxDist` metres of its midpoint, oriented along
 * the line. Writes one i32 edge id (or -1) per piece at `out`; returns the matched count.
 */
export function matchLine(coords: usize, count: i32, maxDist: f64, open: usize, out: usize): i32 {
  let matched = 0;
  for (let i = 0; i < count - 1; i++) {
    const p = coords + (<usize>i << 4);
    const lon0 = load<f64>(p);
    const lat0 = load<f64>(p, 8);
    const lon1 = load<f64>(p, 16);
    const lat1 = load<f64>(p, 24);
    const mlat = (lat0 + lat1) * 0.5;
    const kx = Math.cos(mlat * (Math.PI / 180)) * METRES_PER_DEG;
    const dx = (lon1 - lon0) * kx;
    const dy = (lat1 - lat0) * METRES_PER_DEG;
    let e = -1;
    if (dx != 0 || dy != 0) e = snap((lon0 + lon1) * 0.5, mlat, maxDist, open, dx, dy, 0.7);
    if (e >= 0) {
      // Orient the edge along the line.
      edgeEnds(<u32>e);
      const ex = (lonAt(endB) - lonAt(endA)) * kx;
      const ey = (latAt(endB) - latAt(endA)) * METRES_PER_DEG;
      if (ex * dx + ey * dy < 0) e = e ^ 1;
      matched++;
    }
    store<i32>(out + (<usize>i << 2), e);
  }
  return matched;
}
