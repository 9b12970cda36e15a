// Versioned migrations of the PostgreSQL schema: data/pg/migrations/NNNN-name.sql, applied in order, each in its
// own transaction with its bookkeeping row. A transaction-scoped advisory lock lets only one node migrate at a
// time, so several nodes starting together on an empty database apply each file once.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadMigrations, type Migration } from '../migrate.js';
import type { PgDatabase } from './pg-database.js';

/** Any 64-bit number the whole deployment agrees on: the key of the migration lock. */
const MIGRATION_LOCK = 4_240_917_311;

/** The folder of the PostgreSQL migrations (tsc does not copy .sql: from dist/ it is the source folder). */
export function pgMigrationsDir(): string {
  const candidates = [
    fileURLToPath(new URL('./migrations/', import.meta.url)),
    fileURLToPath(new URL('../../../data/pg/migrations/', import.meta.url)),
  ];
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) throw new Error(`PostgreSQL migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** Applies every migration not yet recorded; returns the versions this call applied. */
export async function applyPgMigrations(db: PgDatabase, migrations: Migration[] = loadMigrations(pgMigrationsDir())): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async () => {
      await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL
      )`);
      if (await db.row('SELECT version FROM schema_migrations WHERE version = $1', [migration.version])) return false;
      // A migration file holds several statements: the simple protocol runs them (no parameters, no name).
      await db.exec(migration.sql);
      await db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      return true;
    }, 'read committed');
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** Versions recorded as applied, ascending (none on a database never migrated). */
export async function appliedPgVersions(db: PgDatabase): Promise<number[]> {
  const table = await db.row<{ name: string | null }>("SELECT to_regclass('schema_migrations')::text AS name");
  if (!table?.name) return [];
  return (await db.rows<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}
