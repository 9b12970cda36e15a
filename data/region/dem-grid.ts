// An elevation model clipped to a region: SRTM-style samples on a regular lon/lat grid.

/**
 * Row-major int16 samples in metres, row 0 at the NORTH edge (as in SRTM .hgt files).
 * Sample (row r, col c) sits at lon = west + c * cellDeg, lat = north - r * cellDeg.
 * VOID (-32768) marks a missing sample.
 */
export interface DemGrid {
  west: number; // degrees, longitude of column 0
  north: number; // degrees, latitude of row 0
  cellDeg: number; // spacing between samples in degrees (1/1200 for SRTM3, 1/3600 for SRTM1)
  cols: number;
  rows: number;
  samples: Int16Array; // length cols * rows
}

export const DEM_VOID = -32768;
