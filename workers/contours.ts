// Contour lines from a region's elevation grid (marching squares), for the trail tiles' `contours` layer: one
// line per connected run of a level, every CONTOUR_INTERVAL metres, every INDEX_INTERVAL-th marked as an index
// line. Cells with a void sample are skipped (the line stops there). Saddle cells are split by their centre value.

import { DEM_VOID, type DemGrid } from '../data/region/dem-grid.js';
import { CONTOUR_INTERVAL, INDEX_INTERVAL } from '../contracts/tiles.js';

export interface ContourLine {
  elevation: number;
  /** A multiple of INDEX_INTERVAL: drawn heavier. */
  index: boolean;
  /** [longitude, latitude] positions. */
  coordinates: number[][];
}

/**
 * Which pairs of a cell's edges a level crosses, by the cell's case (bit 8 top-left, 4 top-right, 2 bottom-right,
 * 1 bottom-left set when that corner is at or above the level). Edges: 0 top, 1 right, 2 bottom, 3 left.
 * Saddles (5, 10) are resolved in `cellSegments`.
 */
const SEGMENTS: readonly (readonly [number, number])[][] = [
  [],
  [[3, 2]],
  [[2, 1]],
  [[3, 1]],
  [[1, 0]],
  [], // saddle
  [[2, 0]],
  [[3, 0]],
  [[0, 3]],
  [[0, 2]],
  [], // saddle
  [[0, 1]],
  [[1, 3]],
  [[1, 2]],
  [[2, 3]],
  [],
];

export function contourLines(dem: DemGrid, interval = CONTOUR_INTERVAL): ContourLine[] {
  const { cols, rows, samples } = dem;
  // Segments per level, as pairs of edge ids; an edge id names the grid edge a crossing lies on.
  const byLevel = new Map<number, number[]>();
  const points = new Map<number, [number, number]>();
  const horizontal = (r: number, c: number) => (r * cols + c) * 2; // from (r, c) to (r, c + 1)
  const vertical = (r: number, c: number) => (r * cols + c) * 2 + 1; // from (r, c) to (r + 1, c)
  const at = (r: number, c: number) => samples[r * cols + c]!;

  /** The crossing of `level` on edge `side` of cell (r, c), remembered by its edge id. */
  const crossing = (r: number, c: number, side: number, level: number): number => {
    let id: number;
    let r1 = r;
    let c1 = c;
    let r2 = r;
    let c2 = c;
    if (side === 0) {
      id = horizontal(r, c);
      c2 = c + 1;
    } else if (side === 2) {
      id = horizontal(r + 1, c);
      r1 = r2 = r + 1;
      c2 = c + 1;
    } else if (side === 3) {
      id = vertical(r, c);
      r2 = r + 1;
    } else {
      id = vertical(r, c + 1);
      c1 = c2 = c + 1;
      r2 = r + 1;
    }
    const key = id * 4096 + level; // unique per level (levels are well below 4096 intervals apart)
    if (!points.has(key)) {
      const v1 = at(r1, c1);
      const v2 = at(r2, c2);
      const t = v1 === v2 ? 0.5 : (level - v1) / (v2 - v1);
      const col = c1 + (c2 - c1) * t;
      const row = r1 + (r2 - r1) * t;
      points.set(key, [dem.west + col * dem.cellDeg, dem.north - row * dem.cellDeg]);
    }
    return key;
  };

  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const tl = at(r, c);
      const tr = at(r, c + 1);
      const br = at(r + 1, c + 1);
      const bl = at(r + 1, c);
      if (tl === DEM_VOID || tr === DEM_VOID || br === DEM_VOID || bl === DEM_VOID) continue;
      const low = Math.min(tl, tr, br, bl);
      const high = Math.max(tl, tr, br, bl);
      for (let level = Math.ceil((low + 0.5) / interval) * interval; level <= high; level += interval) {
        const kase = (tl >= level ? 8 : 0) | (tr >= level ? 4 : 0) | (br >= level ? 2 : 0) | (bl >= level ? 1 : 0);
        let pairs = SEGMENTS[kase]!;
        if (kase === 5 || kase === 10) {
          const centreAbove = (tl + tr + br + bl) / 4 >= level;
          // 5: top-right and bottom-left above; 10: top-left and bottom-right above.
          pairs =
            kase === 5
              ? centreAbove
                ? [
                    [1, 0],
                    [3, 2],
                  ]
                : [
                    [3, 0],
                    [1, 2],
                  ]
              : centreAbove
                ? [
                    [0, 3],
                    [2, 1],
                  ]
                : [
                    [0, 1],
                    [2, 3],
                  ];
        }
        if (pairs.length === 0) continue;
        let list = byLevel.get(level);
        if (!list) byLevel.set(level, (list = []));
        for (const [a, b] of pairs) list.push(crossing(r, c, a, level), crossing(r, c, b, level));
      }
    }
  }

  const lines: ContourLine[] = [];
  for (const [level, segments] of byLevel) {
    for (const chain of joinSegments(segments)) {
      const coordinates = chain.map((key) => points.get(key)!);
      // A level met only at a summit's sample is a ring of one point: nothing to draw.
      if (coordinates.every((p) => p[0] === coordinates[0]![0] && p[1] === coordinates[0]![1])) continue;
      lines.push({ elevation: level, index: level % INDEX_INTERVAL === 0, coordinates });
    }
  }
  return lines;
}

/** Joins segments (consecutive pairs of point keys) into the longest chains: open ones from their ends, then loops. */
function joinSegments(segments: number[]): number[][] {
  const links = new Map<number, number[]>(); // point → indexes of the segments touching it
  for (let s = 0; s < segments.length / 2; s++) {
    for (const key of [segments[s * 2]!, segments[s * 2 + 1]!]) {
      const list = links.get(key);
      if (list) list.push(s);
      else links.set(key, [s]);
    }
  }
  const used = new Uint8Array(segments.length / 2);
  const walk = (start: number): number[] => {
    const chain = [start];
    let point = start;
    for (;;) {
      const next = (links.get(point) ?? []).find((s) => !used[s]);
      if (next === undefined) return chain;
      used[next] = 1;
      point = segments[next * 2] === point ? segments[next * 2 + 1]! : segments[next * 2]!;
      chain.push(point);
    }
  };
  const chains: number[][] = [];
  for (const [point, list] of links) if (list.length === 1 && !used[list[0]!]) chains.push(walk(point));
  for (let s = 0; s < used.length; s++) if (!used[s]) chains.push(walk(segments[s * 2]!));
  return chains.filter((chain) => chain.length >= 2);
}
