// Usage counters per organization, API and minute (reporting; the hot-path quota counters live in the server).
// SQLite statements only: the record and its row mapping live in ../model/usage.ts.
import type { Statement } from 'better-sqlite3';
import type { Database } from '../db.js';
import type { UsageBucket, UsageDay, UsageQuery } from '../model/usage.js';

export class UsageStore {
  readonly #increment: Statement<[string, string, number, number], { count: number }>;
  readonly #get: Statement<[string, string, number], { count: number }>;
  readonly #range: Statement<[string, number, number], UsageBucket>;
  readonly #rangeApi: Statement<[string, string, number, number], UsageBucket>;
  readonly #days: Statement<[string, number, number], UsageDay>;
  readonly #prune: Statement<[number]>;

  constructor(db: Database) {
    this.#increment = db.prepare(
      `INSERT INTO usage_counters (organization_id, api, minute, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (organization_id, api, minute) DO UPDATE SET count = count + excluded.count
       RETURNING count`,
    );
    this.#get = db.prepare('SELECT count FROM usage_counters WHERE organization_id = ? AND api = ? AND minute = ?');
    this.#range = db.prepare(
      `SELECT api, minute, count FROM usage_counters WHERE organization_id = ? AND minute >= ? AND minute < ?
       ORDER BY minute, api`,
    );
    this.#rangeApi = db.prepare(
      `SELECT api, minute, count FROM usage_counters
       WHERE organization_id = ? AND api = ? AND minute >= ? AND minute < ? ORDER BY minute`,
    );
    this.#days = db.prepare(
      `SELECT api, strftime('%Y-%m-%d', minute * 60, 'unixepoch') AS day, sum(count) AS count FROM usage_counters
       WHERE organization_id = ? AND minute >= ? AND minute < ? GROUP BY api, day ORDER BY day, api`,
    );
    this.#prune = db.prepare('DELETE FROM usage_counters WHERE minute < ?');
  }

  /** Adds `by` (default 1) to the bucket and returns its new count. */
  increment(organizationId: string, api: string, minute: number, by = 1): number {
    return this.#increment.get(organizationId, api, minute, by)?.count ?? 0;
  }

  get(organizationId: string, api: string, minute: number): number {
    return this.#get.get(organizationId, api, minute)?.count ?? 0;
  }

  /** Per-minute buckets in [fromMinute, toMinute), empty buckets omitted. */
  query(q: UsageQuery): UsageBucket[] {
    return q.api === undefined
      ? this.#range.all(q.organizationId, q.fromMinute, q.toMinute)
      : this.#rangeApi.all(q.organizationId, q.api, q.fromMinute, q.toMinute);
  }

  /** Per-UTC-day totals per API in [fromMinute, toMinute). */
  queryDaily(q: Omit<UsageQuery, 'api'>): UsageDay[] {
    return this.#days.all(q.organizationId, q.fromMinute, q.toMinute);
  }

  /** Deletes buckets older than `beforeMinute`; returns how many. */
  prune(beforeMinute: number): number {
    return this.#prune.run(beforeMinute).changes;
  }
}
