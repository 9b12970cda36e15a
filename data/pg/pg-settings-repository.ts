// Server-wide key/value settings on PostgreSQL (the SQLite twin: data/stores/settings-store.ts).
import { nowIso } from '../db.js';
import type { SettingsRepository } from '../repositories.js';
import type { PgDatabase } from './pg-database.js';

export class PgSettingsRepository implements SettingsRepository {
  constructor(private readonly db: PgDatabase) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.db.row<{ value: string }>('SELECT value FROM server_settings WHERE key = $1', [key]))?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.db.query(
      `INSERT INTO server_settings (key, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, value, nowIso()],
    );
  }

  /** Whichever node inserts first wins; every node reads the same value back. */
  async getOrCreate(key: string, create: () => string): Promise<string> {
    const existing = await this.get(key);
    if (existing !== undefined) return existing;
    await this.db.query('INSERT INTO server_settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [
      key,
      create(),
      nowIso(),
    ]);
    const stored = await this.get(key);
    if (stored === undefined) throw new Error(`server setting '${key}' vanished after insert`);
    return stored;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM server_settings WHERE key = $1', [key])) > 0;
  }
}
