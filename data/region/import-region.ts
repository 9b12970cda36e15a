// Imports an OSM extract (+ SRTM tiles) into a Region and optionally writes the region folder.
import { basename } from 'node:path';
import { buildRegion } from './build-region.js';
import { clipTiles, readHgt, type HgtTile } from './dem.js';
import { OsmCollector } from './osm-collector.js';
import { readPbf } from './pbf-reader.js';
import type { Region } from './region.js';
import { writeRegionWithTiles } from './cut-tile-archive.js';

export interface ImportOptions {
  osm: string; // path to .osm.pbf
  dem?: readonly string[]; // paths to .hgt / .hgt.zip
  out?: string; // region folder to write; nothing is written when absent
  /** DEM margin around the graph's bbox in degrees (default 0.02°, about 2 km). */
  demMarginDeg?: number;
}

/**
 * Reads the inputs, builds the region and (with `out`) writes it atomically. DEM files are read
 * and checked before the PBF so a wrong tile fails fast. Throws RegionInputError on bad input.
 */
export async function importRegion(opts: ImportOptions): Promise<Region> {
  const tiles: HgtTile[] = (opts.dem ?? []).map(readHgt);
  const osm = new OsmCollector();
  const header = await readPbf(opts.osm, osm);
  const region = buildRegion(osm, {
    demFor: (bbox) => clipTiles(tiles, bbox, opts.demMarginDeg ?? 0.02),
    kind: 'import',
    sources: { osm: basename(opts.osm), dem: (opts.dem ?? []).map((p) => basename(p)) },
    osmTimestamp: header.timestamp,
  });
  if (opts.out !== undefined) await writeRegionWithTiles(opts.out, region);
  return region;
}
