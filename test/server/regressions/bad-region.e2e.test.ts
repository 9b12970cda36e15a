// A bad REGION_PATH: refused at start with one line naming the path, whether the start check or the workers loading
// the region find what is wrong. A missing REGIONS_PATH likewise; an empty one starts not ready. (A folder of regions
// with a bad region keeps serving the others: test/server/regions/.)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { PLACE_HEADER_BYTES } from '../../../data/region/place-table.js';
import { writeRegion } from '../../../data/region/region-folder.js';
import { MAIN_JS, REPO_ROOT, startServer } from '../../helpers/server.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-region-'));
  dirs.push(dir);
  return dir;
}

function start(regionPath: string, variable = 'REGION_PATH') {
  return spawnSync(process.execPath, [MAIN_JS], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(tempDir(), 'db'),
      [variable]: regionPath,
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
  it('stops the server with one line saying what the workers found, before it listens', () => {
    const dir = tempDir();
    writeRegion(dir, buildDemoRegion());
    // The start check reads the headers of the folder's files, not what follows: places.bin with a valid header and
    // damaged contents passes it, and the workers refuse the region as they load it, before the server listens.
    const places = readFileSync(join(dir, 'places.bin'));
    places.fill(0xff, PLACE_HEADER_BYTES);
    writeFileSync(join(dir, 'places.bin'), places);
    const run = start(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('"msg":"listening"');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^cairn: failed to start: the workers could not load region ${basename(dir)}: the worker failed: .*places\\.bin`),
    );
  });
});

describe('REGIONS_PATH checked at start', () => {
  it('a missing folder of regions stops the server with one line naming it', () => {
    const run = start('/no/such/regions', 'REGIONS_PATH');
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'cairn: failed to start: regions folder /no/such/regions does not exist or is not a folder (REGIONS_PATH)',
    ]);
  });

  it('an empty folder of regions starts a server that is not ready until a region is there', async () => {
    const root = tempDir();
    const server = await startServer({ REGIONS_PATH: root, REGIONS_POLL_MS: '200', SEED_DEMO: '0' }, { alone: true });
    try {
      const empty = await fetch(`${server.url}/readyz`);
      expect(empty.status).toBe(503);
      expect(await empty.json()).toEqual({ status: 'not_ready', regions: [], problems: [] });
      writeRegion(join(root, 'valley'), buildDemoRegion());
      await server.waitForOutput('"msg":"region added","region":"valley"');
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', regions: ['valley'], problems: [] });
    } finally {
      await server.stop();
    }
  });
});
