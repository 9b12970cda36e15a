// The admin command while another process writes: every command waits for the write lock (busy_timeout)
// and succeeds, instead of failing at once with "database is locked" when the other writer commits first.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../data/admin.js';
import { type Database, openDatabase } from '../../data/db.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

let dir: string;
let dbPath: string;
let db: Database;
let orgId: string;

/** Runs the admin command as its own process (as `npm run admin` does), without blocking this one. */
function admin(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, join(root, 'data/admin.ts'), ...args, '--json'], {
      env: { ...process.env, DATABASE_PATH: dbPath },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (status) => done({ status, stdout, stderr }));
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-admin-lock-'));
  dbPath = join(dir, 'platform.db');
  orgId = JSON.parse(runAdmin(['create-org', '--name', 'Busy', '--json'], { DATABASE_PATH: dbPath }).stdout).organization.id;
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
      db.prepare("UPDATE organizations SET name = ? WHERE id = ?").run(`Busy ${round}`, orgId);
      await new Promise((r) => setTimeout(r, 250));
      db.exec('COMMIT');
      await new Promise((r) => setTimeout(r, 5));
    }
    const results = await Promise.all(runs);
    for (const r of results) expect(r.stderr, r.stderr).toBe('');
    expect(results.map((r) => r.status)).toEqual([0, 0, 0, 0]);
    const org = db.prepare('SELECT quota_data, require_session_token, name FROM organizations WHERE id = ?').get(orgId) as Record<string, unknown>;
    expect(org).toEqual({ quota_data: 120, require_session_token: 1, name: 'Busy 5' });
  }, 60_000);
});
