// SRTM .hgt(.zip) reading, clipping several tiles into one DemGrid, and bilinear sampling.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { unzipSync } from 'fflate';
import { DEM_VOID, type DemGrid } from './dem-grid.js';
import { RegionInputError } from './region-error.js';

/** One SRTM tile as read from disk: 1° × 1°, rows from north to south, int16 metres. */
export interface HgtTile {
  name: string;
  south: number; // degrees, from the file name (N42 → 42)
  west: number; // degrees, from the file name (E001 → 1)
  size: number; // samples per side: 1201 (SRTM3) or 3601 (SRTM1)
  samples: Int16Array; // native-endian after decoding the big-endian file
}

const NAME = /([NS])(\d{2})([EW])(\d{3})/i;

/**
 * Reads an SRTM tile from `FILE.hgt` or `FILE.hgt.zip`. The south-west corner comes from the
 * file name (as in SRTM: N42E001 covers 42–43°N, 1–2°E). Throws RegionInputError on a missing
 * file, a name without a corner, a zip without a .hgt, or a size other than 1201² or 3601² samples.
 */
export function readHgt(path: string): HgtTile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new RegionInputError(`cannot read DEM file ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  let name = basename(path);
  if (/\.zip$/i.test(path)) {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, { filter: (f) => /\.hgt$/i.test(f.name) });
    } catch {
      throw new RegionInputError(`DEM file ${path} is not a readable zip archive`);
    }
    const entry = Object.entries(files)[0];
    if (!entry) throw new RegionInputError(`DEM file ${path} holds no .hgt file`);
    name = basename(entry[0]);
    bytes = entry[1];
  }
  const m = NAME.exec(name) ?? NAME.exec(basename(path));
  if (!m) throw new RegionInputError(`DEM file ${path}: name does not give a tile corner like N42E001`);
  const south = Number(m[2]) * (m[1]!.toUpperCase() === 'S' ? -1 : 1);
  const west = Number(m[4]) * (m[3]!.toUpperCase() === 'W' ? -1 : 1);
  const count = bytes.byteLength / 2;
  const size = Math.round(Math.sqrt(count));
  if ((size !== 1201 && size !== 3601) || size * size !== count) {
    throw new RegionInputError(`DEM file ${path} has ${bytes.byteLength} bytes; an SRTM tile has 1201² or 3601² int16 samples`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, false);
  return { name, south, west, size, samples };
}

/**
 * Clips tiles to a lon/lat box (degrees, [minLon, minLat, maxLon, maxLat]) grown by `marginDeg`,
 * at the finest tile resolution among them. Samples no tile covers are DEM_VOID.
 * Returns null when no tile overlaps the box.
 */
export function clipTiles(tiles: readonly HgtTile[], bbox: readonly [number, number, number, number], marginDeg: number): DemGrid | null {
  if (tiles.length === 0) return null;
  const per = Math.max(...tiles.map((t) => t.size - 1)); // samples per degree
  const cellDeg = 1 / per;
  const c0 = Math.floor((bbox[0] - marginDeg) * per);
  const c1 = Math.ceil((bbox[2] + marginDeg) * per);
  const r0 = Math.floor((bbox[1] - marginDeg) * per); // in "south-up" sample units
  const r1 = Math.ceil((bbox[3] + marginDeg) * per);
  const cols = c1 - c0 + 1;
  const rows = r1 - r0 + 1;
  const samples = new Int16Array(cols * rows).fill(DEM_VOID);
  let any = false;
  for (let r = 0; r < rows; r++) {
    const latUnits = r1 - r; // row 0 is north
    for (let c = 0; c < cols; c++) {
      const lonUnits = c0 + c;
      for (const t of tiles) {
        const tPer = t.size - 1;
        // Position inside the tile in its own sample units; only exact grid points are copied.
        const x = (lonUnits / per - t.west) * tPer;
        const y = (t.south + 1 - latUnits / per) * tPer;
        const xi = Math.round(x);
        const yi = Math.round(y);
        if (Math.abs(x - xi) > 1e-6 || Math.abs(y - yi) > 1e-6) continue;
        if (xi < 0 || yi < 0 || xi >= t.size || yi >= t.size) continue;
        samples[r * cols + c] = t.samples[yi * t.size + xi]!;
        any = true;
        break;
      }
    }
  }
  if (!any) return null;
  return { west: c0 / per, north: r1 / per, cellDeg, cols, rows, samples };
}

/**
 * Bilinear elevation in metres at (lon, lat) degrees; void neighbours are left out and the
 * remaining weights renormalised. NaN outside the grid or when all four neighbours are void.
 */
export function sampleDem(dem: DemGrid, lon: number, lat: number): number {
  const x = (lon - dem.west) / dem.cellDeg;
  const y = (dem.north - lat) / dem.cellDeg;
  if (!(x >= 0 && y >= 0 && x <= dem.cols - 1 && y <= dem.rows - 1)) return Number.NaN;
  const x0 = Math.min(Math.floor(x), dem.cols - 2);
  const y0 = Math.min(Math.floor(y), dem.rows - 2);
  const fx = x - x0;
  const fy = y - y0;
  const s = dem.samples;
  const i = y0 * dem.cols + x0;
  let sum = 0;
  let wsum = 0;
  const add = (v: number, w: number): void => {
    if (v !== DEM_VOID && w > 0) {
      sum += v * w;
      wsum += w;
    }
  };
  add(s[i]!, (1 - fx) * (1 - fy));
  add(s[i + 1]!, fx * (1 - fy));
  add(s[i + dem.cols]!, (1 - fx) * fy);
  add(s[i + dem.cols + 1]!, fx * fy);
  return wsum > 0 ? sum / wsum : Number.NaN;
}
