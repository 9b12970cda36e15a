// Usage counters on PostgreSQL (the SQLite twin: data/stores/usage-store.ts). API names sort in byte order
// (COLLATE "C"), as SQLite's BINARY collation sorts them, whatever the database's collation.
import type { UsageRepository } from '../repositories.js';
import type { UsageBucket, UsageDay, UsageQuery } from '../model/usage.js';
import type { PgDatabase } from './pg-database.js';

export class PgUsageRepository implements UsageRepository {
  constructor(private readonly db: PgDatabase) {}

  async increment(organizationId: string, api: string, minute: number, by = 1): Promise<number> {
    // One atomic upsert: several nodes adding to the same bucket at once each get their own new count.
    const row = await this.db.row<{ count: number }>(
      `INSERT INTO usage_counters (organization_id, api, minute, count) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, api, minute) DO UPDATE SET count = usage_counters.count + excluded.count
       RETURNING count`,
      [organizationId, api, minute, by],
    );
    return row?.count ?? 0;
  }

  async get(organizationId: string, api: string, minute: number): Promise<number> {
    const row = await this.db.row<{ count: number }>(
      'SELECT count FROM usage_counters WHERE organization_id = $1 AND api = $2 AND minute = $3',
      [organizationId, api, minute],
    );
    return row?.count ?? 0;
  }

  async query(q: UsageQuery): Promise<UsageBucket[]> {
    return q.api === undefined
      ? this.db.rows<UsageBucket>(
          `SELECT api, minute, count FROM usage_counters WHERE organization_id = $1 AND minute >= $2 AND minute < $3
           ORDER BY minute, api COLLATE "C"`,
          [q.organizationId, q.fromMinute, q.toMinute],
        )
      : this.db.rows<UsageBucket>(
          `SELECT api, minute, count FROM usage_counters
           WHERE organization_id = $1 AND api = $2 AND minute >= $3 AND minute < $4 ORDER BY minute`,
          [q.organizationId, q.api, q.fromMinute, q.toMinute],
        );
  }

  async queryDaily(q: Omit<UsageQuery, 'api'>): Promise<UsageDay[]> {
    // sum() of a bigint is numeric (a string to node-postgres): cast back to bigint, read as a number.
    return this.db.rows<UsageDay>(
      `SELECT api, to_char(to_timestamp(minute * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(count)::bigint AS count
       FROM usage_counters WHERE organization_id = $1 AND minute >= $2 AND minute < $3
       GROUP BY api, day ORDER BY day, api COLLATE "C"`,
      [q.organizationId, q.fromMinute, q.toMinute],
    );
  }

  async prune(beforeMinute: number): Promise<number> {
    return this.db.changes('DELETE FROM usage_counters WHERE minute < $1', [beforeMinute]);
  }
}
