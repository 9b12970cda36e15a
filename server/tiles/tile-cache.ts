// Encoded tiles kept in memory, bounded by their bytes, the least recently used dropped first (by the clock
// rule: a hit only marks its entry, and eviction gives a marked entry a second chance instead of dropping it, so
// the map is never rewritten on a hit; re-inserting on every hit made the long-lived map rebuild its table every
// few dozen requests, each old table left for a major collection). Keys name the layer,
// its version and the tile (`trails:<source>/z/x/y`, `itinerary:<id>@<version>/z/x/y`), so an edit or a publish
// that bumps a version never serves a stale tile; `forget(prefix)` frees a resource's tiles at once when the
// core says it changed. A tile being made is shared: concurrent requests for it wait for one encoding.

/** A tile as it is served: its bytes, gzip-compressed once, and its entity tag. Empty bytes: no feature (204). */
export interface EncodedTile {
  raw: Uint8Array;
  /** The same bytes gzip-compressed, when that is smaller. */
  gzip: Uint8Array | undefined;
  etag: string;
}

interface Slot {
  tile: EncodedTile;
  /** Read since it was inserted or last given a second chance. */
  used: boolean;
}

export class TileCache {
  #entries = new Map<string, Slot>();
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
    if (hit) {
      hit.used = true;
      return hit.tile;
    }
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
    for (const [key, slot] of this.#entries) {
      if (key.startsWith(prefix)) {
        this.#entries.delete(key);
        this.#bytes -= sizeOf(slot.tile);
      }
    }
  }

  #put(key: string, tile: EncodedTile): void {
    const size = sizeOf(tile);
    if (size > this.maxBytes) return;
    const replaced = this.#entries.get(key);
    if (replaced) this.#bytes -= sizeOf(replaced.tile);
    this.#entries.set(key, { tile, used: false });
    this.#bytes += size;
    // Oldest first (Map keeps insertion order); a used entry goes to the end unmarked, at most once per pass.
    let chances = this.#entries.size;
    for (const [oldest, slot] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      if (slot.used && chances-- > 0 && oldest !== key) {
        slot.used = false;
        this.#entries.set(oldest, slot);
      } else {
        this.#bytes -= sizeOf(slot.tile);
      }
    }
  }
}

function sizeOf(tile: EncodedTile): number {
  return tile.raw.byteLength + (tile.gzip?.byteLength ?? 0) + tile.etag.length + 64;
}
