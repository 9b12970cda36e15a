import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isConstraintError, openDatabase, type Database } from '../../data/db.js';
import { appliedVersions, applyMigrations, loadMigrations } from '../../data/migrate.js';
import { createStores } from '../../data/stores/stores.js';
import { tempDatabase, type TempDatabase, created } from './memory-db.js';

const opened: Database[] = [];
const temps: TempDatabase[] = [];
function track(db: Database): Database {
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const t of temps.splice(0)) t.cleanup();
});
function temp(): TempDatabase {
  const t = tempDatabase();
  temps.push(t);
  return t;
}

describe('openDatabase', () => {
  it('creates the parent folder and turns on WAL, foreign keys, busy timeout and synchronous FULL', () => {
    const t = temp();
    const db = track(t.open());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it('opens an in-memory database for tests with foreign keys on and the schema applied', () => {
    const db = track(openDatabase(':memory:'));
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    for (const t of [
      'organizations',
      'users',
      'memberships',
      'api_keys',
      'collections',
      'itineraries',
      'segments',
      'waypoints',
      'segment_groups',
      'zones',
      'collection_itineraries',
      'collection_zones',
      'share_links',
      'locks',
      'usage_counters',
      'oauth_clients',
      'oauth_codes',
      'server_settings',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('applies each migration once and reopening the file applies nothing more', () => {
    const t = temp();
    const first = track(t.open());
    const versions = loadMigrations().map((m) => m.version);
    expect(appliedVersions(first)).toEqual(versions);
    first.close();
    const again = track(t.open());
    expect(appliedVersions(again)).toEqual(versions);
    expect(applyMigrations(again)).toEqual([]);
    const rows = again.prepare<[], { n: number }>('SELECT count(*) AS n FROM schema_migrations').get();
    expect(rows?.n).toBe(versions.length);
  });

  it('rolls back a migration that fails midway, keeping the earlier ones and recording nothing for it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-mig-'));
    try {
      writeFileSync(join(dir, '0001-good.sql'), 'CREATE TABLE a (x INTEGER);');
      writeFileSync(join(dir, '0002-bad.sql'), 'CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);');
      expect(() => openDatabase(':memory:', { migrationsDir: dir })).toThrow(/nowhere/);
      const db = track(new BetterSqlite3(':memory:'));
      expect(() => applyMigrations(db, loadMigrations(dir))).toThrow(/nowhere/);
      expect(appliedVersions(db)).toEqual([1]);
      const tables = db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'b')")
        .all()
        .map((r) => r.name);
      expect(tables).toEqual(['a']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects migration files not named NNNN-name.sql', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-mig-'));
    try {
      writeFileSync(join(dir, 'initial.sql'), 'SELECT 1;');
      expect(() => loadMigrations(dir)).toThrow(/NNNN-name\.sql/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports SQLite constraint violations by kind', () => {
    const db = track(openDatabase(':memory:'));
    try {
      db.prepare("INSERT INTO server_settings (key, value, updated_at) VALUES ('k', NULL, 'now')").run();
      expect.unreachable();
    } catch (err) {
      expect(isConstraintError(err, 'NOTNULL')).toBe(true);
      expect(isConstraintError(err, 'UNIQUE')).toBe(false);
      expect(isConstraintError(err)).toBe(true);
    }
    expect(isConstraintError(new Error('x'))).toBe(false);
  });
});

describe('transactions and foreign keys', () => {
  it('a multi-row write that fails on its last insert leaves no rows at all', () => {
    const db = track(openDatabase(':memory:'));
    const stores = createStores(db);
    const create = db.transaction(() => {
      const org = stores.organizations.create({ name: 'Atomic' });
      const user = stores.users.createWithHash({ email: 'atomic@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
      stores.memberships.add(org.id, user.id, 'owner');
      stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web', scopes: ['embedding'] });
      stores.apiKeys.create({ organizationId: 'no-such-organization', type: 'sk', name: 'server' });
    });
    expect(() => create()).toThrow(/FOREIGN KEY/);
    for (const table of ['organizations', 'users', 'memberships', 'api_keys']) {
      expect(db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n, table).toBe(0);
    }
  });

  it('deleting an organization cascades to its members, keys, collections and itineraries but keeps users', () => {
    const db = track(openDatabase(':memory:'));
    const stores = createStores(db);
    const org = stores.organizations.create({ name: 'Gone' });
    const user = stores.users.createWithHash({ email: 'stay@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
    stores.memberships.add(org.id, user.id, 'admin');
    stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web' });
    const c = created(stores.collections.create({ organizationId: org.id, name: 'C' }));
    const i = created(stores.itineraries.create({ organizationId: org.id, name: 'I' }));
    stores.collections.addItinerary(c.id, i.id);
    expect(stores.organizations.delete(org.id)).toBe(true);
    for (const table of ['memberships', 'api_keys', 'collections', 'itineraries', 'collection_itineraries']) {
      expect(db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n, table).toBe(0);
    }
    expect(stores.users.get(user.id)).toBeDefined();
  });

  it('a commit on one connection is visible to another open connection at once', () => {
    const t = temp();
    const writer = track(t.open());
    const reader = track(t.open());
    const readerStores = createStores(reader);
    expect(readerStores.organizations.count()).toBe(0);
    const org = createStores(writer).organizations.create({ name: 'Visible' });
    expect(readerStores.organizations.get(org.id)?.name).toBe('Visible');
    createStores(writer).organizations.update(org.id, { quotaData: 7 });
    expect(readerStores.organizations.get(org.id)?.quotaData).toBe(7);
  });
});
