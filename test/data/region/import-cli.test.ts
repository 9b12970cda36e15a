// The import command end to end: arguments in, a loadable region folder out.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRegion } from '../../../data/region/region-folder.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from './shared-data.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!haveData(ANDORRA_PBF, ANDORRA_HGT))('import command', () => {
  it('writes a region folder that loads, with its tile archive, and reports the cut and its counts on a line each', () => {
    const out = join(work, 'andorra');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'data/region/import-cli.ts', '--osm', ANDORRA_PBF, '--dem', ANDORRA_HGT, '--out', out],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^region written to .*: \d+ nodes, \d+ edges/);
    expect(readdirSync(out).sort()).toEqual([
      'dem.bin',
      'graph.bin',
      'hazards.json',
      'meta.json',
      'places.bin',
      'routes.json',
      'routing.bin',
      'tiles.mbtiles',
    ]);
    expect(r.stderr).toMatch(/^import: routing\.bin: \d+\.\d MB; routing prepared in \d+\.\d s$/m);
    expect(r.stderr).toMatch(/^import: tiles: \d+ tiles, .* largest tile per zoom \(uncompressed\): z0 .* z14 [\d.]+ KB$/m);
    const region = loadRegion(out);
    expect(region.meta.sources).toEqual({ osm: 'andorra.osm.pbf', dem: ['N42E001.hgt.zip'] });
    expect(region.meta.counts.nodes).toBe(region.graph.nodeCount);
    expect(readdirSync(work)).toEqual(['andorra']);
  });
});
