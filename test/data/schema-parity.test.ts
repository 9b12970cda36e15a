// The SQLite migrations (data/migrations/) and the PostgreSQL ones (data/pg/migrations/) describe the same
// schema: both are applied to fresh databases and their catalogs compared table by table (columns with their
// nullability and a mapped type, primary keys, unique keys, foreign keys). Without PostgreSQL the suite skips.

import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../data/db.js';
import { PgDatabase } from '../../data/pg/pg-database.js';
import { applyPgMigrations } from '../../data/pg/pg-migrate.js';
import { freshPgSchema, pgUnavailable } from '../helpers/postgres.js';

/** One table as a catalog describes it, in terms both engines share. */
interface TableShape {
  columns: Record<string, { type: string; notNull: boolean }>;
  primaryKey: string[];
  /** Column lists of unique constraints and unique indexes on plain columns, each sorted; the list sorted. */
  uniqueKeys: string[];
  /** `columns -> table(columns) on delete`, sorted. */
  foreignKeys: string[];
}

type Schema = Record<string, TableShape>;

// PostgreSQL has a `seq` identity column where SQLite orders by its implicit rowid: the one column of difference.
const PG_ONLY_COLUMNS = new Set(['seq']);

/** SQLite declared types and PostgreSQL data types, as the kind of value both store. */
const SQLITE_TYPES: Record<string, string> = { TEXT: 'text', INTEGER: 'integer', REAL: 'real', BLOB: 'bytes' };
const PG_TYPES: Record<string, string> = {
  text: 'text',
  json: 'text',
  jsonb: 'text',
  integer: 'integer',
  bigint: 'integer',
  smallint: 'integer',
  boolean: 'integer',
  'double precision': 'real',
  real: 'real',
  bytea: 'bytes',
  // SQLite keeps times as ISO 8601 UTC text (data/migrations/0001-initial-schema.sql).
  'timestamp with time zone': 'text',
};

function sqliteSchema(): Schema {
  const db = openDatabase(':memory:');
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
      )
      .all()
      .map((t) => t.name);
    const schema: Schema = {};
    for (const table of tables) {
      const info = db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[];
      const columns: TableShape['columns'] = {};
      for (const c of info) columns[c.name] = { type: SQLITE_TYPES[c.type.toUpperCase()] ?? c.type, notNull: c.notnull === 1 || c.pk > 0 };
      const primaryKey = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      const uniqueKeys: string[] = [];
      for (const index of db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string; partial: number }[]) {
        if (index.unique !== 1 || index.origin === 'pk' || index.partial === 1) continue;
        // A NOCASE column is unique without regard to case: PostgreSQL says so with a unique index on lower(column).
        const cols = (db.pragma(`index_xinfo(${index.name})`) as { name: string | null; coll: string; key: number }[])
          .filter((c) => c.key === 1)
          .map((c) => (c.name === null ? null : c.coll.toUpperCase() === 'NOCASE' ? `${c.name} nocase` : c.name));
        if (cols.every((c) => c !== null)) uniqueKeys.push([...(cols as string[])].sort().join(','));
      }
      const byId = new Map<number, { from: string[]; to: string[]; table: string; onDelete: string }>();
      for (const fk of db.pragma(`foreign_key_list(${table})`) as {
        id: number;
        table: string;
        from: string;
        to: string;
        on_delete: string;
      }[]) {
        const entry = byId.get(fk.id) ?? { from: [], to: [], table: fk.table, onDelete: fk.on_delete };
        entry.from.push(fk.from);
        entry.to.push(fk.to);
        byId.set(fk.id, entry);
      }
      const foreignKeys = [...byId.values()].map((f) => `${f.from.join(',')} -> ${f.table}(${f.to.join(',')}) on delete ${f.onDelete}`);
      schema[table] = { columns, primaryKey, uniqueKeys: uniqueKeys.sort(), foreignKeys: foreignKeys.sort() };
    }
    return schema;
  } finally {
    db.close();
  }
}

