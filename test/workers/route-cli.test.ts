import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { writeRegion } from '../../data/region/region-folder.js';
import { compileWorkers } from './compile-workers.js';

let cli = '';
const work = mkdtempSync(join(tmpdir(), 'cairn-route-cli-'));
beforeAll(() => {
  cli = compileWorkers().replace(/routing\.js$/, 'route-cli.js');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('route CLI', () => {
  it('prints one JSON object for a demo-region route with avoidance', () => {
    const out = execFileSync(
      process.execPath,
      [
        cli,
        '--activity',
        'HIKING_AND_TRAIL',
        '--waypoints',
        '1.551,42.4952;1.5703,42.5049',
        '--avoid',
        'TOLLWAY,RESTRICTED_ACCESS',
        '--json',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, REGION_PATH: '' },
      },
    );
    const lines = out.trim().split('\n');
    expect(lines.length).toBe(1);
    const r = JSON.parse(lines[0]!);
    expect(r).toMatchObject({ ok: true, region: 'demo', activity: 'HIKING_AND_TRAIL' });
    for (const k of ['distance', 'duration', 'ascent', 'descent', 'coordinateCount']) expect(typeof r[k]).toBe('number');
    expect(['NOT_NEEDED', 'APPLIED', 'NO_ROUTE']).toContain(r.avoidance);
    expect(Array.isArray(r.advisories)).toBe(true);
    expect(Array.isArray(r.difficulty)).toBe(true);
  });

  it('exits non-zero with a failure object when a waypoint is off the network', () => {
    let status = 0;
    let stdout = '';
    try {
      execFileSync(process.execPath, [cli, '--activity', 'WALKING', '--waypoints', '10,10;1.56,42.5', '--json'], { encoding: 'utf8' });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      status = e.status;
      stdout = e.stdout;
    }
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
  });

  it('a missing region prints one line naming it, no stack trace, and exits 1', () => {
    const run = spawnSync(process.execPath, [cli, '--region', '/no/such/region', '--waypoints', '1.55,42.49;1.57,42.5'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('error: region folder /no/such/region does not exist\n');
  });

  it('a region with a damaged graph.bin prints one line naming the file and exits 1', () => {
    const dir = join(work, 'damaged');
    writeRegion(dir, buildDemoRegion());
    writeFileSync(join(dir, 'graph.bin'), 'not a graph, but long enough to hold a header '.repeat(4));
    const run = spawnSync(process.execPath, [cli, '--region', dir, '--waypoints', '1.55,42.49;1.57,42.5'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`error: ${join(dir, 'graph.bin')} is not a Cairn region graph (bad magic)\n`);
  });

  it('a region path that is a file prints one line naming it and exits 1', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const run = spawnSync(process.execPath, [cli, '--region', file, '--waypoints', '1.55,42.49;1.57,42.5'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`error: region path ${file} is not a folder\n`);
  });
});
