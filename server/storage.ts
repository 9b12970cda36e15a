// Where the platform keeps its state, chosen once at start: the SQLite file (DATABASE_PATH, the default: one
// process, nothing else to run) or PostgreSQL (DATABASE_URL, for several nodes). Both give the same repositories
// and a unit of work with the same contract; nothing past this module knows which one runs.

import { type Database, openDatabase } from '../data/db.js';
import { PgDatabase } from '../data/pg/pg-database.js';
import { applyPgMigrations } from '../data/pg/pg-migrate.js';
import { createPgRepositories } from '../data/pg/pg-repositories.js';
import type { Repositories } from '../data/repositories.js';
import { createSqliteRepositories } from '../data/repositories-sqlite.js';
import { offThreadWalSync } from '../data/wal-sync.js';
import { createPgUnitOfWork } from './core/pg-unit-of-work.js';
import { createUnitOfWork, type UnitOfWork, type UnitOfWorkOptions } from './core/unit-of-work.js';

export interface Storage {
  /** What it is, for logs and the admin command's output: the SQLite file's path or the URL without its password. */
  readonly description: string;
  readonly repositories: Repositories;
  /** The one write boundary over this storage (call once per process: it owns the connection's batches). */
  unitOfWork(options?: UnitOfWorkOptions): UnitOfWork;
  close(): Promise<void>;
}

export interface StorageConfig {
  databasePath: string;
  databaseUrl?: string;
}

/** Opens (and migrates) the storage the configuration names. */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  if (config.databaseUrl) return openPgStorage(config.databaseUrl);
  return sqliteStorage(openDatabase(config.databasePath));
}

/** Storage over an open SQLite connection; each batch of the unit of work is made durable off the main thread. */
export function sqliteStorage(db: Database): Storage & { db: Database } {
  return {
    db,
    description: db.memory ? ':memory:' : db.name,
    repositories: createSqliteRepositories(db),
    unitOfWork: (unitOptions = {}) => createUnitOfWork(db, { ...unitOptions, syncCommit: offThreadWalSync(db) }),
    close: async () => void db.close(),
  };
}

/** Storage on PostgreSQL: a pool of this node's connections, the schema migrated first (one node at a time). */
export async function openPgStorage(url: string): Promise<Storage & { pg: PgDatabase }> {
  const pg = new PgDatabase(url);
  try {
    await applyPgMigrations(pg);
  } catch (error) {
    await pg.close().catch(() => undefined);
    throw new Error(`PostgreSQL at ${redactedUrl(url)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    pg,
    description: redactedUrl(url),
    repositories: createPgRepositories(pg),
    unitOfWork: (unitOptions = {}) => createPgUnitOfWork(pg, unitOptions),
    close: () => pg.close(),
  };
}

/** A database URL fit for a log line: the password replaced. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}
