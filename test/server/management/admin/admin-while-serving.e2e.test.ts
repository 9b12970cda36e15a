// The admin command against the database of a running server that is busy writing (eight clients creating
// collections without pause): every `set` and `create-key` succeeds, as docs/operating.md promises, and no
// client write fails while they run.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, type Bootstrapped, REPO_ROOT, type RunningServer, startServer } from '../../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** Runs the built admin command as its own process without blocking this one (the clients keep writing). */
function admin(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'server', 'management', 'admin', 'admin.js'), ...args, '--json'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: join(server.dataDir, 'platform.db') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (status) => done({ status, stdout, stderr }));
  });
}

/** One client creating collections until `running()` turns false; returns the status of every answer. */
async function writer(client: number, running: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; running(); i++) {
    const res = await fetch(`${server.url}/v1/collections`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id },
      body: JSON.stringify({ name: `Client ${client} #${i}`, privacy: 'private' }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

describe('admin commands while the server writes', () => {
  it('every set and create-key succeeds and every client write is answered 201', async () => {
    let running = true;
    const writers = Array.from({ length: 8 }, (_, client) => writer(client, () => running));
    const runs: { status: number | null; stdout: string; stderr: string }[] = [];
    try {
      for (let round = 0; round < 8; round++) {
        runs.push(
          await admin('set', '--org', org.organization.id, `quota.data=${100 + round}`, `require_session_token=${round % 2 === 0}`),
        );
        if (round % 2 === 1) {
          runs.push(
            await admin('create-key', '--org', org.organization.id, '--type', 'pk', '--name', `Busy ${round}`, '--scopes', 'tiles'),
          );
        }
      }
    } finally {
      running = false;
    }
    const statuses = (await Promise.all(writers)).flat();

    for (const run of runs) expect(run.stderr).toBe('');
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 0));
    // The clients really wrote while the commands ran, and none of their writes failed.
    expect(statuses.length).toBeGreaterThan(runs.length);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const last = JSON.parse(runs.at(-1)?.stdout ?? '{}');
    expect(last.api_key).toMatchObject({ name: 'Busy 7', type: 'pk', scopes: ['tiles'] });
    const settings = JSON.parse(runs.at(-2)?.stdout ?? '{}');
    expect(settings.organization).toMatchObject({ id: org.organization.id, settings: { quota_data: 107, require_session_token: false } });
  }, 120_000);
});
