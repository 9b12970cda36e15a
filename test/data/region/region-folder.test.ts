// Region folders: load(write(x)) gives back x, and damaged folders fail with a clear error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { decodeGraphFile, encodeGraphFile } from '../../../data/region/graph-file.js';
import { importRegion } from '../../../data/region/import-region.js';
import type { Region } from '../../../data/region/region.js';
import { RegionInputError } from '../../../data/region/region-error.js';
import { loadRegion, writeRegion } from '../../../data/region/region-folder.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from './shared-data.js';

const work = mkdtempSync(join(tmpdir(), 'cairn-region-rt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function expectSameRegion(a: Region, b: Region): void {
  const { search: _s1, ...restA } = a;
  const { search: _s2, ...restB } = b;
  expect(restB).toEqual(restA);
}

describe('region folder', () => {
  it('load(write(demo)) round-trips every array and list', () => {
    const demo = buildDemoRegion();
    const dir = join(work, 'demo');
    writeRegion(dir, demo);
    const loaded = loadRegion(dir);
    expectSameRegion(demo, loaded);
    expect(loaded.search.search('Pic de Cairn')[0]?.name).toBe('Pic de Cairn');
  });

  it.skipIf(!haveData(ANDORRA_PBF, ANDORRA_HGT))('load(write(Andorra import)) round-trips', async () => {
    const dir = join(work, 'andorra');
    const imported = await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT], out: dir });
    expectSameRegion(imported, loadRegion(dir));
  });

  it('the loaded graph arrays are views over one buffer (no copies)', () => {
    const dir = join(work, 'views');
    writeRegion(dir, buildDemoRegion());
    const { graph, grid } = loadRegion(dir);
    const buffer = graph.nodeLon.buffer;
    for (const a of [graph.nodeLat, graph.firstEdge, graph.edgeTarget, graph.edgeAccess, graph.edgeFlags, grid.cellEdges]) {
      expect(a.buffer).toBe(buffer);
    }
  });

  it('loads the graph into a SharedArrayBuffer on request, with the same content', () => {
    const dir = join(work, 'shared');
    const demo = buildDemoRegion();
    writeRegion(dir, demo);
    const { graph } = loadRegion(dir, { shared: true });
    expect(graph.edgeTarget.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(graph.edgeTarget)).toEqual(Array.from(demo.graph.edgeTarget));
    const again = decodeGraphFile(new Uint8Array(graph.nodeLon.buffer));
    expect(again.graph.nodeCount).toBe(demo.graph.nodeCount);
  });

  it('decodes a graph file at an odd byte offset by copying it once', () => {
    const demo = buildDemoRegion();
    const bytes = encodeGraphFile(demo.graph, demo.grid);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const { graph } = decodeGraphFile(shifted.subarray(3));
    expect(graph.edgeTarget).toEqual(demo.graph.edgeTarget);
  });

  it('a truncated graph file, a wrong magic or a missing folder fail with RegionInputError', () => {
    const demo = buildDemoRegion();
    const bytes = encodeGraphFile(demo.graph, demo.grid);
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
