// SRTM reading, clipping and bilinear sampling.
import { describe, expect, it } from 'vitest';
import { DEM_VOID, type DemGrid } from '../../../data/region/dem-grid.js';
import { clipTiles, readHgt, sampleDem } from '../../../data/region/dem.js';
import { decodeDemFile, encodeDemFile } from '../../../data/region/dem-file.js';
import { ANDORRA_HGT, haveData } from './shared-data.js';

const grid: DemGrid = {
  west: 1,
  north: 43,
  cellDeg: 0.5,
  cols: 3,
  rows: 3,
  samples: Int16Array.from([0, 100, 200, 0, 100, 200, 0, 100, DEM_VOID]),
};

describe('DEM', () => {
  it('samples grid points exactly and interpolates between them', () => {
    expect(sampleDem(grid, 1.5, 43)).toBe(100);
    expect(sampleDem(grid, 1.25, 42.75)).toBe(50);
    expect(sampleDem(grid, 1.5, 42)).toBe(100);
  });

  it('leaves void neighbours out and answers NaN outside the grid', () => {
    // Three of the four neighbours (100, 200, 100) at weight 1/4 each, renormalised to 3/4.
    expect(sampleDem(grid, 1.75, 42.25)).toBeCloseTo(400 / 3, 9);
    expect(sampleDem(grid, 2, 42)).toBeNaN();
    expect(sampleDem(grid, 0.9, 42.5)).toBeNaN();
  });

  it('round-trips through dem.bin', () => {
    expect(decodeDemFile(encodeDemFile(grid))).toEqual(grid);
  });

  it.skipIf(!haveData(ANDORRA_HGT))('reads N42E001.hgt.zip and clips it to a box with the same samples', () => {
    const tile = readHgt(ANDORRA_HGT);
    expect(tile.size).toBe(1201);
    expect([tile.south, tile.west]).toEqual([42, 1]);
    const dem = clipTiles([tile], [1.5, 42.5, 1.6, 42.6], 0.01)!;
    expect(dem.cellDeg).toBeCloseTo(1 / 1200, 12);
    // Grid point (lon 1.55, lat 42.55) is tile row (43 − 42.55)·1200 = 540, col 0.55·1200 = 660.
    expect(sampleDem(dem, 1.55, 42.55)).toBeCloseTo(tile.samples[540 * 1201 + 660]!, 6);
    expect(clipTiles([tile], [5, 45, 5.1, 45.1], 0.01)).toBeNull();
  });
});
