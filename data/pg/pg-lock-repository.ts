// Soft locks on itinerary parts on PostgreSQL (the SQLite twin: data/stores/lock-store.ts). Times arrive as epoch
// ms, as on SQLite, and are compared as timestamptz. Rows come back in primary-key order (text in "C" collation,
// as SQLite compares it), the order the SQLite store reads and deletes them in.
import type { LockRepository } from '../repositories.js';
import { type AcquireResult, COLUMNS, type Lock, LOCK_TTL_MS, type LockPart, type LockRow, NO_HOLDER, toLock } from '../model/lock.js';
import type { PgDatabase } from './pg-database.js';

const KEY_ORDER = 'itinerary_id COLLATE "C", part_type COLLATE "C", part_id COLLATE "C"';

const iso = (ms: number) => new Date(ms).toISOString();

/** The key of a part in a Map. */
const keyOf = (type: string, id: string) => `${type}\u0000${id}`;

export class PgLockRepository implements LockRepository {
  constructor(private readonly db: PgDatabase) {}

  async list(itineraryId: string, now: number): Promise<Lock[]> {
    const rows = await this.db.rows<LockRow>(
      `SELECT ${COLUMNS} FROM locks WHERE itinerary_id = $1 AND expires_at > $2 ORDER BY part_type COLLATE "C", part_id COLLATE "C"`,
      [itineraryId, iso(now)],
    );
    return rows.map(toLock);
  }

  async get(itineraryId: string, part: LockPart, now: number): Promise<Lock | undefined> {
    const row = await this.db.row<LockRow>(
      `SELECT ${COLUMNS} FROM locks WHERE itinerary_id = $1 AND part_type = $2 AND part_id = $3 AND expires_at > $4`,
      [itineraryId, part.type, part.id, iso(now)],
    );
    return row ? toLock(row) : undefined;
  }

  async expire(now: number, itineraryId?: string): Promise<Lock[]> {
    // One DELETE … RETURNING: when several nodes sweep at once, each lapsed row is deleted, and so reported, by
    // exactly one of them (the others wait on its row lock, then find the row gone).
    const rows =
      itineraryId === undefined
        ? await this.db.rows<LockRow>(
            `WITH lapsed AS (DELETE FROM locks WHERE expires_at <= $1 RETURNING ${COLUMNS})
             SELECT ${COLUMNS} FROM lapsed ORDER BY ${KEY_ORDER}`,
            [iso(now)],
          )
        : await this.db.rows<LockRow>(
            `WITH lapsed AS (DELETE FROM locks WHERE itinerary_id = $1 AND expires_at <= $2 RETURNING ${COLUMNS})
             SELECT ${COLUMNS} FROM lapsed ORDER BY ${KEY_ORDER}`,
            [itineraryId, iso(now)],
          );
    return rows.map(toLock);
  }

  async acquire(itineraryId: string, userId: string, parts: readonly LockPart[], now: number, ttlMs = LOCK_TTL_MS): Promise<AcquireResult> {
    // Check-then-write in one SERIALIZABLE transaction (retried on a collision), as the SQLite store does in an
    // IMMEDIATE one: two members taking the same free part at once cannot both get it.
    return this.db.transaction(async (): Promise<AcquireResult> => {
      const holders = await this.#liveHolders(itineraryId, parts, now);
      for (const part of parts) {
        const holder = holders.get(keyOf(part.type, part.id));
        if (holder !== undefined && holder !== userId) return { ok: false, part, holderUserId: holder };
      }
      const expiresAt = iso(now + ttlMs);
      for (const part of parts) {
        await this.db.query(
          `INSERT INTO locks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (itinerary_id, part_type, part_id)
           DO UPDATE SET holder_user_id = excluded.holder_user_id, expires_at = excluded.expires_at`,
          [itineraryId, part.type, part.id, userId, expiresAt],
        );
      }
      const locks = parts.map((part) =>
        toLock({ itinerary_id: itineraryId, part_type: part.type, part_id: part.id, holder_user_id: userId, expires_at: expiresAt }),
      );
      return { ok: true, locks };
    });
  }

  async blockingHolder(itineraryId: string, userId: string, parts: readonly LockPart[], now: number): Promise<string | undefined> {
    // One read of every part (one snapshot, as the SQLite store's synchronous reads), judged in the parts' order.
    const holders = await this.#liveHolders(itineraryId, parts, now);
    for (const part of parts) {
      const holder = holders.get(keyOf(part.type, part.id));
      if (holder === undefined) return NO_HOLDER;
      if (holder !== userId) return holder;
    }
    return undefined;
  }

  async heldByOther(itineraryId: string, userId: string, now: number): Promise<Lock | undefined> {
    const row = await this.db.row<LockRow>(
      `SELECT ${COLUMNS} FROM locks WHERE itinerary_id = $1 AND holder_user_id <> $2 AND expires_at > $3
       ORDER BY part_type COLLATE "C", part_id COLLATE "C" LIMIT 1`,
      [itineraryId, userId, iso(now)],
    );
    return row ? toLock(row) : undefined;
  }

  async release(itineraryId: string, userId: string, parts?: readonly LockPart[]): Promise<Lock[]> {
    if (!parts) {
      const rows = await this.db.rows<LockRow>(
        `WITH released AS (DELETE FROM locks WHERE itinerary_id = $1 AND holder_user_id = $2 RETURNING ${COLUMNS})
         SELECT ${COLUMNS} FROM released ORDER BY ${KEY_ORDER}`,
        [itineraryId, userId],
      );
      return rows.map(toLock);
    }
    return this.db.transaction(async () => {
      const released: Lock[] = [];
      for (const part of parts) {
        const rows = await this.db.rows<LockRow>(
          `DELETE FROM locks WHERE itinerary_id = $1 AND holder_user_id = $2 AND part_type = $3 AND part_id = $4 RETURNING ${COLUMNS}`,
          [itineraryId, userId, part.type, part.id],
        );
        released.push(...rows.map(toLock));
      }
      return released;
    });
  }

  async dropParts(itineraryId: string, parts: readonly LockPart[]): Promise<Lock[]> {
    return this.db.transaction(async () => {
      const dropped: Lock[] = [];
      for (const part of parts) {
        const rows = await this.db.rows<LockRow>(
          `DELETE FROM locks WHERE itinerary_id = $1 AND part_type = $2 AND part_id = $3 RETURNING ${COLUMNS}`,
          [itineraryId, part.type, part.id],
        );
        dropped.push(...rows.map(toLock));
      }
      return dropped;
    });
  }

  /** The live holder of each of `parts` that is locked, by part key. */
  async #liveHolders(itineraryId: string, parts: readonly LockPart[], now: number): Promise<Map<string, string>> {
    if (parts.length === 0) return new Map();
    const rows = await this.db.rows<{ part_type: string; part_id: string; holder_user_id: string }>(
      `SELECT part_type, part_id, holder_user_id FROM locks
       WHERE itinerary_id = $1 AND expires_at > $2
         AND (part_type, part_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
      [itineraryId, iso(now), parts.map((p) => p.type), parts.map((p) => p.id)],
    );
    return new Map(rows.map((r) => [keyOf(r.part_type, r.part_id), r.holder_user_id]));
  }
}
