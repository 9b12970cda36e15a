// Which region a request goes to, by its coordinates: the region whose network lies where every point is; the
// waypoint that leaves it refused, naming both regions; near a border the region with a way in the point's own cell.
import { describe, expect, it } from 'vitest';
import type { RegionCoverage } from '../../../contracts/region-ref.js';
import { mercatorX, mercatorY, metresPerDegreeLon } from '../../../data/region/geo.js';
import { chooseRegion, type Placed, regionsAtTile, regionsInBox, regionsNear } from '../../../server/regions/region-choice.js';

/** A region whose network fills the given cells of a 0.1° grid from (0, 0). */
function region(name: string, cells: [col: number, row: number][], cols = 20, rows = 10): Placed {
  const coverage: RegionCoverage = { west: 0, south: 0, cellDeg: 0.1, cols, rows, cells: new Uint8Array(cols * rows) };
  for (const [c, r] of cells) coverage.cells[r * cols + c] = 1;
  const lons = cells.map(([c]) => c * 0.1);
  const lats = cells.map(([, r]) => r * 0.1);
  const [west, south, east, north] = [Math.min(...lons), Math.min(...lats), Math.max(...lons) + 0.1, Math.max(...lats) + 0.1];
  const extent = {
    world: [mercatorX(west), mercatorY(north), mercatorX(east), mercatorY(south)] as [number, number, number, number],
    lonDegPerMetre: 1 / metresPerDegreeLon((south + north) / 2),
    lonDegPerMetreMax: 1 / metresPerDegreeLon(north + 0.5),
  };
  return { name, coverage, bounds: [west, south, east, north], extent };
}

const west = region('west', [
  [1, 1],
  [2, 1],
  [3, 1],
]);
const east = region('east', [
  [8, 1],
  [9, 1],
]);
// Touching west at its eastern end: cell 4 is east of west's last cell.
const border = region('border', [
  [4, 1],
  [5, 1],
]);

describe('choosing the region of a request', () => {
  it('is the region where all the points are', () => {
    expect(
      chooseRegion(
        [west, east],
        [
          [0.15, 0.15],
          [0.35, 0.15],
        ],
      ),
    ).toEqual({ ok: true, region: west });
    expect(chooseRegion([west, east], [[0.85, 0.15]])).toEqual({ ok: true, region: east });
  });

  it('refuses at the first point in a region the others are not in, naming both', () => {
    expect(
      chooseRegion(
        [west, east],
        [
          [0.15, 0.15],
          [0.25, 0.15],
          [0.95, 0.15],
        ],
      ),
    ).toEqual({ ok: false, index: 2, here: west, there: east });
  });

  it('prefers the region with a way in the point’s own cell over a neighbour a cell away', () => {
    // 0.45 is in border's cell 4 and a cell from west's cell 3: border's.
    expect(chooseRegion([west, border], [[0.45, 0.15]])).toEqual({ ok: true, region: border });
    // Both reach 0.38 (west's own cell), so west.
    expect(chooseRegion([border, west], [[0.38, 0.15]])).toEqual({ ok: true, region: west });
  });

  it('lets a point no region holds not decide; with none held, the region nearest the first point', () => {
    expect(
      chooseRegion(
        [west, east],
        [
          [0.15, 0.15],
          [1.5, 0.9],
        ],
      ),
    ).toEqual({ ok: true, region: west });
    expect(chooseRegion([west, east], [[1.9, 0.9]])).toEqual({ ok: true, region: east });
  });

  it('finds the regions within a distance of a point, and the regions a tile meets', () => {
    // West ends at 0.4°; 0.5° is ~55 km east of it near the equator: within 60 km, not within 50 km.
    expect(regionsNear([west, east], [0.9, 0.15], 50_000).map((r) => r.name)).toEqual(['east']);
    expect(regionsNear([west, east], [0.9, 0.15], 60_000).map((r) => r.name)).toEqual(['west', 'east']);
    // At z7 a tile is 2.8° wide: the one at (0.2, 0.15) holds both; at z10 (0.35°) only west's.
    const at = (z: number, lon: number, lat: number) =>
      regionsAtTile([west, east], z, Math.floor(mercatorX(lon) * 2 ** z), Math.floor(mercatorY(lat) * 2 ** z)).map((r) => r.name);
    expect(at(7, 0.2, 0.15)).toEqual(['west', 'east']);
    expect(at(10, 0.2, 0.15)).toEqual(['west']);
    expect(at(10, 5, 5)).toEqual([]);
  });

  it('finds the regions a box meets', () => {
    expect(regionsInBox([west, east, border], [0.55, 0, 0.85, 0.5]).map((r) => r.name)).toEqual(['east', 'border']);
  });
});
