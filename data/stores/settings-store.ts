// Server-wide key/value settings (e.g. the generated SESSION_SECRET).
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';

export class SettingsStore {
  readonly #get: Statement<[string], { value: string }>;
  readonly #set: Statement<[string, string, string]>;
  readonly #insertIfAbsent: Statement<[string, string, string]>;
  readonly #delete: Statement<[string]>;

  constructor(db: Database) {
    this.#get = db.prepare('SELECT value FROM server_settings WHERE key = ?');
    this.#set = db.prepare(
      `INSERT INTO server_settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.#insertIfAbsent = db.prepare('INSERT INTO server_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING');
    this.#delete = db.prepare('DELETE FROM server_settings WHERE key = ?');
  }

  get(key: string): string | undefined {
    return this.#get.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.#set.run(key, value, nowIso());
  }

  /**
   * Returns the stored value, storing `create()` first when absent. Safe against a concurrent first start:
   * whichever process inserts first wins and both read the same value back.
   */
  getOrCreate(key: string, create: () => string): string {
    const existing = this.get(key);
    if (existing !== undefined) return existing;
    this.#insertIfAbsent.run(key, create(), nowIso());
    const stored = this.get(key);
    if (stored === undefined) throw new Error(`server setting '${key}' vanished after insert`);
    return stored;
  }

  delete(key: string): boolean {
    return this.#delete.run(key).changes > 0;
  }
}
