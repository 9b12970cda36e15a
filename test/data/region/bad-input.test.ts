// Bad import input fails with one clear line, a non-zero exit, and no region folder left behind.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDemoRegion } from '../../../data/region/demo-region.js';
import { importRegion } from '../../../data/region/import-region.js';
import { RegionInputError } from '../../../data/region/region-error.js';
import { loadRegion } from '../../../data/region/region-folder.js';
import { ANDORRA_PBF, haveData } from './shared-data.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-bad-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const notPbf = join(work, 'notes.osm.pbf');
writeFileSync(notPbf, 'this is not a protobuf file\n'.repeat(10));
const wrongHgt = join(work, 'N42E001.hgt');
writeFileSync(wrongHgt, new Uint8Array(1000));
const missing = join(work, 'missing.osm.pbf');

function runCli(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'data/region/import-cli.ts', ...args], {
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

function expectNoRegion(out: string): void {
  // Neither the target nor a temporary sibling may remain.
  expect(readdirSync(work).filter((f) => f.includes('out'))).toEqual([]);
  expect(() => loadRegion(out)).toThrow(RegionInputError);
}

describe('bad import input', () => {
  it('a file that is not a PBF fails with a one-line error and exit code 1', () => {
    const out = join(work, 'out-notpbf');
    const r = runCli(['--osm', notPbf, '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*not an OpenStreetMap PBF/);
    expectNoRegion(out);
  });

  it('a missing OSM file fails with a one-line error and exit code 1', () => {
    const out = join(work, 'out-missing');
    const r = runCli(['--osm', missing, '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^error: cannot read OSM file .*ENOENT/);
    expectNoRegion(out);
  });

  it('an HGT file of the wrong size fails before the PBF is read', async () => {
    const out = join(work, 'out-hgt');
    await expect(importRegion({ osm: notPbf, dem: [wrongHgt], out })).rejects.toThrow(/1201² or 3601²/);
    expectNoRegion(out);
  });

  it('a missing DEM file fails with its path in the message', async () => {
    const out = join(work, 'out-nodem');
    await expect(importRegion({ osm: notPbf, dem: [join(work, 'N42E002.hgt.zip')], out })).rejects.toThrow(
      /cannot read DEM file .*N42E002/,
    );
    expectNoRegion(out);
  });

  it('running without --osm prints the usage and exits with code 2', () => {
    const r = runCli([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--osm is required/);
  });

  it.skipIf(!haveData(ANDORRA_PBF))('a truncated PBF fails and leaves an existing region untouched', () => {
    const truncated = join(work, 'truncated.osm.pbf');
    writeFileSync(truncated, readFileSync(ANDORRA_PBF).subarray(0, 300_000));
    const out = join(work, 'out-keep');
    writeDemoRegion(out);
    const before = readFileSync(join(out, 'graph.bin'));
    const r = runCli(['--osm', truncated, '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^error: .*truncated or corrupt/);
    expect(readFileSync(join(out, 'graph.bin')).equals(before)).toBe(true);
    expect(readdirSync(work).filter((f) => f.startsWith('.out-keep'))).toEqual([]);
    rmSync(out, { recursive: true });
  });
});