async function pgSchema(db: PgDatabase, schemaName: string): Promise<Schema> {
  const columns = await db.rows<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = $1 AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`,
    [schemaName],
  );
  const schema: Schema = {};
  for (const c of columns) {
    if (PG_ONLY_COLUMNS.has(c.column_name)) continue;
    const table = (schema[c.table_name] ??= { columns: {}, primaryKey: [], uniqueKeys: [], foreignKeys: [] });
    table.columns[c.column_name] = { type: PG_TYPES[c.data_type] ?? c.data_type, notNull: c.is_nullable === 'NO' };
  }
  // Keys from pg_catalog: information_schema lists no unique indexes, only unique constraints.
  const keys = await db.rows<{
    table_name: string;
    kind: string;
    columns: string[];
    partial: boolean;
    expression: boolean;
    definition: string;
  }>(
    `SELECT t.relname AS table_name, CASE WHEN i.indisprimary THEN 'p' ELSE 'u' END AS kind,
            array(SELECT a.attname FROM unnest(i.indkey) AS k(n) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n
                  ORDER BY array_position(i.indkey::int2[], k.n))::text[] AS columns,
            i.indpred IS NOT NULL AS partial, i.indexprs IS NOT NULL AS expression, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND i.indisunique AND t.relname <> 'schema_migrations'`,
    [schemaName],
  );
  for (const k of keys) {
    const table = schema[k.table_name];
    if (!table) continue;
    if (k.kind === 'p') table.primaryKey = k.columns;
    else if (!k.partial && !k.expression) table.uniqueKeys.push([...k.columns].sort().join(','));
    else if (!k.partial) {
      const nocase = /\(lower\((\w+)\)\)$/.exec(k.definition);
      if (nocase) table.uniqueKeys.push(`${nocase[1]} nocase`);
    }
  }
  const fks = await db.rows<{ table_name: string; from_cols: string[]; to_table: string; to_cols: string[]; on_delete: string }>(
    `SELECT t.relname AS table_name, f.relname AS to_table,
            array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS from_cols,
            array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS to_cols,
            CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS on_delete
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class f ON f.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND c.contype = 'f'`,
    [schemaName],
  );
  for (const f of fks) {
    schema[f.table_name]?.foreignKeys.push(`${f.from_cols.join(',')} -> ${f.to_table}(${f.to_cols.join(',')}) on delete ${f.on_delete}`);
  }
  for (const table of Object.values(schema)) {
    table.uniqueKeys.sort();
    table.foreignKeys.sort();
  }
  return schema;
}

/** Every place the two schemas disagree, one line each (so a failure lists them all). */
function differences(sqlite: Schema, pg: Schema): string[] {
  const found: string[] = [];
  for (const [name, table] of Object.entries(sqlite)) {
    const other = pg[name];
    if (!other) continue;
    for (const column of new Set([...Object.keys(table.columns), ...Object.keys(other.columns)])) {
      const a = JSON.stringify(table.columns[column]);
      const b = JSON.stringify(other.columns[column]);
      if (a !== b) found.push(`${name}.${column}: sqlite ${a ?? 'absent'}, postgresql ${b ?? 'absent'}`);
    }
    for (const key of ['primaryKey', 'uniqueKeys', 'foreignKeys'] as const) {
      const a = JSON.stringify(table[key]);
      const b = JSON.stringify(other[key]);
      if (a !== b) found.push(`${name} ${key}: sqlite ${a}, postgresql ${b}`);
    }
  }
  return found;
}

const unavailable = await pgUnavailable();

describe('schema parity: SQLite and PostgreSQL migrations', () => {
  it.skipIf(unavailable !== undefined)(
    `describe the same tables, columns, keys and references${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const fresh = await freshPgSchema();
      const db = new PgDatabase(fresh.url, { max: 1 });
      try {
        await applyPgMigrations(db);
        const pg = await pgSchema(db, fresh.name);
        const sqlite = sqliteSchema();
        expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort());
        expect(differences(sqlite, pg)).toEqual([]);
      } finally {
        await db.close();
        await fresh.drop();
      }
    },
  );
});
