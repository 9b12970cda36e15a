// `admin regions`: region folders listed as an operator needs them (bounds, build date, source, size), a folder of
// them read folder by folder, an import's hidden staging folder left out, and a broken folder named with the reason
// the server would refuse it.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../../data/region/demo-region.js';
import { writeRegion } from '../../../../data/region/region-folder.js';
import type { Region } from '../../../../data/region/region.js';
import { runAdmin } from '../../../../server/management/admin/admin.js';

let root = '';
let demo: Region;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-admin-regions-'));
  demo = buildDemoRegion();
  writeRegion(join(root, 'valley'), demo);
  writeRegion(join(root, 'second'), demo);
  // Built on a known day.
  const day = new Date('2026-11-01T12:00:00Z');
  utimesSync(join(root, 'second', 'meta.json'), day, day);
  // A half-written import: its staging folder is hidden and never listed.
  writeRegion(join(root, 'staged'), demo);
  renameSync(join(root, 'staged'), join(root, '.staged.tmp-1-abc'));
  // A region folder kept elsewhere and linked in, as an operator switches versions.
  writeRegion(join(root, '..', `${basename(root)}-linked`), demo);
  symlinkSync(join(root, '..', `${basename(root)}-linked`), join(root, 'linked'));
  // A folder that is no region at all, and one whose graph is damaged.
  mkdirSync(join(root, 'notes'));
  writeRegion(join(root, 'broken'), demo);
  writeFileSync(join(root, 'broken', 'graph.bin'), '[]');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(`${root}-linked`, { recursive: true, force: true });
});

const regions = async (args: string[], env = {}) => {
  const result = await runAdmin(['regions', ...args, '--json'], env);
  return { ...result, out: result.stdout ? JSON.parse(result.stdout) : undefined };
};

describe('admin regions', () => {
  it('lists each region folder of a folder with its bounds, build date, source, counts and size', async () => {
    const { exitCode, out } = await regions(['--path', root]);
    expect(exitCode).toBe(0);
    expect(out.regions.map((r: { name: string }) => r.name)).toEqual(['linked', 'second', 'valley']);
    expect(out.regions[0].bytes).toBe(out.regions[1].bytes);
    const second = out.regions[1];
    expect(second).toEqual({
      name: 'second',
      path: join(root, 'second'),
      bounds: demo.meta.bbox,
      built_at: '2026-11-01T12:00:00.000Z',
      source: null,
      osm_timestamp: null,
      attribution: demo.meta.attribution,
      counts: {
        nodes: demo.meta.counts.nodes,
        edges: demo.meta.counts.edges,
        ways: demo.meta.counts.ways,
        places: demo.meta.counts.places,
      },
      bytes: expect.any(Number),
    });
    const files = ['meta.json', 'graph.bin', 'dem.bin', 'places.bin', 'hazards.json', 'routes.json'];
    expect(second.bytes).toBe(files.reduce((s, f) => s + statSync(join(root, 'second', f)).size, 0));
    expect(Date.parse(out.regions[2].built_at)).toBeGreaterThan(Date.parse('2026-11-02'));
    expect(out.unusable).toEqual([
      { name: 'broken', path: join(root, 'broken'), reason: `${join(root, 'broken', 'graph.bin')} is too short to be a region graph` },
    ]);
  });

  it('lists one region folder given itself, by --path or REGION_PATH', async () => {
    const byPath = await regions(['--path', join(root, 'valley')]);
    expect(byPath.out.regions.map((r: { name: string }) => r.name)).toEqual(['valley']);
    const byEnv = await regions([], { REGION_PATH: join(root, 'valley') });
    expect(byEnv.out).toEqual(byPath.out);
  });

  it('says what is missing or wrong, with a usage status', async () => {
    const none = await regions([]);
    expect(none.exitCode).toBe(2);
    expect(JSON.parse(none.stderr)).toEqual({
      error: { code: 'MISSING_ARGUMENT', message: '--path (or REGIONS_PATH, or REGION_PATH) is required' },
    });
    const nowhere = await regions(['--path', join(root, 'nowhere')]);
    expect(nowhere.exitCode).toBe(2);
    expect(JSON.parse(nowhere.stderr).error).toEqual({
      code: 'INVALID_ARGUMENT',
      message: `region folder ${join(root, 'nowhere')} does not exist`,
    });
    const broken = await regions(['--path', join(root, 'broken')]);
    expect(JSON.parse(broken.stderr).error.message).toBe(`${join(root, 'broken', 'graph.bin')} is too short to be a region graph`);
    const empty = await regions(['--path', join(root, 'notes')]);
    expect(empty.out).toEqual({ regions: [], unusable: [] });
  });
});

