// The region's tile archive as one PMTiles v3 file (https://github.com/protomaps/PMTiles, spec/v3/spec.md), which a
// CDN or any static file host can serve to a PMTiles client: a 127-byte header, a root directory, the metadata (JSON),
// leaf directories, then the tile data clustered in tile-id order (Hilbert order within each zoom). Directories and
// metadata are gzip-compressed; the tiles are stored as the MBTiles archive holds them (gzip MVT). Identical tiles
// are stored once, and runs of them are one directory entry.

import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { centerZoom, TileArchive } from './tile-archive.js';

const HEADER_BYTES = 127;
/** The header and the root directory fit in the first 16 KiB (what clients fetch first). */
const ROOT_LIMIT = 16_384 - HEADER_BYTES;

/** The id of tile (z, x, y): the tiles of every lower zoom, then its position along the zoom's Hilbert curve. */
export function tileId(z: number, x: number, y: number): number {
  let acc = 0;
  for (let i = 0; i < z; i++) acc += 4 ** i;
  const n = 2 ** z;
  let d = 0;
  let tx = x;
  let ty = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (tx & s) > 0 ? 1 : 0;
    const ry = (ty & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        tx = s - 1 - tx;
        ty = s - 1 - ty;
      }
      [tx, ty] = [ty, tx];
    }
  }
  return acc + d;
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

/** Unsigned LEB128, for numbers up to 2^53. */
function varint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** A directory as the spec serializes it (ids as deltas, then run lengths, lengths, offsets), gzip-compressed. */
function directoryBytes(entries: readonly Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const previous = entries[i - 1];
    varint(out, previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1);
  });
  return gzipSync(Uint8Array.from(out));
}

/** The root directory and the leaves it points to: the root alone when it fits in the first 16 KiB. */
function directories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer } {
  const root = directoryBytes(entries);
  if (root.byteLength <= ROOT_LIMIT) return { root, leaves: Buffer.alloc(0) };
  for (let size = 4096; ; size *= 2) {
    const leafBytes: Buffer[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += size) {
      const leaf = directoryBytes(entries.slice(i, i + size));
      rootEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.byteLength, runLength: 0 });
      leafBytes.push(leaf);
      offset += leaf.byteLength;
    }
    const rootBytes = directoryBytes(rootEntries);
    if (rootBytes.byteLength <= ROOT_LIMIT) return { root: rootBytes, leaves: Buffer.concat(leafBytes) };
  }
}

export interface PmtilesSummary {
  file: string;
  /** Tiles addressed, and distinct contents stored. */
  tiles: number;
  contents: number;
  bytes: number;
}

/**
 * Writes the MBTiles archive at `mbtiles` as the PMTiles v3 file `file` (written beside it and renamed into place).
 * Tiles are read twice, never all held at once: once to order and deduplicate them, once to write them.
 */
export function writePmtiles(mbtiles: string, file: string): PmtilesSummary {
  const archive = new TileArchive(mbtiles);
  const info = archive.info;
  archive.close();
  const db = new Database(mbtiles, { readonly: true, fileMustExist: true });
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    const meta = new Map(
      (db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((r) => [r.name, r.value]),
    );
    // Pass 1: every tile's id and content digest, by rowid.
    const tiles: { id: number; rowid: number; digest: string; length: number }[] = [];
    for (const row of db.prepare('SELECT rowid, zoom_level, tile_column, tile_row, tile_data FROM tiles').iterate() as Iterable<{
      rowid: number;
      zoom_level: number;
      tile_column: number;
      tile_row: number;
      tile_data: Buffer;
    }>) {
      const z = row.zoom_level;
      tiles.push({
        id: tileId(z, row.tile_column, 2 ** z - 1 - row.tile_row),
        rowid: row.rowid,
        digest: createHash('sha256').update(row.tile_data).digest('base64'),
        length: row.tile_data.byteLength,
      });
    }
    tiles.sort((a, b) => a.id - b.id);
    // Offsets in the data section: a content's first tile places it, later equal ones point at it.
    const placed = new Map<string, number>();
    const order: number[] = []; // rowids of the contents, in data order
    const entries: Entry[] = [];
    let dataBytes = 0;
    for (const t of tiles) {
      let offset = placed.get(t.digest);
      if (offset === undefined) {
        offset = dataBytes;
        placed.set(t.digest, offset);
        order.push(t.rowid);
        dataBytes += t.length;
      }
      const last = entries[entries.length - 1];
      if (last && last.offset === offset && last.tileId + last.runLength === t.id) last.runLength++;
      else entries.push({ tileId: t.id, offset, length: t.length, runLength: 1 });
    }
    const { root, leaves } = directories(entries);
    const [west, south, east, north] = info.bbox;
    const metadata = gzipSync(
      JSON.stringify({
        name: meta.get('name'),
        format: 'pbf',
        type: meta.get('type'),
        description: meta.get('description'),
        version: meta.get('version'),
        attribution: info.attribution,
        vector_layers: JSON.parse(meta.get('json') ?? '{}').vector_layers ?? [],
      }),
    );
    const header = Buffer.alloc(HEADER_BYTES);
    header.write('PMTiles', 0, 'ascii');
    header.writeUInt8(3, 7);
    const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
    const rootOffset = HEADER_BYTES;
    const metadataOffset = rootOffset + root.byteLength;
    const leavesOffset = metadataOffset + metadata.byteLength;
    const dataOffset = leavesOffset + leaves.byteLength;
    u64(rootOffset, 8);
    u64(root.byteLength, 16);
    u64(metadataOffset, 24);
    u64(metadata.byteLength, 32);
    u64(leavesOffset, 40);
    u64(leaves.byteLength, 48);
    u64(dataOffset, 56);
    u64(dataBytes, 64);
    u64(tiles.length, 72); // addressed tiles
    u64(entries.length, 80); // tile entries
    u64(order.length, 88); // tile contents
    header.writeUInt8(1, 96); // clustered
    header.writeUInt8(2, 97); // internal compression: gzip
    header.writeUInt8(2, 98); // tile compression: gzip
    header.writeUInt8(1, 99); // tile type: MVT
    header.writeUInt8(info.minzoom, 100);
    header.writeUInt8(info.maxzoom, 101);
    const e7 = (degrees: number) => Math.round(degrees * 1e7);
    header.writeInt32LE(e7(west), 102);
    header.writeInt32LE(e7(south), 106);
    header.writeInt32LE(e7(east), 110);
    header.writeInt32LE(e7(north), 114);
    header.writeUInt8(centerZoom(info.bbox, info.maxzoom), 118);
    header.writeInt32LE(e7((west + east) / 2), 119);
    header.writeInt32LE(e7((south + north) / 2), 123);
    // Pass 2: the file, tile data last, each content read by its rowid.
    const fd = openSync(tmp, 'w');
    try {
      for (const part of [header, root, metadata, leaves]) writeSync(fd, part);
      const blob = db.prepare<[number], Buffer>('SELECT tile_data FROM tiles WHERE rowid = ?').pluck();
      for (const rowid of order) writeSync(fd, blob.get(rowid)!);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    return { file, tiles: tiles.length, contents: order.length, bytes: dataOffset + dataBytes };
  } finally {
    db.close();
    rmSync(tmp, { force: true });
  }
}
