// Isochrone polygons from a reachable set: the network nodes reached from the start and when. One polygon
// per time range, each the outline of the cells the walker (or rider) reaches, on a grid around the start:
//
// 1. every node reached within the range marks the grid cells around it (a buffer of ~1.5 cells, so the
//    nodes along one way join up);
// 2. the range's cells are united with the previous range's, so the polygons are nested by construction;
// 3. diagonal-only contacts are joined and holes filled (cells the outside cannot reach without crossing
//    marked cells), so the region is simply connected and its outline never touches itself;
// 4. the connected region holding the start is traced along cell edges into one counter-clockwise ring.
//
// reachFactor is the reached area over the area of the circle the profile's fastest speed could cover in
// the range: how much of the "as the crow flies" reach the network gives.

import { M_PER_DEG_LAT, metresPerDegLon } from './local-plane.js';
import type { IsochronePolygon, LonLat } from '../contracts/routing.js';

/** Grid cells across the farthest reached node, clamped to cell sizes of 10–250 m. */
const CELLS_ACROSS_RADIUS = 80;
const MIN_CELL_M = 10;
const MAX_CELL_M = 250;
/** Cells around a node that it marks (radius in cells). */
const NODE_BUFFER_CELLS = 1.5;

/**
 * The polygons of `ranges` (seconds, any order) around `center` from `points` (flat lon, lat, seconds of
 * every reached node). `maxSpeed` is the profile's fastest speed (m/s). Answered in ascending range order.
 */
export function isochronePolygons(
  center: LonLat,
  points: ArrayLike<number>,
  ranges: readonly number[],
  maxSpeed: number,
): IsochronePolygon[] {
  const sorted = [...new Set(ranges)].sort((a, b) => a - b);
  const lon0 = center[0];
  const lat0 = center[1];
  const kx = metresPerDegLon(lat0);
  const ky = M_PER_DEG_LAT;
  const maxRange = sorted[sorted.length - 1] ?? 0;
  // The grid spans the nodes reached within the largest range (and the start), with a margin of cells.
  let radius = 0;
  const n = Math.floor(points.length / 3);
  for (let i = 0; i < n; i++) {
    if ((points[i * 3 + 2] as number) > maxRange) continue;
    const x = ((points[i * 3] as number) - lon0) * kx;
    const y = ((points[i * 3 + 1] as number) - lat0) * ky;
    radius = Math.max(radius, Math.abs(x), Math.abs(y));
  }
  const cell = Math.min(MAX_CELL_M, Math.max(MIN_CELL_M, radius / CELLS_ACROSS_RADIUS));
  const margin = Math.ceil(NODE_BUFFER_CELLS) + 2;
  const half = Math.ceil(radius / cell) + margin;
  const size = 2 * half + 1; // cell (half, half) holds the start
  const grid: Grid = { size, cells: new Uint8Array(size * size) };
  const toCell = (v: number) => Math.floor(v / cell + 0.5) + half;

  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (points[a * 3 + 2] as number) - (points[b * 3 + 2] as number));
  let next = 0;
  const out: IsochronePolygon[] = [];
  for (const range of sorted) {
    // Nodes in time order: each range adds the nodes between the previous range and this one.
    while (next < n && (points[(order[next] as number) * 3 + 2] as number) <= range) {
      const i = order[next] as number;
      const x = ((points[i * 3] as number) - lon0) * kx;
      const y = ((points[i * 3 + 1] as number) - lat0) * ky;
      markDisc(grid, toCell(x), toCell(y), NODE_BUFFER_CELLS);
      next++;
    }
    if (next === 0) {
      out.push({ range, polygon: { type: 'Polygon', coordinates: [] }, reachFactor: 0, area: 0 });
      continue;
    }
    joinDiagonals(grid);
    fillHoles(grid); // after joining: a joined corner may have closed a hole
    const region = componentAt(grid, half, half) ?? largestComponent(grid);
    const ring = traceOutline(region, size).map(([cx, cy]): [number, number] => [
      round7(lon0 + ((cx - half - 0.5) * cell) / kx),
      round7(lat0 + ((cy - half - 0.5) * cell) / ky),
    ]);
    let count = 0;
    for (const c of region) count += c;
    const area = count * cell * cell;
    const circle = Math.PI * (maxSpeed * range) ** 2;
    out.push({
      range,
      polygon: { type: 'Polygon', coordinates: [ring] },
      reachFactor: circle > 0 ? Math.min(1, Math.round((area / circle) * 1000) / 1000) : 0,
      area,
    });
  }
  return out;
}

interface Grid {
  size: number;
  /** 1 = reached, row-major (y * size + x). */
  cells: Uint8Array;
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

function markDisc(grid: Grid, cx: number, cy: number, r: number): void {
  const reach = Math.ceil(r);
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      if (dx * dx + dy * dy > r * r) continue;
      const x = cx + dx;
      const y = cy + dy;
      if (x >= 0 && y >= 0 && x < grid.size && y < grid.size) grid.cells[y * grid.size + x] = 1;
    }
  }
}

