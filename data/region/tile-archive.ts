// The region's trail tiles as an MBTiles 1.3 archive (SQLite, https://github.com/mapbox/mbtiles-spec): the
// `metadata` table (name, format pbf, bounds, center, minzoom, maxzoom, json with vector_layers, attribution, and
// Cairn's own `cairn_kind` and `cairn_tag`) and the `tiles` table (TMS rows: y flipped; gzip-compressed Mapbox Vector
// Tiles, as tippecanoe writes them). The import writes it into the region folder (`tiles.mbtiles`); the server reads
// one tile by (z, x, y) with a prepared statement on the main thread.

import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { CONTOURS_MIN_ZOOM, TRAIL_LAYER_FIELDS, type TrailArchiveInfo } from '../../contracts/tiles.js';
import type { Region } from './region.js';
import { RegionInputError } from './region-error.js';

/** Bumped whenever what a tile holds changes, so that clients' cached tiles are revalidated (it is in the tag). */
export const TRAIL_TILE_FORMAT = 3;

/** What the archive of `region` says of itself, cut down to `maxzoom`. */
export function archiveInfo(region: Region, minzoom: number, maxzoom: number): TrailArchiveInfo {
  return {
    bbox: region.meta.bbox,
    attribution: region.meta.attribution,
    kind: region.meta.kind,
    hasDem: region.dem !== null,
    tag: createHash('sha256')
      .update(`${TRAIL_TILE_FORMAT}\n${JSON.stringify(region.meta)}`)
      .digest('base64url')
      .slice(0, 12),
    minzoom,
    maxzoom,
  };
}

/** The archive's vector_layers (TileJSON's shape): contours only where the region has elevation data. */
export function vectorLayers(info: TrailArchiveInfo) {
  return Object.entries(TRAIL_LAYER_FIELDS)
    .filter(([id]) => id !== 'contours' || info.hasDem)
    .map(([id, layer]) => ({
      id,
      description: layer.description,
      fields: layer.fields as Record<string, string>,
      minzoom: id === 'contours' ? CONTOURS_MIN_ZOOM : info.minzoom,
      maxzoom: info.maxzoom,
    }));
}

/** A zoom that shows the whole box on a ~1,000 px map. */
export function centerZoom([west, south, east, north]: readonly number[], maxzoom: number): number {
  const span = Math.max(east! - west!, (north! - south!) * 1.5, 1e-6);
  return Math.max(0, Math.min(maxzoom, Math.floor(Math.log2(360 / span)) + 1));
}

/** The `metadata` rows of an archive. */
function metadataRows(info: TrailArchiveInfo): [string, string][] {
  const [west, south, east, north] = info.bbox;
  return [
    ['name', info.kind === 'demo' ? 'Cairn demo region trails' : 'Cairn trails'],
    ['format', 'pbf'],
    ['type', 'baselayer'],
    ['version', String(TRAIL_TILE_FORMAT)],
    ['description', 'Trails, hazards, places and contours of a Cairn region'],
    ['bounds', [west, south, east, north].join(',')],
    ['center', [(west + east) / 2, (south + north) / 2, centerZoom(info.bbox, info.maxzoom)].join(',')],
    ['minzoom', String(info.minzoom)],
    ['maxzoom', String(info.maxzoom)],
    ['attribution', info.attribution],
    ['json', JSON.stringify({ vector_layers: vectorLayers(info) })],
    ['cairn_kind', info.kind],
    ['cairn_tag', info.tag],
  ];
}

/** Writes an archive: tiles in transactions of one batch each, then the metadata. */
export class MbtilesWriter {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #batch: Database.Transaction<(tiles: readonly [number, number, number, Uint8Array][]) => void>;

  /** A new archive at `path` (replaced when there is one), or in memory with ':memory:'. */
  constructor(path: string) {
    this.#db = new Database(path);
    // Written once, start to finish, into a folder renamed into place only when complete: no journal needed.
    this.#db.pragma('journal_mode = OFF');
    this.#db.pragma('synchronous = OFF');
    this.#db.exec(`
      DROP TABLE IF EXISTS metadata;
      DROP TABLE IF EXISTS tiles;
      CREATE TABLE metadata (name TEXT NOT NULL, value TEXT);
      CREATE UNIQUE INDEX name ON metadata (name);
      CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    `);
    this.#insert = this.#db.prepare('INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    this.#batch = this.#db.transaction((tiles) => {
      for (const [z, x, y, data] of tiles) this.#insert.run(z, x, 2 ** z - 1 - y, data);
    });
  }

  /** Tiles by XYZ address (stored with TMS rows), gzip-compressed bytes; one transaction. */
  add(tiles: readonly [number, number, number, Uint8Array][]): void {
    this.#batch(tiles);
  }

  /** Writes the metadata. */
  finish(info: TrailArchiveInfo): void {
    const put = this.#db.prepare('INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)');
    this.#db.transaction(() => {
      for (const [name, value] of metadataRows(info)) put.run(name, value);
    })();
  }

  /** The database as bytes (an in-memory archive), closing it. */
  serialize(): Buffer {
    const bytes = this.#db.serialize();
    this.#db.close();
    return bytes;
  }

  close(): void {
    this.#db.close();
  }
}

/** An archive opened for reading: its metadata, and one tile's gzip-compressed bytes by XYZ address. */
export class TileArchive {
  readonly info: TrailArchiveInfo;
  readonly #db: Database.Database;
  readonly #tile: Database.Statement<[number, number, number], Buffer>;

  /** Opens the archive at `path`, or one held in memory as the bytes of the database. */
  constructor(source: string | Buffer) {
    const where = typeof source === 'string' ? source : 'the archive in memory';
    try {
      this.#db = typeof source === 'string' ? new Database(source, { readonly: true, fileMustExist: true }) : new Database(source);
      const rows = this.#db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[];
      const meta = new Map(rows.map((r) => [r.name, r.value]));
      const bounds = (meta.get('bounds') ?? '').split(',').map(Number);
      const layers = JSON.parse(meta.get('json') ?? '{}').vector_layers as { id: string }[] | undefined;
      if (meta.get('format') !== 'pbf' || bounds.length !== 4 || bounds.some(Number.isNaN) || !layers)
        throw new Error('not a trail archive');
      this.info = {
        bbox: bounds as [number, number, number, number],
        attribution: meta.get('attribution') ?? '',
        kind: meta.get('cairn_kind') === 'demo' ? 'demo' : 'import',
        hasDem: layers.some((l) => l.id === 'contours'),
        tag: meta.get('cairn_tag') ?? 'none',
        minzoom: Number(meta.get('minzoom') ?? 0),
        maxzoom: Number(meta.get('maxzoom') ?? 0),
      };
      this.#tile = this.#db
        .prepare<[number, number, number], Buffer>('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?')
        .pluck();
    } catch (e) {
      throw new RegionInputError(`tile archive ${where} is unreadable (${(e as Error).message}): re-import the region`);
    }
  }

  /** The tile's gzip-compressed bytes, or undefined when the region has nothing there. */
  tile(z: number, x: number, y: number): Buffer | undefined {
    return this.#tile.get(z, x, 2 ** z - 1 - y);
  }

  close(): void {
    this.#db.close();
  }
}
