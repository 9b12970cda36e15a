// A region's tile archive cut in memory on the test's thread, read as the server reads it: a tile's bytes
// (uncompressed) by address, empty where the region has nothing; tiles deeper than the archive cut from their
// ancestor as the worker task does.

import { gunzipSync } from 'node:zlib';
import { cutTileArchiveInThread } from '../../data/region/cut-tile-archive.js';
import type { Region } from '../../data/region/region.js';
import { TileArchive } from '../../data/region/tile-archive.js';
import { ARCHIVE_MAX_ZOOM } from '../../contracts/tiles.js';
import { overzoomTile } from '../../workers/mvt-overzoom.js';

export interface ArchiveTiles {
  archive: TileArchive;
  tile(z: number, x: number, y: number): Uint8Array;
}

export function archiveTiles(region: Region): ArchiveTiles {
  const archive = new TileArchive(cutTileArchiveInThread(region).bytes);
  const stored = (z: number, x: number, y: number) => {
    const packed = archive.tile(z, x, y);
    return packed ? new Uint8Array(gunzipSync(packed)) : new Uint8Array(0);
  };
  return {
    archive,
    tile(z, x, y) {
      if (z <= ARCHIVE_MAX_ZOOM) return stored(z, x, y);
      const shift = z - ARCHIVE_MAX_ZOOM;
      const ancestor = stored(ARCHIVE_MAX_ZOOM, x >> shift, y >> shift);
      return ancestor.byteLength === 0 ? ancestor : overzoomTile(ancestor, ARCHIVE_MAX_ZOOM, z, x, y);
    },
  };
}
