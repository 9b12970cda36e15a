// The tile archive an import of Andorra (with its SRTM tile) writes, read by readers that share no code with Cairn's:
// the MBTiles tables through a fresh SQLite connection and @mapbox/vector-tile, the PMTiles file (written by the
// admin command) through the `pmtiles` package. The Tile API over real HTTP serves the archive's own tiles, and a z16
// tile answers what its z14 ancestor holds there. Skipped, saying why, when ../shared/data is absent.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import Pbf from 'pbf';
import { FileSource, PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TILE_BYTES_LIMIT } from '../../../contracts/tiles.js';
import { importRegion } from '../../../data/region/import-region.js';
import { runAdmin } from '../../../server/management/admin/admin.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from '../../data/region/shared-data.js';
import { type Bootstrapped, bootstrap, type RunningServer, startServer } from '../../helpers/server.js';
import { tileAt } from '../../helpers/tiles.js';

const present = haveData(ANDORRA_PBF, ANDORRA_HGT);
let regionDir = '';
let db: Database.Database;
let server: RunningServer;
let org: Bootstrapped;

// Andorra la Vella's centre: streets, paths, the capital's place, contour lines on the slopes around it.
const CAPITAL: [number, number] = [1.5218, 42.5063];

beforeAll(async () => {
  if (!present) return;
  regionDir = mkdtempSync(join(tmpdir(), 'cairn-tile-archive-'));
  await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT], out: join(regionDir, 'region') });
  db = new Database(join(regionDir, 'region', 'tiles.mbtiles'), { readonly: true });
  server = await startServer({ SEED_DEMO: '0', REGION_PATH: join(regionDir, 'region') });
  org = bootstrap(server);
}, 180_000);
afterAll(async () => {
  db?.close();
  await server?.stop();
  if (regionDir) rmSync(regionDir, { recursive: true, force: true });
});

/** A tile as the MBTiles tables hold it (TMS row), gunzipped; undefined when absent. */
function stored(z: number, x: number, y: number): Buffer | undefined {
  const row = db
    .prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?')
    .get(z, x, 2 ** z - 1 - y) as { tile_data: Buffer } | undefined;
  return row ? gunzipSync(row.tile_data) : undefined;
}

const decode = (bytes: Uint8Array) => new VectorTile(new Pbf(bytes));
const featuresOf = (tile: VectorTile, layer: string) => {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
};