/** Marks every unmarked cell the grid's border cannot reach through unmarked cells (4-connected). */
function fillHoles(grid: Grid): void {
  const { size, cells } = grid;
  const outside = new Uint8Array(size * size);
  const stack: number[] = [];
  for (let i = 0; i < size; i++) {
    for (const c of [i, (size - 1) * size + i, i * size, i * size + size - 1]) {
      if (!cells[c] && !outside[c]) {
        outside[c] = 1;
        stack.push(c);
      }
    }
  }
  while (stack.length > 0) {
    const c = stack.pop() as number;
    const x = c % size;
    const y = (c - x) / size;
    for (const [nx, ny] of [
      [x + 1, y],
      [x - 1, y],
      [x, y + 1],
      [x, y - 1],
    ] as const) {
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const m = ny * size + nx;
      if (!cells[m] && !outside[m]) {
        outside[m] = 1;
        stack.push(m);
      }
    }
  }
  for (let c = 0; c < cells.length; c++) if (!outside[c]) cells[c] = 1;
}

/** Marks a cell in every 2×2 block whose marked cells touch only at a corner (the outline would pinch there). */
function joinDiagonals(grid: Grid): void {
  const { size, cells } = grid;
  let changed = true;
  while (changed) {
    changed = false;
    for (let y = 0; y + 1 < size; y++) {
      for (let x = 0; x + 1 < size; x++) {
        const a = cells[y * size + x];
        const b = cells[y * size + x + 1];
        const c = cells[(y + 1) * size + x];
        const d = cells[(y + 1) * size + x + 1];
        if (a && d && !b && !c) {
          cells[y * size + x + 1] = 1;
          changed = true;
        } else if (b && c && !a && !d) {
          cells[y * size + x] = 1;
          changed = true;
        }
      }
    }
  }
}

/** The 4-connected marked region holding (x, y), as a 0/1 mask; undefined when that cell is not marked. */
function componentAt(grid: Grid, x: number, y: number): Uint8Array | undefined {
  const { size, cells } = grid;
  const start = y * size + x;
  if (!cells[start]) return undefined;
  const region = new Uint8Array(size * size);
  region[start] = 1;
  const stack = [start];
  while (stack.length > 0) {
    const c = stack.pop() as number;
    const cx = c % size;
    const cy = (c - cx) / size;
    for (const [nx, ny] of [
      [cx + 1, cy],
      [cx - 1, cy],
      [cx, cy + 1],
      [cx, cy - 1],
    ] as const) {
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const m = ny * size + nx;
      if (cells[m] && !region[m]) {
        region[m] = 1;
        stack.push(m);
      }
    }
  }
  return region;
}

/** When the start's own cell was not reached (it snapped some way off), the largest reached region. */
function largestComponent(grid: Grid): Uint8Array {
  const { size, cells } = grid;
  const seen = new Uint8Array(size * size);
  let best: Uint8Array = new Uint8Array(size * size);
  let bestCount = 0;
  for (let c = 0; c < cells.length; c++) {
    if (!cells[c] || seen[c]) continue;
    const region = componentAt(grid, c % size, Math.floor(c / size)) as Uint8Array;
    let count = 0;
    for (let i = 0; i < region.length; i++) {
      if (region[i]) {
        seen[i] = 1;
        count++;
      }
    }
    if (count > bestCount) {
      best = region;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The outline of a simply connected, pinch-free region as cell-corner coordinates (x right, y up),
 * counter-clockwise, closed, with collinear corners dropped.
 */
function traceOutline(region: Uint8Array, size: number): [number, number][] {
  const at = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size && region[y * size + x] === 1;
  // Directed boundary edges with the region on their left: cell (x, y) spans corners (x, y)–(x+1, y+1).
  const next = new Map<number, number>();
  const key = (x: number, y: number) => y * (size + 1) + x;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!at(x, y)) continue;
      if (!at(x, y - 1)) next.set(key(x, y), key(x + 1, y)); // bottom side, going east
      if (!at(x + 1, y)) next.set(key(x + 1, y), key(x + 1, y + 1)); // right side, going north
      if (!at(x, y + 1)) next.set(key(x + 1, y + 1), key(x, y + 1)); // top side, going west
      if (!at(x - 1, y)) next.set(key(x, y + 1), key(x, y)); // left side, going south
    }
  }
  const first = next.keys().next().value as number;
  const corners: [number, number][] = [];
  let k = first;
  do {
    corners.push([k % (size + 1), Math.floor(k / (size + 1))]);
    k = next.get(k) as number;
  } while (k !== first && corners.length <= next.size);
  // Keep the corners where the direction turns.
  const ring: [number, number][] = [];
  for (let i = 0; i < corners.length; i++) {
    const p = corners[(i + corners.length - 1) % corners.length] as [number, number];
    const c = corners[i] as [number, number];
    const q = corners[(i + 1) % corners.length] as [number, number];
    if ((c[0] - p[0]) * (q[1] - c[1]) - (c[1] - p[1]) * (q[0] - c[0]) !== 0) ring.push(c);
  }
  ring.push(ring[0] as [number, number]);
  return ring;
}
