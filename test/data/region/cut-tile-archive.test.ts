// The archive cut on worker threads (the import's pool, running the compiled workers/tile-cut.js: npm run build:ts)
// holds the same tiles, byte for byte, as the cut on the calling thread; the tiles' features show from their first
// zoom on, and a tile that would pass the size limit is thinned to fit.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import type { RawTile } from 'geojson-vt';
import Pbf from 'pbf';
import { afterAll, describe, expect, it } from 'vitest';
import { TILE_BYTES_LIMIT } from '../../../contracts/tiles.js';
import { cutTileArchive, cutTileArchiveInThread } from '../../../data/region/cut-tile-archive.js';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { encodeThinned } from '../../../workers/tile-cut.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-tile-cut-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Row = { zoom_level: number; tile_column: number; tile_row: number; tile_data: Buffer };
const rowsOf = (db: Database.Database) =>
  (
    db.prepare('SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row').all() as Row[]
  ).map((r) => ({ at: `${r.zoom_level}/${r.tile_column}/${r.tile_row}`, raw: gunzipSync(r.tile_data) }));

describe('cutting the tile archive', () => {
  it('on two threads gives the tiles one thread gives', async () => {
    const region = buildDemoRegion();
    const file = join(work, 'demo.mbtiles');
    const summary = await cutTileArchive(region, file, { threads: 2 });
    expect(summary.threads).toBe(2);
    expect(summary.zooms[14]!.tiles).toBeGreaterThan(10);
    const pooled = new Database(file, { readonly: true });
    const inThread = new Database(cutTileArchiveInThread(region).bytes);
    try {
      const a = rowsOf(pooled);
      const b = rowsOf(inThread);
      expect(a.map((r) => r.at)).toEqual(b.map((r) => r.at));
      for (const [i, r] of a.entries()) expect(r.raw.equals(b[i]!.raw), r.at).toBe(true);
      expect(summary.tiles).toBe(a.length);
      // Every zoom has a tile (the valley's village); its first class of ways, the valley road, is in at z8 (smaller
      // than geojson-vt's tolerance above it); footpaths are not, and are at z11.
      const trailsAt = (z: number) =>
        b
          .filter((r) => r.at.startsWith(`${z}/`))
          .flatMap((r) => {
            const layer = new VectorTile(new Pbf(r.raw)).layers.trails;
            return layer ? Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.highway) : [];
          });
      for (const z of [0, 4])
        expect(
          b.some((r) => r.at.startsWith(`${z}/`)),
          `z${z}`,
        ).toBe(true);
      expect(trailsAt(8).length).toBeGreaterThan(0);
      expect(trailsAt(8)).not.toContain('path');
      expect(trailsAt(11)).toContain('path');
    } finally {
      pooled.close();
      inThread.close();
    }
  });

  it('thins a tile that would pass the limit: the latest first zoom and the shortest ways go first', () => {
    // 1,500 long lines of first zoom 5 (50 points, ~0.3 MB encoded) and 1,500 short ones of first zoom 11 (200 points).
    const features = Array.from({ length: 3000 }, (_, i) => {
      const long = i % 2 === 0;
      const points = long ? 50 : 200;
      const geometry = new Int32Array(2 * points);
      for (let p = 0; p < points; p++) {
        geometry[2 * p] = (i + p * (long ? 40 : 1)) % 4096;
        geometry[2 * p + 1] = (i * 3 + p * (long ? 30 : 2)) % 4096;
      }
      const tags: Record<string | symbol, unknown> = { osm_id: i, highway: long ? 'primary' : 'path' };
      tags[Symbol.for('cairn.minZoom')] = long ? 5 : 11;
      return { type: 2 as const, geometry: [geometry], tags };
    });
    const { bytes, thinned } = encodeThinned(14, [['trails', { features } as unknown as RawTile]]);
    expect(thinned).toBeGreaterThan(0);
    expect(bytes.byteLength).toBeLessThanOrEqual(TILE_BYTES_LIMIT);
    expect(bytes.byteLength).toBeGreaterThan(TILE_BYTES_LIMIT * 0.5);
    const layer = new VectorTile(new Pbf(bytes)).layers.trails!;
    const kept = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.highway);
    expect(kept.filter((h) => h === 'primary')).toHaveLength(1500);
    expect(kept.filter((h) => h === 'path').length).toBeGreaterThan(0);
    expect(kept.filter((h) => h === 'path').length).toBeLessThan(1500);
  });
});
