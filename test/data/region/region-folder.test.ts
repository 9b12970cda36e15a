// Region folders: load(write(x)) gives back x, and damaged folders fail with a clear error.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { decodeGraphFile, encodeGraphFile } from '../../../data/region/graph-file.js';
import { importRegion } from '../../../data/region/import-region.js';
import type { Region } from '../../../data/region/region.js';
import { RegionInputError } from '../../../data/region/region-error.js';
import { prepareRoutingFiles } from '../../../data/region/prepare-routing.js';
import { checkRegionFolder, loadRegion, readRegionIntoMemory, writeRegion } from '../../../data/region/region-folder.js';
import { placedFile } from '../../../geo-wasm/src/routing-memory.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from './shared-data.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-rt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function expectSameRegion(a: Region, b: Region): void {
  const { places: p1, ...restA } = a;
  const { places: p2, ...restB } = b;
  expect(restB).toEqual(restA);
  expect([...p2]).toEqual([...p1]);
  expect(Buffer.compare(p2.bytes, p1.bytes)).toBe(0);
}

describe('region folder', () => {
  it('load(write(demo)) round-trips every array and list', () => {
    const demo = buildDemoRegion();
    const dir = join(work, 'demo');
    writeRegion(dir, demo);
    const loaded = loadRegion(dir);
    expectSameRegion(demo, loaded);
    expect(loaded.places.search('Pic de Cairn')[0]?.name).toBe('Pic de Cairn');
  });

  it.skipIf(!haveData(ANDORRA_PBF, ANDORRA_HGT))('load(write(Andorra import)) round-trips', async () => {
    const dir = join(work, 'andorra');
    const imported = await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT], out: dir });
    expectSameRegion(imported, loadRegion(dir));
  });

  it('the loaded graph arrays are views over one buffer (no copies)', () => {
    const dir = join(work, 'views');
    writeRegion(dir, buildDemoRegion());
    const { graph } = loadRegion(dir);
    const buffer = graph.nodeLonE7.buffer;
    for (const a of [
      graph.nodeLatE7,
      graph.towerFirst,
      graph.towerChains,
      graph.pieceStart,
      graph.pieceWay,
      graph.wayAccess,
      graph.wayFlags,
    ]) {
      expect(a.buffer).toBe(buffer);
    }
  });

  it('reads graph.bin and routing.bin once into a shared routing memory, and loads the graph from it in place', async () => {
    const dir = join(work, 'shared');
    const demo = buildDemoRegion();
    writeRegion(dir, demo, await prepareRoutingFiles(demo.graph));
    const shared = await readRegionIntoMemory(dir);
    expect(shared.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Object.keys(shared.files).sort()).toEqual(['graph.bin', 'places.bin', 'routing.bin']);
    expect(shared.files['graph.bin']!.bytes).toBe(statSync(join(dir, 'graph.bin')).size);
    expect(shared.files['routing.bin']!.bytes).toBe(statSync(join(dir, 'routing.bin')).size);
    const graphBytes = placedFile(shared, 'graph.bin')!;
    const { graph, places } = loadRegion(dir, { sharedFile: (name) => placedFile(shared, name)! });
    expect(graph.pieceStart.buffer).toBe(graphBytes.buffer);
    expect(places.bytes.buffer).toBe(graphBytes.buffer);
    expect([...places]).toEqual([...demo.places]);
    expect(Array.from(graph.pieceStart)).toEqual(Array.from(demo.graph.pieceStart));
    expect(Array.from(graph.towerChains)).toEqual(Array.from(demo.graph.towerChains));
    expect(Array.from(graph.nodeLonE7)).toEqual(Array.from(demo.graph.nodeLonE7));
    // The files lie apart in the memory.
    const placed = Object.values(shared.files).sort((x, y) => x.ptr - y.ptr);
    for (let i = 1; i < placed.length; i++) expect(placed[i - 1]!.ptr + placed[i - 1]!.bytes).toBeLessThanOrEqual(placed[i]!.ptr);
  });

  it('decodes a graph file at an odd byte offset by copying it once', () => {
    const demo = buildDemoRegion();
    const bytes = encodeGraphFile(demo.graph);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const graph = decodeGraphFile(shifted.subarray(3));
    expect(graph.pieceWay).toEqual(demo.graph.pieceWay);
    expect(graph.chainTo).toEqual(demo.graph.chainTo);
  });

  it('a truncated graph file, a wrong magic or a missing folder fail with RegionInputError', () => {
    const demo = buildDemoRegion();
    const bytes = encodeGraphFile(demo.graph);
    expect(() => decodeGraphFile(bytes.subarray(0, bytes.length - 8))).toThrow(/truncated/);
    const bad = bytes.slice();
    bad[0] = 0x58;
    expect(() => decodeGraphFile(bad)).toThrow(/bad magic/);
    expect(() => loadRegion(join(work, 'nowhere'))).toThrow(RegionInputError);
    const dir = join(work, 'damaged');
    writeRegion(dir, demo);
    writeFileSync(join(dir, 'graph.bin'), bytes.subarray(0, 100));
    expect(() => loadRegion(dir)).toThrow(/too short/);
  });

  it('writing over an existing region replaces it completely', () => {
    const dir = join(work, 'replace');
    writeRegion(dir, buildDemoRegion());
    const demo = buildDemoRegion();
    const smaller: Region = { ...demo, dem: null };
    writeRegion(dir, smaller);
    expect(loadRegion(dir).dem).toBeNull();
  });
});

