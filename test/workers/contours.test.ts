// Contour lines from an elevation grid: a cone gives one closed ring per level at the radius its slope puts it,
// index lines every 500 m, nothing across void samples, and the demo region's lines in its trail tiles from z12.

import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { DEM_VOID, type DemGrid } from '../../data/region/dem-grid.js';
import { contourLines } from '../../workers/contours.js';
import { tileAt } from '../helpers/tiles.js';
import { archiveTiles } from '../helpers/trail-archive.js';

/** A cone: 2000 m at the centre of a 101 × 101 grid, falling 20 m a cell. */
function cone(): DemGrid {
  const cols = 101;
  const rows = 101;
  const samples = new Int16Array(cols * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) samples[r * cols + c] = Math.round(2000 - 20 * Math.hypot(r - 50, c - 50));
  return { west: 1, north: 43, cellDeg: 0.001, cols, rows, samples };
}

describe('contourLines', () => {
  it('draws one closed ring per level of a cone, at the radius of that level (lower levels cut by the grid edge)', () => {
    const lines = contourLines(cone());
    // Levels above 1000 m lie within the grid (radius < 50 cells): one closed ring each.
    const inside = lines.filter((l) => l.elevation > 1000);
    expect(inside.map((l) => l.elevation).sort((a, b) => a - b)).toEqual([1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]);
    for (const line of inside) expect(line.coordinates[0]).toEqual(line.coordinates[line.coordinates.length - 1]);
    // Down to 600 m (the corners reach 586 m), the rest are open arcs.
    expect(Math.min(...lines.map((l) => l.elevation))).toBe(600);
    for (const line of lines) {
      const radius = (2000 - line.elevation) / 20; // cells
      for (const [lon, lat] of line.coordinates) {
        const d = Math.hypot((lon! - 1.05) / 0.001, (43 - lat! - 0.05) / 0.001);
        expect(Math.abs(d - radius)).toBeLessThan(0.6);
      }
      expect(line.index).toBe(line.elevation % 500 === 0);
    }
  });

  it('stops at void samples and draws nothing on a flat grid', () => {
    const dem = cone();
    for (let c = 0; c < dem.cols; c++) dem.samples[50 * dem.cols + c] = DEM_VOID; // a void row through the middle
    const lines = contourLines(dem);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.coordinates[0]).not.toEqual(line.coordinates[line.coordinates.length - 1]); // cut open
    const flat = { ...cone(), samples: new Int16Array(101 * 101).fill(1234) };
    expect(contourLines(flat)).toEqual([]);
  });
});

describe('the contours layer of trail tiles', () => {
  it('is in the demo region’s tiles from zoom 12, with elevation and index fields', () => {
    const region = buildDemoRegion();
    const tiles = archiveTiles(region);
    const [west, south, east, north] = region.meta.bbox;
    const tileOf = (z: number) => {
      const { x, y } = tileAt((west + east) / 2, (south + north) / 2, z);
      return tiles.tile(z, x, y);
    };
    const at13 = new VectorTile(new Pbf(tileOf(13)));
    const contours = at13.layers['contours']!;
    expect(contours.length).toBeGreaterThan(0);
    const feature = contours.feature(0);
    expect(feature.properties['elevation'] as number).toBeGreaterThan(0);
    expect((feature.properties['elevation'] as number) % 100).toBe(0);
    expect([0, 1]).toContain(feature.properties['index']);
    const at11 = new VectorTile(new Pbf(tileOf(11)));
    expect(at11.layers['contours']).toBeUndefined();
  });
});
