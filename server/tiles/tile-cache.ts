// Encoded tiles kept in memory, bounded by their bytes, the least recently used dropped first
// (lib/second-chance-map.ts). Keys name the layer,
// its version and the tile (`trails:<source>/z/x/y`, `itinerary:<id>@<version>/z/x/y`), so an edit or a publish
// that bumps a version never serves a stale tile; `forget(prefix)` frees a resource's tiles at once when the
// core says it changed. A tile being made is shared: concurrent requests for it wait for one encoding.

import { SecondChanceMap } from '../../lib/second-chance-map.js';

/** A tile as it is served: its bytes, gzip-compressed once, and its entity tag. Empty bytes: no feature (204). */
export interface EncodedTile {
  raw: Uint8Array;
  /** The same bytes gzip-compressed, when that is smaller. */
  gzip: Uint8Array | undefined;
  etag: string;
}

export class TileCache {
  readonly #entries = new SecondChanceMap<EncodedTile>();
  #making = new Map<string, Promise<EncodedTile>>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {
    if (!(maxBytes > 0)) throw new TypeError('tile cache: maxBytes must be positive');
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The cached tile of `key`, or the one `make` builds (once, however many ask at the same time). */
  get(key: string, make: () => Promise<EncodedTile>): Promise<EncodedTile> | EncodedTile {
    const hit = this.#entries.get(key);
    if (hit) return hit;
    let pending = this.#making.get(key);
    if (!pending) {
      pending = make().then(
        (tile) => {
          this.#making.delete(key);
          this.#put(key, tile);
          return tile;
        },
        (error: unknown) => {
          this.#making.delete(key);
          throw error;
        },
      );
      this.#making.set(key, pending);
    }
    return pending;
  }

  /** Drops every tile whose key starts with `prefix`. */
  forget(prefix: string): void {
    this.#entries.deleteWhere(
      (key) => key.startsWith(prefix),
      (tile) => {
        this.#bytes -= sizeOf(tile);
      },
    );
  }

  #put(key: string, tile: EncodedTile): void {
    const size = sizeOf(tile);
    if (size > this.maxBytes) return;
    // An earlier tile under the key gives its bytes up to this one (or is evicted below, with them already given).
    const earlier = this.#entries.peek(key);
    if (earlier) this.#bytes -= sizeOf(earlier);
    // Room first, then the tile: a tile just made is never the one evicted (after one, every read tile would have had
    // its second chance and been moved behind it).
    while (this.#bytes + size > this.maxBytes) {
      const evicted = this.#entries.evict();
      if (!evicted) break;
      if (evicted[0] !== key) this.#bytes -= sizeOf(evicted[1]);
    }
    this.#entries.set(key, tile);
    this.#bytes += size;
  }
}

function sizeOf(tile: EncodedTile): number {
  return tile.raw.byteLength + (tile.gzip?.byteLength ?? 0) + tile.etag.length + 64;
}
