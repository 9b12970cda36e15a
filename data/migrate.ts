// Versioned SQL migrations: data/migrations/NNNN-name.sql, applied in order, each in its own transaction.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.js';

/** One migration file. `version` is the NNNN prefix; files are never edited once merged (add a new one instead). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE_PATTERN = /^(\d{4})-([a-z0-9-]+)\.sql$/;

/**
 * The folder holding the .sql files. tsc does not copy .sql into dist/, so when this module runs from
 * dist/data/ it falls back to the source folder data/migrations/ at the project root.
 */
export function defaultMigrationsDir(): string {
  const candidates = [
    fileURLToPath(new URL('./migrations/', import.meta.url)),
    fileURLToPath(new URL('../../data/migrations/', import.meta.url)),
  ];
  for (const dir of candidates) {
    if (existsSync(dir)) return dir;
  }
  throw new Error(`migrations folder not found (looked in ${candidates.join(', ')})`);
}

/** Reads and orders the migration files; rejects duplicate versions and stray names. */
export function loadMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.sql')) continue;
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new Error(`migration file name must be NNNN-name.sql: ${file}`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) throw new Error(`duplicate migration version ${version}`);
    migrations.push({ version, name: match[2] ?? '', sql: readFileSync(join(dir, file), 'utf8') });
  }
  return migrations.sort((a, b) => a.version - b.version);
}

/**
 * Applies every migration not yet recorded in schema_migrations. Each runs in one IMMEDIATE transaction
 * together with its bookkeeping row, so a failing migration leaves no trace and two processes opening the
 * same file at once cannot both apply it. Returns the versions applied by this call.
 */
export function applyMigrations(db: Database, migrations: Migration[] = loadMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const isApplied = db.prepare<[number], { version: number }>('SELECT version FROM schema_migrations WHERE version = ?');
  const record = db.prepare<[number, string, string]>('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of migrations) {
    const apply = db.transaction(() => {
      if (isApplied.get(migration.version)) return false;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      return true;
    });
    if (apply.immediate()) applied.push(migration.version);
  }
  return applied;
}

/** Versions recorded as applied, ascending. */
export function appliedVersions(db: Database): number[] {
  return db
    .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    .all()
    .map((r) => r.version);
}