async function served(z: number, x: number, y: number): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${server.url}/v1/tiles/trails/${z}/${x}/${y}.mvt`, { headers: { 'X-API-Key': org.publishableKey.key } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe.skipIf(!present)('the tile archive of an Andorra import', () => {
  it('is an MBTiles file any reader opens: standard metadata, the four layers at known tiles', () => {
    const meta = Object.fromEntries(
      (db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((r) => [r.name, r.value]),
    );
    expect(meta).toMatchObject({ format: 'pbf', minzoom: '0', maxzoom: '14', name: 'Cairn trails' });
    expect(meta.attribution).toMatch(/OpenStreetMap/);
    const [west, south, east, north] = meta.bounds!.split(',').map(Number);
    expect(west).toBeLessThan(CAPITAL[0]);
    expect(east).toBeGreaterThan(CAPITAL[0]);
    expect(south).toBeLessThan(CAPITAL[1]);
    expect(north).toBeGreaterThan(CAPITAL[1]);
    expect(meta.center!.split(',').map(Number)).toHaveLength(3);
    const layers = JSON.parse(meta.json!).vector_layers as {
      id: string;
      fields: Record<string, string>;
      minzoom: number;
      maxzoom: number;
    }[];
    expect(layers.map((l) => l.id)).toEqual(['trails', 'hazards', 'places', 'contours']);
    expect(layers[3]).toMatchObject({ minzoom: 12, maxzoom: 14 });

    // The capital at z14: its streets and paths with their OSM fields, the place itself, contour lines.
    const { x, y } = tileAt(CAPITAL[0], CAPITAL[1], 14);
    const z14 = decode(stored(14, x, y)!);
    const trails = featuresOf(z14, 'trails');
    expect(trails.length).toBeGreaterThan(50);
    expect(trails.every((f) => f.type === 2 && typeof f.properties.osm_id === 'number' && typeof f.properties.highway === 'string')).toBe(
      true,
    );
    expect(featuresOf(z14, 'places').some((f) => f.properties.name === 'Andorra la Vella')).toBe(true);
    expect(featuresOf(z14, 'contours').every((f) => (f.properties.elevation as number) % 100 === 0)).toBe(true);
    expect(featuresOf(z14, 'contours').length).toBeGreaterThan(0);
    // Hazards (toll and restricted ways) somewhere in the country's z12 tiles.
    const z12 = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = 12').all() as { tile_data: Buffer }[];
    expect(z12.some((r) => featuresOf(decode(gunzipSync(r.tile_data)), 'hazards').length > 0)).toBe(true);
    // Low zooms: the skeleton only (no footpath at z8), but never an empty country.
    const z8 = decode(stored(8, tileAt(CAPITAL[0], CAPITAL[1], 8).x, tileAt(CAPITAL[0], CAPITAL[1], 8).y)!);
    expect(featuresOf(z8, 'trails').length).toBeGreaterThan(0);
    expect(featuresOf(z8, 'trails').some((f) => f.properties.highway === 'path' || f.properties.highway === 'footway')).toBe(false);
    expect(z8.layers.contours).toBeUndefined();
  });

  it('holds no tile over 500 KB, and none above zoom 14', () => {
    const rows = db.prepare('SELECT zoom_level, tile_data FROM tiles').all() as { zoom_level: number; tile_data: Buffer }[];
    expect(rows.length).toBeGreaterThan(300);
    for (const r of rows) expect(gunzipSync(r.tile_data).byteLength).toBeLessThanOrEqual(TILE_BYTES_LIMIT);
    expect(Math.max(...rows.map((r) => r.zoom_level))).toBe(14);
  });

  it('the Tile API serves the archive’s own tiles, TileJSON its extent, and 204 where it has none', async () => {
    for (const z of [6, 10, 13, 14]) {
      const { x, y } = tileAt(CAPITAL[0], CAPITAL[1], z);
      const answer = await served(z, x, y);
      expect(answer.status, `${z}/${x}/${y}`).toBe(200);
      expect(answer.bytes.equals(stored(z, x, y)!), `${z}/${x}/${y}`).toBe(true);
    }
    expect((await served(14, 0, 0)).status).toBe(204);
    const doc = (await (
      await fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': org.publishableKey.key } })
    ).json()) as any;
    expect(doc).toMatchObject({ minzoom: 0, maxzoom: 14, name: 'Cairn trails' });
    const bounds = (db.prepare("SELECT value FROM metadata WHERE name = 'bounds'").get() as { value: string }).value;
    expect(doc.bounds).toEqual(bounds.split(',').map(Number));
  });

  it('a z16 tile holds what its z14 ancestor holds there, scaled up', async () => {
    const at14 = tileAt(CAPITAL[0], CAPITAL[1], 14);
    const parent = decode(stored(14, at14.x, at14.y)!);
    // The z16 tile under the capital's place, wherever it is in the z14 tile.
    const place = featuresOf(parent, 'places').find((f) => f.properties.name === 'Andorra la Vella')!;
    const p = place.loadGeometry()[0]![0]!;
    const at16 = { x: at14.x * 4 + Math.floor(p.x / 1024), y: at14.y * 4 + Math.floor(p.y / 1024) };
    const answer = await served(16, at16.x, at16.y);
    expect(answer.status).toBe(200);
    const child = decode(answer.bytes);
    const there = featuresOf(child, 'places').find((f) => f.properties.id === place.properties.id);
    const dx = (at16.x - at14.x * 4) * 4096;
    const dy = (at16.y - at14.y * 4) * 4096;
    expect(there?.loadGeometry()[0]?.[0]).toMatchObject({ x: p.x * 4 - dx, y: p.y * 4 - dy });
    const ids = new Set(featuresOf(parent, 'trails').map((f) => f.properties.osm_id));
    const childTrails = featuresOf(child, 'trails');
    expect(childTrails.length).toBeGreaterThan(0);
    for (const f of childTrails) expect(ids.has(f.properties.osm_id)).toBe(true);
    // Every line of the child stays within its tile and buffer.
    for (const f of childTrails) {
      for (const ring of f.loadGeometry()) {
        for (const q of ring) {
          expect(Math.abs(q.x - 2048)).toBeLessThanOrEqual(2048 + 64);
          expect(Math.abs(q.y - 2048)).toBeLessThanOrEqual(2048 + 64);
        }
      }
    }
  });

  it('the admin command writes it as one PMTiles file that the pmtiles reader reads, tile for tile', async () => {
    const file = join(regionDir, 'andorra.pmtiles');
    const result = await runAdmin(['export-pmtiles', '--region', join(regionDir, 'region'), '--out', file, '--json'], {});
    expect(result.exitCode).toBe(0);
    const printed = JSON.parse(result.stdout).pmtiles;
    const count = (db.prepare('SELECT count(*) AS n FROM tiles').get() as { n: number }).n;
    expect(printed).toMatchObject({ file, tiles: count });
    const bytes = readFileSync(file);
    const pmtiles = new PMTiles(new FileSource(new File([bytes], 'andorra.pmtiles')));
    const header = await pmtiles.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 14, tileType: 1, clustered: true, numAddressedTiles: count });
    expect(header.minLon).toBeLessThan(CAPITAL[0]);
    expect(header.maxLat).toBeGreaterThan(CAPITAL[1]);
    const meta = (await pmtiles.getMetadata()) as { vector_layers: { id: string }[] };
    expect(meta.vector_layers.map((l) => l.id)).toEqual(['trails', 'hazards', 'places', 'contours']);
    for (const z of [0, 5, 9, 12, 14]) {
      const { x, y } = tileAt(CAPITAL[0], CAPITAL[1], z);
      const tile = await pmtiles.getZxy(z, x, y);
      expect(tile, `${z}/${x}/${y}`).toBeDefined();
      expect(Buffer.from(tile!.data).equals(stored(z, x, y)!), `${z}/${x}/${y}`).toBe(true);
    }
    expect(await pmtiles.getZxy(14, 0, 0)).toBeUndefined();
    // Every tile of one zoom, read back through the directories.
    const z13 = db.prepare('SELECT tile_column, tile_row FROM tiles WHERE zoom_level = 13').all() as {
      tile_column: number;
      tile_row: number;
    }[];
    for (const r of z13) expect(await pmtiles.getZxy(13, r.tile_column, 2 ** 13 - 1 - r.tile_row)).toBeDefined();
    const missing = await runAdmin(['export-pmtiles', '--region', join(regionDir, 'nowhere'), '--out', file], {});
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/tiles\.mbtiles does not exist/);
  });
});
