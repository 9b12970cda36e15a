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

  it('cuts the extract to --bbox: every node and place inside, ways cut where they leave it', () => {
    const whole = loadRegion(join(work, 'andorra'));
    const box = [1.45, 42.45, 1.55, 42.6] as const;
    const out = join(work, 'andorra-west');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'data/region/import-cli.ts', '--osm', ANDORRA_PBF, '--out', out, '--bbox', box.join(','), '--quiet'],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const cut = loadRegion(out);
    const g = cut.graph;
    expect(g.nodeCount).toBeGreaterThan(1000);
    expect(g.nodeCount).toBeLessThan(whole.graph.nodeCount / 2);
    for (let n = 0; n < g.nodeCount; n++) {
      const lon = g.nodeLonE7[n]! / 1e7;
      const lat = g.nodeLatE7[n]! / 1e7;
      if (!(lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3])) throw new Error(`node ${n} at ${lon}, ${lat}`);
    }
    expect(cut.places.count).toBeGreaterThan(0);
    for (const place of cut.places) {
      expect(place.lon).toBeGreaterThanOrEqual(box[0]);
      expect(place.lat).toBeLessThanOrEqual(box[3]);
    }
  });

  it('refuses a --bbox that is not west,south,east,north in degrees, saying how it is written', () => {
    for (const bad of ['1,2,3', '1.6,42.4,1.5,42.6', '1,x,2,3', '1,2,3,95']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'data/region/import-cli.ts', '--osm', ANDORRA_PBF, '--bbox', bad], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^error: --bbox is WEST,SOUTH,EAST,NORTH in degrees/);
    }
  });
});
