// The committed rows the server keeps in memory for the credential path: never answered stale, whoever
// changed them (this connection through the repositories, or another connection or process).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../data/db.js';
import { createSqliteRepositories } from '../../data/repositories-sqlite.js';
import { createStores } from '../../data/stores/stores.js';

let dir: string;
let db: Database;
let other: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-read-cache-'));
  db = openDatabase(join(dir, 'db.sqlite'));
  other = openDatabase(join(dir, 'db.sqlite'));
});
afterEach(() => {
  other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The next event-loop turn (the cache checks for other connections' commits once per turn). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function countStatements(database: Database) {
  const counted = { reads: 0 };
  const prepare = database.prepare.bind(database);
  // Count executions of the statements prepared from now on (the repositories prepare theirs at creation).
  database.prepare = ((sql: string) => {
    const statement = prepare(sql);
    const get = statement.get.bind(statement);
    statement.get = ((...args: unknown[]) => {
      if (/^\s*SELECT/i.test(sql)) counted.reads++;
      return get(...args);
    }) as typeof statement.get;
    return statement;
  }) as typeof database.prepare;
  return counted;
}

describe('committed reads kept in memory', () => {
  it('answers a repeated key lookup without SQLite, frozen, and the same as the store', async () => {
    const seeded = createStores(db);
    const org = seeded.organizations.create({ name: 'Cached' });
    const { apiKey, plaintext: key } = seeded.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'site', scopes: ['resources'] });
    const counted = countStatements(db);
    const repos = createSqliteRepositories(db);
    const first = await repos.apiKeys.findPublishable(key);
    const readsAfterFirst = counted.reads;
    const second = await repos.apiKeys.findPublishable(key);
    expect(second).toEqual(first);
    expect(second?.id).toBe(apiKey.id);
    expect(counted.reads).toBe(readsAfterFirst); // no statement ran for the second lookup
    expect(Object.isFrozen(second)).toBe(true);
    expect(Object.isFrozen(second?.scopes)).toBe(true);
  });

  it('a write through the repositories is seen by the very next read (revoking a key)', async () => {
    const repos = createSqliteRepositories(db);
    const org = await repos.organizations.create({ name: 'Revokes' });
    const { apiKey, plaintext: key } = await repos.apiKeys.create({
      organizationId: org.id,
      type: 'pk',
      name: 'site',
      scopes: ['resources'],
    });
    expect((await repos.apiKeys.findPublishable(key))?.id).toBe(apiKey.id);
    await repos.apiKeys.revoke(apiKey.id);
    expect(await repos.apiKeys.findPublishable(key)).toBeUndefined();
    await repos.organizations.updateSettings(org.id, { requireSessionToken: true });
    expect((await repos.organizations.get(org.id))?.requireSessionToken).toBe(true);
  });

  it("another connection's commit (the admin command) is seen from the next turn on", async () => {
    const repos = createSqliteRepositories(db);
    const org = await repos.organizations.create({ name: 'Before' });
    expect((await repos.organizations.get(org.id))?.name).toBe('Before');
    await nextTurn();
    createStores(other).organizations.update(org.id, { name: 'After' });
    await nextTurn();
    expect((await repos.organizations.get(org.id))?.name).toBe('After');
    createStores(other).organizations.setStatus(org.id, 'inactive');
    await nextTurn();
    expect((await repos.organizations.get(org.id))?.status).toBe('inactive');
  });

  it('a row read inside an open transaction is answered but not kept (it may still roll back)', async () => {
    const repos = createSqliteRepositories(db);
    const org = await repos.organizations.create({ name: 'Committed' });
    db.exec('BEGIN IMMEDIATE');
    createStores(db).organizations.update(org.id, { name: 'Uncommitted' }); // around the repositories
    expect((await repos.organizations.get(org.id))?.name).toBe('Uncommitted');
    db.exec('ROLLBACK');
    expect((await repos.organizations.get(org.id))?.name).toBe('Committed');
  });

  it('a user removed from an organization loses the membership at once', async () => {
    const repos = createSqliteRepositories(db);
    const org = await repos.organizations.create({ name: 'Team' });
    const user = await repos.users.create({ email: 'member@example.com', password: 'correct horse battery' });
    await repos.memberships.add(org.id, user.id, 'contributor');
    expect((await repos.memberships.get(org.id, user.id))?.role).toBe('contributor');
    expect(await repos.memberships.listByUser(user.id)).toHaveLength(1);
    await repos.memberships.remove(org.id, user.id);
    expect(await repos.memberships.get(org.id, user.id)).toBeUndefined();
    expect(await repos.memberships.listByUser(user.id)).toHaveLength(0);
  });
});
