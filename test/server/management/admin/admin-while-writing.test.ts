// The admin command while another process writes: every command waits for the write lock (busy_timeout)
// and succeeds, instead of failing at once with "database is locked" when the other writer commits first.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../../../server/management/admin/admin.js';
import { sqliteStorage } from '../../../../server/storage.js';
import { type Database, openDatabase } from '../../../../data/db.js';
import { createStores } from '../../../../data/stores/stores.js';

const root = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

let dir: string;
let dbPath: string;
let db: Database;
let orgId: string;

/** Runs the admin command as its own process (as `npm run admin` does), without blocking this one. */
function admin(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, join(root, 'server/management/admin/admin.ts'), ...args, '--json'], {
      env: { ...process.env, DATABASE_PATH: dbPath },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (status) => done({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-admin-lock-'));
  dbPath = join(dir, 'platform.db');
  orgId = JSON.parse((await runAdmin(['create-org', '--name', 'Busy', '--json'], { DATABASE_PATH: dbPath })).stdout).organization.id;
  db = openDatabase(dbPath);
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('admin commands during another writer’s transactions', () => {
  it('set, create-key and create-user all wait for the lock and succeed after the other writer commits', async () => {
    // Another writer holds the lock and commits a change while the commands are waiting: a deferred
    // transaction that had read before that commit could never write (SQLITE_BUSY_SNAPSHOT).
    const runs = [
      admin(['set', '--org', orgId, 'quota.data=120', 'require_session_token=true']),
      admin(['create-key', '--org', orgId, '--type', 'pk', '--name', 'while busy']),
      admin(['create-user', '--email', 'busy@example.test', '--password', 'busy-password-1']),
      admin(['show-org', '--org', orgId]),
    ];
    for (let round = 0; round < 6; round++) {
      db.exec('BEGIN IMMEDIATE');
      db.prepare('UPDATE organizations SET name = ? WHERE id = ?').run(`Busy ${round}`, orgId);
      await new Promise((r) => setTimeout(r, 250));
      db.exec('COMMIT');
      await new Promise((r) => setTimeout(r, 5));
    }
    const results = await Promise.all(runs);
    for (const r of results) expect(r.stderr, r.stderr).toBe('');
    expect(results.map((r) => r.status)).toEqual([0, 0, 0, 0]);
    const org = db.prepare('SELECT quota_data, require_session_token, name FROM organizations WHERE id = ?').get(orgId) as Record<
      string,
      unknown
    >;
    expect(org).toEqual({ quota_data: 120, require_session_token: 1, name: 'Busy 5' });
  }, 60_000);
});

/**
 * Holds the write lock from another connection on a thread of its own, with a committed change waiting:
 * BEGIN IMMEDIATE, an update, then COMMIT `holdMs` after the main thread posts a byte to `go`. Resolves
 * once the lock is held. The main thread can then block inside a synchronous command while it is held.
 */
function holdWriteLock(path: string, go: Int32Array, holdMs: number): Promise<Worker> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.path);
    db.exec('BEGIN IMMEDIATE');
    db.prepare('UPDATE organizations SET name = ? WHERE id = ?').run('Held', workerData.orgId);
    parentPort.postMessage('held');
    Atomics.wait(workerData.go, 0, 0); // until the main thread is about to run the command
    Atomics.wait(workerData.go, 1, 0, workerData.holdMs); // then keep the lock a little longer
    db.exec('COMMIT');
    db.close();
  `;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(code, { eval: true, workerData: { path, orgId, go, holdMs, driver } });
  return new Promise((held, failed) => {
    worker.once('message', () => held(worker));
    worker.once('error', failed);
  });
}

describe('an admin command started while another connection holds the write lock', () => {
  for (const [command, args] of [
    ['set', ['set', '--org', '<org>', 'quota.tiles=700']],
    ['create-key', ['create-key', '--org', '<org>', '--type', 'sk', '--name', 'locked out']],
  ] as const) {
    it(`${command} waits for the lock, sees the other writer's commit and succeeds`, async () => {
      // Opened (and migrated) first, so the command's own transaction is the first thing to meet the lock.
      const connection = openDatabase(dbPath);
      const go = new Int32Array(new SharedArrayBuffer(8));
      const worker = await holdWriteLock(dbPath, go, 300);
      const exited = new Promise((r) => worker.once('exit', r));
      const result = await runAdmin([...args.map((a) => (a === '<org>' ? orgId : a)), '--json'], {}, () => {
        Atomics.store(go, 0, 1);
        Atomics.notify(go, 0);
        return sqliteStorage(connection);
      });
      await exited;
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      const out = JSON.parse(result.stdout);
      if (command === 'set') expect(out.organization).toMatchObject({ name: 'Held', settings: { quota_tiles: 700 } });
      else expect(out.api_key).toMatchObject({ type: 'sk', name: 'locked out' });
    }, 30_000);
  }
});

describe('a store read-then-write outside any open transaction while another connection holds the write lock', () => {
  it("organizations.update and apiKeys.update wait for the lock, see the other writer's commit and succeed", async () => {
    const connection = openDatabase(dbPath);
    try {
      const stores = createStores(connection);
      const key = stores.apiKeys.create({ organizationId: orgId, type: 'pk', name: 'before', scopes: ['tiles'] }).apiKey;
      for (const change of [
        () => stores.organizations.update(orgId, { quotaData: 77 }),
        () => stores.apiKeys.update(key.id, { name: 'after' }),
      ]) {
        const go = new Int32Array(new SharedArrayBuffer(8));
        const worker = await holdWriteLock(dbPath, go, 300);
        const exited = new Promise((r) => worker.once('exit', r));
        Atomics.store(go, 0, 1);
        Atomics.notify(go, 0);
        expect(change()).toBeDefined();
        await exited;
      }
      expect(stores.organizations.get(orgId)).toMatchObject({ name: 'Held', quotaData: 77 });
      expect(stores.apiKeys.get(key.id)?.name).toBe('after');
    } finally {
      connection.close();
    }
  }, 30_000);
});
