// Opens the platform's SQLite database (better-sqlite3) with the pragmas the server relies on, and migrates it.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { applyMigrations, loadMigrations } from './migrate.js';

export type Database = BetterSqlite3.Database;

/** Default location of the database file, relative to the working directory (overridden by DATABASE_PATH). */
export const DEFAULT_DATABASE_PATH = 'var/platform.db';

export interface OpenDatabaseOptions {
  /** Folder of NNNN-name.sql files; defaults to data/migrations. */
  migrationsDir?: string;
  /** Open without writing (no migrations, no journal-mode change). */
  readonly?: boolean;
  /** Apply pending migrations (default true; the admin `migrate` command applies them itself to report them). */
  migrate?: boolean;
  /** Durability of each commit (default FULL). */
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * Opens (creating when needed) the database at `path`, or an in-memory one for ':memory:', and applies
 * pending migrations.
 *
 * Pragmas:
 * - journal_mode=WAL: readers never block the writer, so the server and the admin command can share the file.
 * - foreign_keys=ON: SQLite leaves them off per connection unless asked.
 * - busy_timeout=5000 ms: a second writer (the admin command while the server runs) waits instead of failing.
 *   It only helps a transaction that takes the write lock first: every transaction that writes begins with
 *   BEGIN IMMEDIATE (better-sqlite3 `db.transaction(fn).immediate()`; the server's group commit, the admin
 *   command, the stores, migrations, seeding). A deferred one that reads and then writes cannot wait: when
 *   another connection commits after its read, its lock upgrade fails at once with SQLITE_BUSY ("database is
 *   locked"). Nested in an open transaction, `.immediate()` is a plain savepoint.
 * - synchronous=FULL (default): every commit is fsynced, so an answered write survives a power cut. The
 *   server's unit of work (server/core/unit-of-work.ts) switches its connection to NORMAL and syncs the WAL
 *   itself, once per batch and off the main thread (./wal-sync.ts); bench/studio.bench.ts measures it.
 *   NORMAL alone is for tools that can afford to lose the last commits on a power cut (never corruption in
 *   WAL mode).
 *
 * The stores cache nothing: every read goes to SQLite. The server's repositories keep a few committed rows
 * in memory (./committed-read-cache.ts) and forget them when another connection commits.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory && !options.readonly) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new BetterSqlite3(path, { readonly: options.readonly ?? false });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      if (options.migrate !== false) applyMigrations(db, loadMigrations(options.migrationsDir));
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** The current time as the ISO 8601 UTC string every timestamp column stores (`2026-01-02T03:04:05.678Z`). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** True when `err` is a SQLite constraint violation of the given kind (e.g. 'UNIQUE', 'FOREIGNKEY', 'CHECK'). */
export function isConstraintError(err: unknown, kind?: 'UNIQUE' | 'FOREIGNKEY' | 'CHECK' | 'NOTNULL' | 'PRIMARYKEY'): boolean {
  if (!(err instanceof BetterSqlite3.SqliteError)) return false;
  return kind ? err.code === `SQLITE_CONSTRAINT_${kind}` : err.code.startsWith('SQLITE_CONSTRAINT');
}