describe('admin region-add, region-replace, region-remove', () => {
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runAdmin([...args, '--json'], env);
    return {
      ...result,
      out: result.stdout ? JSON.parse(result.stdout) : undefined,
      error: result.stderr ? JSON.parse(result.stderr).error : undefined,
    };
  };
  let served = '';
  let source = '';
  beforeAll(() => {
    served = mkdtempSync(join(tmpdir(), 'cairn-admin-served-'));
    source = join(root, 'valley');
  });
  afterAll(() => rmSync(served, { recursive: true, force: true }));

  it('adds a region folder under a name, a copy renamed into place, and lists it', async () => {
    const added = await run(['region-add', '--name', 'pyrenees', '--from', source], { REGIONS_PATH: served });
    expect(added.exitCode).toBe(0);
    expect(added.out.region).toMatchObject({ name: 'pyrenees', path: join(served, 'pyrenees'), bounds: demo.meta.bbox });
    expect(statSync(join(source, 'graph.bin')).isFile()).toBe(true); // the source stays
    const listed = await regions([], { REGIONS_PATH: served });
    expect(listed.out.regions.map((r: { name: string }) => r.name)).toEqual(['pyrenees']);
  });

  it('refuses to add over a region, to replace or remove one that is not there, a bad name or a folder that is no region', async () => {
    expect((await run(['region-add', '--name', 'pyrenees', '--from', source, '--path', served])).error).toMatchObject({ code: 'CONFLICT' });
    expect((await run(['region-replace', '--name', 'alps', '--from', source, '--path', served])).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await run(['region-remove', '--name', 'alps', '--path', served])).error).toMatchObject({ code: 'NOT_FOUND' });
    const badName = await run(['region-add', '--name', '../escape', '--from', source, '--path', served]);
    expect(badName.error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('lower-case letters') });
    const notRegion = await run(['region-add', '--name', 'notes', '--from', join(root, 'notes'), '--path', served]);
    expect(notRegion.error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('meta.json') });
    expect((await run(['region-remove', '--name', 'pyrenees'])).error).toMatchObject({ code: 'MISSING_ARGUMENT' });
    const listed = await regions(['--path', served]);
    expect(listed.out.regions.map((r: { name: string }) => r.name)).toEqual(['pyrenees']);
    expect(listed.out.unusable).toEqual([]);
  });

  it('replaces a region in one rename and removes one, leaving no staging folder behind', async () => {
    const before = statSync(join(served, 'pyrenees')).ino;
    const replaced = await run(['region-replace', '--name', 'pyrenees', '--from', join(root, 'second'), '--path', served]);
    expect(replaced.out.region).toMatchObject({ name: 'pyrenees', built_at: '2026-11-01T12:00:00.000Z' });
    expect(statSync(join(served, 'pyrenees')).ino).not.toBe(before);
    expect((await run(['region-remove', '--name', 'pyrenees', '--path', served])).out).toEqual({
      removed: { name: 'pyrenees', path: join(served, 'pyrenees') },
    });
    expect(readdirSync(served)).toEqual([]);
  });
});
