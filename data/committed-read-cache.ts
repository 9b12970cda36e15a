// Committed rows that every request reads, kept in memory: the credential path (publishable key, its
// organization, the acting member) would otherwise run three or four statements per request, each its own
// SQLite read transaction (~5–10 µs of locking and WAL checks apiece, more than the request's own work).
//
// Why a cached row is never stale:
// - writes through the cached repositories forget every entry (they are rare: keys, settings, members);
// - writes by another connection or process (the admin command) change SQLite's `data_version`, checked at
//   the first cached read of each event-loop turn, which then forgets every entry;
// - a row read while a transaction is open on this connection may be uncommitted: it is answered but not kept.
// Entries are deeply frozen, shared by every caller.

import type { Statement } from 'better-sqlite3';
import type { Database } from './db.js';
import { deepFreeze } from './deep-freeze.js';

/** Rows kept at most; past it the cache starts over (a flood of distinct keys cannot grow it). */
export const READ_CACHE_ENTRIES = 10_000;

export class CommittedReadCache {
  readonly #entries = new Map<string, unknown>();
  readonly #dataVersion: Statement<[], number>;
  #version: number;
  /** data_version was read in this turn (reset by the next setImmediate). */
  #checkedThisTurn = false;
  readonly #endTurn = () => {
    this.#checkedThisTurn = false;
  };

  constructor(
    private readonly db: Database,
    private readonly capacity = READ_CACHE_ENTRIES,
  ) {
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck() as Statement<[], number>;
    this.#version = this.#dataVersion.get() as number;
  }

  /** The committed value under `key`, loading (and keeping, when found and committed) it on a miss. */
  read<T>(key: string, load: () => T): T {
    this.#forgetOthersChanges();
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit as T;
    const value = load();
    if (value !== undefined && !this.db.inTransaction) {
      if (this.#entries.size >= this.capacity) this.#entries.clear();
      this.#entries.set(key, deepFreeze(value));
    }
    return value;
  }

  /** Forgets every entry (a write through this connection). */
  forget(): void {
    this.#entries.clear();
  }

  #forgetOthersChanges(): void {
    if (this.#checkedThisTurn) return;
    this.#checkedThisTurn = true;
    setImmediate(this.#endTurn);
    const version = this.#dataVersion.get() as number;
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
    }
  }
}

/**
 * `store` with `reads` answered through `cache` (keyed by method and arguments) and every other method
 * forgetting the cache before and after it runs (a write, or a read not worth keeping).
 */
export function withCachedReads<T extends object>(store: T, cache: CommittedReadCache, prefix: string, reads: readonly (keyof T)[]): T {
  const face: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
    const method = (store as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    face[name] = reads.includes(name as keyof T)
      ? (...args: unknown[]) => cache.read(`${prefix}.${name}:${keyOf(args)}`, () => method.apply(store, args))
      : (...args: unknown[]) => {
          cache.forget();
          try {
            return method.apply(store, args);
          } finally {
            cache.forget();
          }
        };
  }
  return face as T;
}

/** The cache key of a call's arguments: a lone string (an id, a key) as it is, anything else as JSON. */
function keyOf(args: unknown[]): string {
  // A JSON array starts with "[", so a lone string can never be mistaken for a list of arguments.
  return args.length === 1 && typeof args[0] === 'string' && !args[0].startsWith('[') ? args[0] : JSON.stringify(args);
}
