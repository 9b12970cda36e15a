// Soft locks on itinerary parts: one holder per part, with an expiry renewed by each guarded write.
// SQLite statements only: the record and its row mapping live in ../model/lock.ts.
import type { Statement } from 'better-sqlite3';
import type { Database } from '../db.js';
import { type AcquireResult, COLUMNS, type Lock, LOCK_TTL_MS, type LockPart, type LockRow, NO_HOLDER, toLock } from '../model/lock.js';

/** All methods take `now` (epoch ms) so tests can drive the clock; expired rows count as free. */
export class LockStore {
  readonly #db: Database;
  readonly #list: Statement<[string, string], LockRow>;
  readonly #get: Statement<[string, string, string, string], LockRow>;
  readonly #upsert: Statement<LockRow>;
  readonly #expireIn: Statement<[string, string], LockRow>;
  readonly #expireAll: Statement<[string], LockRow>;
  readonly #releaseAll: Statement<[string, string], LockRow>;
  readonly #releaseOne: Statement<[string, string, string, string], LockRow>;
  readonly #other: Statement<[string, string, string], LockRow>;
  readonly #dropPart: Statement<[string, string, string], LockRow>;

  constructor(db: Database) {
    this.#db = db;
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM locks WHERE itinerary_id = ? AND expires_at > ? ORDER BY part_type, part_id`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM locks WHERE itinerary_id = ? AND part_type = ? AND part_id = ? AND expires_at > ?`);
    this.#upsert = db.prepare(
      `INSERT INTO locks (${COLUMNS}) VALUES (@itinerary_id, @part_type, @part_id, @holder_user_id, @expires_at)
       ON CONFLICT (itinerary_id, part_type, part_id)
       DO UPDATE SET holder_user_id = excluded.holder_user_id, expires_at = excluded.expires_at`,
    );
    this.#expireIn = db.prepare(`DELETE FROM locks WHERE itinerary_id = ? AND expires_at <= ? RETURNING ${COLUMNS}`);
    this.#expireAll = db.prepare(`DELETE FROM locks WHERE expires_at <= ? RETURNING ${COLUMNS}`);
    this.#releaseAll = db.prepare(`DELETE FROM locks WHERE itinerary_id = ? AND holder_user_id = ? RETURNING ${COLUMNS}`);
    this.#releaseOne = db.prepare(
      `DELETE FROM locks WHERE itinerary_id = ? AND holder_user_id = ? AND part_type = ? AND part_id = ? RETURNING ${COLUMNS}`,
    );
    this.#dropPart = db.prepare(`DELETE FROM locks WHERE itinerary_id = ? AND part_type = ? AND part_id = ? RETURNING ${COLUMNS}`);
    this.#other = db.prepare(`SELECT ${COLUMNS} FROM locks WHERE itinerary_id = ? AND holder_user_id <> ? AND expires_at > ? LIMIT 1`);
  }

  /** Live locks of an itinerary. */
  list(itineraryId: string, now: number): Lock[] {
    return this.#list.all(itineraryId, new Date(now).toISOString()).map(toLock);
  }

  /** The live lock on one part, if any. */
  get(itineraryId: string, part: LockPart, now: number): Lock | undefined {
    const row = this.#get.get(itineraryId, part.type, part.id, new Date(now).toISOString());
    return row ? toLock(row) : undefined;
  }

  /** Removes the locks that lapsed by `now` (of one itinerary, or all) and returns them. */
  expire(now: number, itineraryId?: string): Lock[] {
    const nowText = new Date(now).toISOString();
    const rows = itineraryId === undefined ? this.#expireAll.all(nowText) : this.#expireIn.all(itineraryId, nowText);
    return rows.map(toLock);
  }

  /**
   * Takes (or renews) the locks on every part for `userId`, all or nothing: if another member holds a live
   * lock on any part, nothing changes and that part and holder are returned. Lapsed locks are taken over
   * (call `expire` first to learn whose they were).
   */
  acquire(itineraryId: string, userId: string, parts: readonly LockPart[], now: number, ttlMs = LOCK_TTL_MS): AcquireResult {
    return this.#db
      .transaction((): AcquireResult => {
        const nowText = new Date(now).toISOString();
        for (const part of parts) {
          const row = this.#get.get(itineraryId, part.type, part.id, nowText);
          if (row && row.holder_user_id !== userId) return { ok: false, part, holderUserId: row.holder_user_id };
        }
        const expiresAt = new Date(now + ttlMs).toISOString();
        const locks = parts.map((part) => {
          const row: LockRow = {
            itinerary_id: itineraryId,
            part_type: part.type,
            part_id: part.id,
            holder_user_id: userId,
            expires_at: expiresAt,
          };
          this.#upsert.run(row);
          return toLock(row);
        });
        return { ok: true, locks };
      })
      .immediate();
  }

  /**
   * For a guarded write: the holder that blocks `userId` from changing `parts`: another member's id, NO_HOLDER
   * when a part is not locked at all, or undefined when the caller holds every part.
   */
  blockingHolder(itineraryId: string, userId: string, parts: readonly LockPart[], now: number): string | undefined {
    for (const part of parts) {
      const lock = this.get(itineraryId, part, now);
      if (!lock) return NO_HOLDER;
      if (lock.holderUserId !== userId) return lock.holderUserId;
    }
    return undefined;
  }

  /** Another member's live lock anywhere on the itinerary (blocks publishing). */
  heldByOther(itineraryId: string, userId: string, now: number): Lock | undefined {
    const row = this.#other.get(itineraryId, userId, new Date(now).toISOString());
    return row ? toLock(row) : undefined;
  }

  /** Releases the caller's locks on the given parts, or all of them; returns the locks released. */
  release(itineraryId: string, userId: string, parts?: readonly LockPart[]): Lock[] {
    if (!parts) return this.#releaseAll.all(itineraryId, userId).map(toLock);
    return this.#db
      .transaction(() => parts.flatMap((p) => this.#releaseOne.all(itineraryId, userId, p.type, p.id).map(toLock)))
      .immediate();
  }

  /** Drops every lock on parts that no longer exist, whoever held them; returns the locks dropped. */
  dropParts(itineraryId: string, parts: readonly LockPart[]): Lock[] {
    return this.#db.transaction(() => parts.flatMap((p) => this.#dropPart.all(itineraryId, p.type, p.id).map(toLock))).immediate();
  }
}
