// A uniform lon/lat grid over the graph's edges for nearest-edge snapping, in CSR form.
import { EARTH_RADIUS_M } from './geo.js';
import type { RegionGraph } from './region-graph.js';

/**
 * Cell size in degrees: 0.0025° is about 280 m north–south and 200 m east–west at 42–47°N.
 * With the real extracts that puts a median of a few edges per non-empty cell, and a snap within
 * 500 m reads at most a 5×5 block of cells.
 */
export const DEFAULT_GRID_CELL_DEG = 0.0025;

/**
 * Cell (row r, col c) covers lon west + c·cellDeg .. +cellDeg and lat south + r·cellDeg .. +cellDeg
 * (row 0 at the SOUTH edge). Edges of cell i are cellEdges[cellStart[i] .. cellStart[i+1]-1].
 * Each undirected segment is listed once, by its directed edge whose source index < target index,
 * in every cell its bounding box touches.
 */
export interface EdgeGrid {
  west: number; // degrees
  south: number; // degrees
  cellDeg: number; // degrees
  cols: number;
  rows: number;
  cellStart: Uint32Array; // length cols*rows + 1
  cellEdges: Uint32Array; // directed edge ids
}

/** Source node of every directed edge (the CSR stores only targets). */
export function edgeSources(g: RegionGraph): Uint32Array {
  const src = new Uint32Array(g.edgeCount);
  for (let n = 0; n < g.nodeCount; n++) src.fill(n, g.firstEdge[n]!, g.firstEdge[n + 1]!);
  return src;
}

/** Builds the grid over the graph's bbox. */
export function buildEdgeGrid(g: RegionGraph, cellDeg = DEFAULT_GRID_CELL_DEG): EdgeGrid {
  const [minLon, minLat, maxLon, maxLat] = g.bbox;
  const west = Math.floor(minLon / cellDeg) * cellDeg;
  const south = Math.floor(minLat / cellDeg) * cellDeg;
  const cols = Math.max(1, Math.floor((maxLon - west) / cellDeg) + 1);
  const rows = Math.max(1, Math.floor((maxLat - south) / cellDeg) + 1);
  const src = edgeSources(g);
  const cellStart = new Uint32Array(cols * rows + 1);
  const col = (lon: number): number => Math.min(cols - 1, Math.max(0, Math.floor((lon - west) / cellDeg)));
  const row = (lat: number): number => Math.min(rows - 1, Math.max(0, Math.floor((lat - south) / cellDeg)));
  const visit = (fn: (cell: number, e: number) => void): void => {
    for (let e = 0; e < g.edgeCount; e++) {
      const a = src[e]!;
      const b = g.edgeTarget[e]!;
      if (a >= b) continue;
      const c0 = col(Math.min(g.nodeLon[a]!, g.nodeLon[b]!));
      const c1 = col(Math.max(g.nodeLon[a]!, g.nodeLon[b]!));
      const r0 = row(Math.min(g.nodeLat[a]!, g.nodeLat[b]!));
      const r1 = row(Math.max(g.nodeLat[a]!, g.nodeLat[b]!));
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) fn(r * cols + c, e);
    }
  };
  visit((cell) => {
    cellStart[cell + 1]!++;
  });
  for (let i = 0; i < cols * rows; i++) cellStart[i + 1]! += cellStart[i]!;
  const cellEdges = new Uint32Array(cellStart[cols * rows]!);
  const cursor = cellStart.slice(0, cols * rows);
  visit((cell, e) => {
    cellEdges[cursor[cell]!++] = e;
  });
  return { west, south, cellDeg, cols, rows, cellStart, cellEdges };
}

export interface Snap {
  edge: number; // directed edge id (source < target)
  source: number; // node index
  target: number; // node index
  t: number; // 0..1 position of the snapped point from source to target
  lon: number; // degrees, the snapped point
  lat: number; // degrees
  distance: number; // metres from the query point (local equirectangular projection)
}

function sourceOf(g: RegionGraph, e: number): number {
  let lo = 0;
  let hi = g.nodeCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (g.firstEdge[mid]! <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The nearest edge to (lon, lat) degrees within `maxMeters`, or null. `accept` filters edges
 * (e.g. by the activity's profile). Distances use an equirectangular projection around the query
 * point: error below 0.1% within a few kilometres.
 */
export function nearestEdge(
  g: RegionGraph,
  grid: EdgeGrid,
  lon: number,
  lat: number,
  maxMeters = 500,
  accept?: (edge: number) => boolean,
): Snap | null {
  const kx = EARTH_RADIUS_M * (Math.PI / 180) * Math.cos((lat * Math.PI) / 180);
  const ky = EARTH_RADIUS_M * (Math.PI / 180);
  const cellMeters = grid.cellDeg * Math.min(kx, ky);
  const qc = Math.floor((lon - grid.west) / grid.cellDeg);
  const qr = Math.floor((lat - grid.south) / grid.cellDeg);
  const maxRing = Math.ceil(maxMeters / cellMeters) + 1;
  let best: Snap | null = null;
  for (let ring = 0; ring <= maxRing; ring++) {
    if (best && (ring - 1) * cellMeters > best.distance) break;
    for (let r = qr - ring; r <= qr + ring; r++) {
      if (r < 0 || r >= grid.rows) continue;
      const edgeRow = r === qr - ring || r === qr + ring;
      for (let c = qc - ring; c <= qc + ring; c += edgeRow ? 1 : 2 * ring || 1) {
        if (c < 0 || c >= grid.cols) continue;
        const cell = r * grid.cols + c;
        for (let i = grid.cellStart[cell]!; i < grid.cellStart[cell + 1]!; i++) {
          const e = grid.cellEdges[i]!;
          if (accept && !accept(e)) continue;
          const b = g.edgeTarget[e]!;
          const a = sourceOf(g, e);
          const ax = (g.nodeLon[a]! - lon) * kx;
          const ay = (g.nodeLat[a]! - lat) * ky;
          const bx = (g.nodeLon[b]! - lon) * kx;
          const by = (g.nodeLat[b]! - lat) * ky;
          const dx = bx - ax;
          const dy = by - ay;
          const len2 = dx * dx + dy * dy;
          const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
          const px = ax + t * dx;
          const py = ay + t * dy;
          const d = Math.hypot(px, py);
          if (d <= maxMeters && (!best || d < best.distance)) {
            best = { edge: e, source: a, target: b, t, lon: lon + px / kx, lat: lat + py / ky, distance: d };
          }
        }
      }
    }
  }
  return best;
}
