// A bad REGION_PATH: refused at start with one line naming the path; a region damaged after the start,
// which then fails inside the workers, costs the request a 500, never the process.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { PLACE_HEADER_BYTES } from '../../../data/region/place-table.js';
import { writeRegion } from '../../../data/region/region-folder.js';
import { bootstrap, MAIN_JS, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';

const dirs: string[] = [];
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-region-'));
  dirs.push(dir);
  return dir;
}

function start(regionPath: string) {
  return spawnSync(process.execPath, [MAIN_JS], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(tempDir(), 'db'),
      REGION_PATH: regionPath,
      SEED_DEMO: '0',
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('REGION_PATH checked at start', () => {
  it('a missing folder stops the server with one line naming it and no stack trace', () => {
    const run = start('/no/such/dir');
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr.trim().split('\n')).toEqual(['cairn: failed to start: region folder /no/such/dir does not exist']);
  });

  it('a folder without region files stops the server naming the missing file', () => {
    const dir = tempDir();
    const run = start(dir);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(join(dir, 'meta.json'));
  });

  it('a graph.bin whose header is not a region graph stops the server with one line naming it', () => {
    const dir = tempDir();
    writeRegion(dir, buildDemoRegion());
    writeFileSync(join(dir, 'graph.bin'), '[]');
    const run = start(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr.trim().split('\n')).toEqual([`cairn: failed to start: ${join(dir, 'graph.bin')} is too short to be a region graph`]);
  });

  it('a places.bin cut short stops the server with one line naming it', () => {
    const dir = tempDir();
    writeRegion(dir, buildDemoRegion());
    const places = readFileSync(join(dir, 'places.bin'));
    writeFileSync(join(dir, 'places.bin'), places.subarray(0, places.byteLength - 8));
    const run = start(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr.trim().split('\n')).toEqual([
      `cairn: failed to start: ${join(dir, 'places.bin')} is truncated or has a wrong size (${places.byteLength - 8} bytes, expected ${places.byteLength})`,
    ]);
  });
});

describe('a region that fails inside the workers', () => {
  it('answers the request that needs it with a 500 in the envelope and keeps serving', async () => {
    const dir = tempDir();
    writeRegion(dir, buildDemoRegion());
    // The start check reads the headers of the folder's files, not what follows: places.bin with a valid header and
    // damaged contents makes the workers fail to load the region (at start, and on every task after).
    const places = readFileSync(join(dir, 'places.bin'));
    places.fill(0xff, PLACE_HEADER_BYTES);
    writeFileSync(join(dir, 'places.bin'), places);
    server = await startServer({ REGION_PATH: dir, SEED_DEMO: '0' });
    const org = bootstrap(server);
    const headers = { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id, 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/v1/itineraries`, { method: 'POST', headers, body: JSON.stringify({ name: 'x' }) });
    const id = ((await created.json()) as any).data.id;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/v1/itineraries/${id}/segments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          engine: 'freehand',
          coordinates: [
            [1.5, 42.5],
            [1.51, 42.51],
          ],
        }),
      });
      expect(res.status).toBe(500);
      expect(((await res.json()) as any).errors).toEqual([{ message: expect.any(String), extensions: { code: 'INTERNAL_ERROR' } }]);
    }
    const health = await fetch(`${server.url}/v1/openapi.json`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    expect(server.proc.exitCode).toBeNull();
    await server.waitForOutput('"msg":"worker failed"'); // log lines are flushed once per event-loop turn
  });
});