describe('checkRegionFolder (the start-up check)', () => {
  const demo = buildDemoRegion();

  /** A fresh copy of the demo region folder, damaged by `damage`. */
  function damaged(name: string, damage: (dir: string) => void): string {
    const dir = join(work, `check-${name}`);
    writeRegion(dir, demo);
    damage(dir);
    return dir;
  }

  it('reads hazards.json and routes.json when they are first used, and names a damaged one then', () => {
    const dir = damaged('lazy-lists', (d) => writeFileSync(join(d, 'routes.json'), '[{'));
    const region = loadRegion(dir);
    expect(region.hazards).toEqual(demo.hazards);
    expect(() => region.routes).toThrow(RegionInputError);
    expect(() => region.routes).toThrow(`region file ${join(dir, 'routes.json')} is unreadable`);
  });

  it('passes a complete region folder and returns its metadata', () => {
    const dir = damaged('intact', () => undefined);
    expect(checkRegionFolder(dir)).toEqual(demo.meta);
  });

  const cases: [string, (dir: string) => void, (dir: string) => string][] = [
    ['a missing folder', (dir) => rmSync(dir, { recursive: true }), (dir) => `region folder ${dir} does not exist`],
    [
      'a file instead of a folder',
      (dir) => {
        rmSync(dir, { recursive: true });
        writeFileSync(dir, '');
      },
      (dir) => `region path ${dir} is not a folder`,
    ],
    ['a missing meta.json', (dir) => rmSync(join(dir, 'meta.json')), (dir) => `region file ${join(dir, 'meta.json')} is missing`],
    [
      'a meta.json that is not JSON',
      (dir) => writeFileSync(join(dir, 'meta.json'), '{'),
      (dir) => `region file ${join(dir, 'meta.json')} is unreadable`,
    ],
    ['a missing places.bin', (dir) => rmSync(join(dir, 'places.bin')), (dir) => `region file ${join(dir, 'places.bin')} is missing`],
    [
      'a folder where routes.json should be',
      (dir) => {
        rmSync(join(dir, 'routes.json'));
        mkdirSync(join(dir, 'routes.json'));
      },
      (dir) => `region file ${join(dir, 'routes.json')} is unreadable`,
    ],
    ['a missing graph.bin', (dir) => rmSync(join(dir, 'graph.bin')), (dir) => `region file ${join(dir, 'graph.bin')} is missing`],
    [
      'a tiles.mbtiles that is not SQLite',
      (dir) => writeFileSync(join(dir, 'tiles.mbtiles'), 'x'.repeat(4096)),
      (dir) => `region file ${join(dir, 'tiles.mbtiles')} is not an MBTiles (SQLite) file: re-import the region`,
    ],
    [
      'a graph.bin that is not a graph',
      (dir) => writeFileSync(join(dir, 'graph.bin'), 'x'.repeat(4096)),
      (dir) => `${join(dir, 'graph.bin')} is not a Cairn region graph (bad magic)`,
    ],
    [
      'a truncated graph.bin',
      (dir) => writeFileSync(join(dir, 'graph.bin'), readFileSync(join(dir, 'graph.bin')).subarray(0, 200)),
      (dir) => `${join(dir, 'graph.bin')} is truncated`,
    ],
    [
      'a graph.bin shorter than its header',
      (dir) => writeFileSync(join(dir, 'graph.bin'), '[]'),
      (dir) => `${join(dir, 'graph.bin')} is too short to be a region graph`,
    ],
    [
      'a truncated dem.bin',
      (dir) => writeFileSync(join(dir, 'dem.bin'), readFileSync(join(dir, 'dem.bin')).subarray(0, 60)),
      (dir) => `${join(dir, 'dem.bin')} is truncated`,
    ],
  ];
  for (const [what, damage, message] of cases) {
    it(`refuses ${what} with a RegionInputError naming it`, () => {
      const dir = damaged(what.replace(/\W+/g, '-'), damage);
      let error: unknown;
      try {
        checkRegionFolder(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RegionInputError);
      expect((error as Error).message).toContain(message(dir));
      expect((error as Error).message).not.toContain('\n');
    });
  }
});
