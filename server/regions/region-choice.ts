// Which served region answers a request, from its coordinates alone (no worker asked): a point is in a region when
// the region's coverage grid (where its network lies, RegionCoverage) holds it, so two regions whose bounds overlap
// are told apart by where their trails are. Pure functions over the regions as served, arithmetic only: what needs
// trigonometry (a region's bounds in tile units, degrees per metre) was worked out by a worker (RegionExtent).
import type { RegionCoverage, RegionExtent } from '../../contracts/region-ref.js';
import type { LonLat } from '../../contracts/routing.js';
import { METRES_PER_DEGREE_LAT } from '../../data/region/geo.js';

/** What a choice needs of a region. */
export interface Placed {
  name: string;
  /** [west, south, east, north] in degrees. */
  bounds: readonly [number, number, number, number];
  coverage: RegionCoverage;
  extent: RegionExtent;
}

/**
 * Whether the region's network lies in the point's coverage cell (`reach` 0), or in that cell or a neighbour of it
 * (`reach` 1: a point may snap to a way a cell away).
 */
export function covers({ west, south, cellDeg, cols, rows, cells }: RegionCoverage, [lon, lat]: LonLat, reach: 0 | 1 = 1): boolean {
  const c = Math.floor((lon - west) / cellDeg);
  const r = Math.floor((lat - south) / cellDeg);
  for (let dr = -reach; dr <= reach; dr++) {
    const row = r + dr;
    if (row < 0 || row >= rows) continue;
    for (let dc = -reach; dc <= reach; dc++) {
      const col = c + dc;
      if (col >= 0 && col < cols && cells[row * cols + col] === 1) return true;
    }
  }
  return false;
}

/** How the points of a request fall on the regions: the region that holds them all, or the first that cannot join. */
export type Choice<R> =
  | { ok: true; region: R }
  /** Point `index` lies only in `there`, the points before it only in `here`: regions that share no network. */
  | { ok: false; index: number; here: R; there: R };

/**
 * The region for a request through `points`: the first region (in the order given) holding every point that some
 * region holds. A point no region holds does not decide (the region answers that it is off its network); when no
 * region holds any, the one whose bounds lie nearest the first point. `regions` must not be empty.
 */
export function chooseRegion<R extends Placed>(regions: readonly R[], points: readonly LonLat[]): Choice<R> {
  let candidates: readonly R[] | undefined;
  for (const [index, point] of points.entries()) {
    // The regions with a way in the point's own cell; else those with one a cell away (near a border, both may).
    let holders = regions.filter((r) => covers(r.coverage, point, 0));
    if (holders.length === 0) holders = regions.filter((r) => covers(r.coverage, point, 1));
    if (holders.length === 0) continue;
    if (candidates === undefined) {
      candidates = holders;
      continue;
    }
    const both = candidates.filter((r) => holders.includes(r));
    if (both.length === 0) return { ok: false, index, here: candidates[0]!, there: holders[0]! };
    candidates = both;
  }
  if (candidates) return { ok: true, region: candidates[0]! };
  const first = points[0];
  if (!first) return { ok: true, region: regions[0]! };
  let best = regions[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const r of regions) {
    const d = boundsDistance(r, first);
    if (d < bestDistance) [best, bestDistance] = [r, d];
  }
  return { ok: true, region: best };
}

/** Square metres, on a plane (only compared), from a point to the nearest point of a region's bounds; 0 inside. */
function boundsDistance({ bounds: [west, south, east, north], extent }: Placed, [lon, lat]: LonLat): number {
  const dx = Math.max(west - lon, 0, lon - east) / extent.lonDegPerMetre;
  const dy = Math.max(south - lat, 0, lat - north) * METRES_PER_DEGREE_LAT;
  return dx * dx + dy * dy;
}

/** The regions whose bounds meet the box [west, south, east, north]. */
export function regionsInBox<R extends Placed>(regions: readonly R[], box: readonly number[]): R[] {
  return regions.filter((r) => meetsBox(r, box));
}

function meetsBox({ bounds: [w, s, e, n] }: Placed, [west, south, east, north]: readonly number[]): boolean {
  return w <= east! && e >= west! && s <= north! && n >= south!;
}

/**
 * The regions with a place within `metres` (at most LOOKUP_LIMITS.radius.max) of a point: those whose bounds meet the
 * box around it that holds every such place, as wide as each region's poleward degrees per metre make it.
 */
export function regionsNear<R extends Placed>(regions: readonly R[], [lon, lat]: LonLat, metres: number): R[] {
  const dLat = metres / METRES_PER_DEGREE_LAT;
  return regions.filter((r) => {
    const dLon = metres * r.extent.lonDegPerMetreMax;
    return meetsBox(r, [lon - dLon, lat - dLat, lon + dLon, lat + dLat]);
  });
}

/** The regions whose bounds meet tile (z, x, y), by their bounds in world fractions. */
export function regionsAtTile<R extends Placed>(regions: readonly R[], z: number, x: number, y: number): R[] {
  const n = 2 ** z;
  return regions.filter(
    ({ extent: { world } }) => world[0] * n <= x + 1 && world[2] * n >= x && world[1] * n <= y + 1 && world[3] * n >= y,
  );
}
