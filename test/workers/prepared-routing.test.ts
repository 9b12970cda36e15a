// Routing prepared at import (routing.bin) answers exactly as routing prepared on first use: routes with and
// without avoidance and alternatives, snaps, isochrones, suggestions and line analysis on Andorra, and the prepared
// engine computes nothing on a request. Skipped, saying why, when ../shared/data is absent (a failure in CI).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITIES } from '../../contracts/activity.js';
import type { LonLat } from '../../contracts/routing.js';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { importRegion } from '../../data/region/import-region.js';
import { prepareRoutingFiles } from '../../data/region/prepare-routing.js';
import { loadRegion } from '../../data/region/region-folder.js';
import type { Region } from '../../data/region/region.js';
import { decodeSections, RoutingFileError } from '../../geo-wasm/src/routing-file.js';
import { loadRoutingRegion } from '../../workers/region-source.js';
import { RouteEngine } from '../../workers/route-engine.js';
import {
  AVOID_MASKS,
  decodePreparedRouting,
  encodePreparedRouting,
  prepareRouting,
  readPreparedRouting,
  ROUTING_FILE,
} from '../../workers/routing-prep.js';
import { suggestRoutes } from '../../workers/suggestions.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from '../data/region/shared-data.js';
import { seeded } from './routing-oracle.js';
import { latOf, lonOf } from '../../data/region/region-graph.js';

const present = haveData(ANDORRA_PBF, ANDORRA_HGT);
const HAZARDS = [[], ['TOLLWAY'], ['RESTRICTED_ACCESS'], ['TOLLWAY', 'RESTRICTED_ACCESS']] as const;

let dir = '';
let region: Region;
let prepared: RouteEngine;
let lazy: RouteEngine;

beforeAll(async () => {
  if (!present) return;
  dir = mkdtempSync(join(tmpdir(), 'cairn-prepared-'));
  await importRegion({ osm: ANDORRA_PBF, dem: [ANDORRA_HGT], out: dir });
  region = loadRegion(dir);
  const file = readPreparedRouting(dir, region.graph);
  if (!file) throw new Error('the import wrote no routing.bin');
  prepared = new RouteEngine(region.graph, region.dem, { kernel: { build: 'debug' } }, file);
  lazy = new RouteEngine(region.graph, region.dem, { kernel: { build: 'debug' } });
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!present)('routing prepared at import, on Andorra', () => {
  it('the file holds every activity and every avoid mask', () => {
    const file = readPreparedRouting(dir, region.graph)!;
    expect([...file.activities.keys()].sort()).toEqual([...ACTIVITIES].sort());
    for (const a of file.activities.values()) expect([...a.masks.keys()]).toEqual([...AVOID_MASKS]);
  });

  it('the import’s threads write the same bytes as one thread', async () => {
    const written = async (threads: number): Promise<Buffer> => {
      const write = (await prepareRoutingFiles(region.graph, { threads })).get(ROUTING_FILE) as (path: string) => number;
      const path = join(dir, `threads-${threads}.bin`);
      const size = write(path);
      const bytes = readFileSync(path);
      rmSync(path);
      expect(bytes.byteLength).toBe(size);
      return bytes;
    };
    const one = await written(1);
    expect((await written(2)).equals(one)).toBe(true);
    expect(one.equals(readFileSync(join(dir, ROUTING_FILE)))).toBe(true);
    // Written section by section, the file is what encodeSections makes in memory.
    expect(one.equals(encodePreparedRouting(region.graph, readPreparedRouting(dir, region.graph)!))).toBe(true);
  }, 60_000);

  it('400 routes (every activity, every avoidance, some with alternatives) equal the lazily prepared ones', () => {
    const g = region.graph;
    const rnd = seeded(77);
    const at = (v: number): LonLat => [lonOf(g, v), latOf(g, v)];
    let routed = 0;
    for (let i = 0; i < 400; i++) {
      const activity = ACTIVITIES[i % ACTIVITIES.length]!;
      const waypoints = [at(Math.floor(rnd() * g.nodeCount)), at(Math.floor(rnd() * g.nodeCount))];
      const input = { activity, waypoints, avoid: [...HAZARDS[i % HAZARDS.length]!], alternatives: i % 10 === 0 ? 2 : 0 };
      const want = lazy.directions(input);
      expect(prepared.directions(input), `${i} ${JSON.stringify(input)}`).toEqual(want);
      if (want.ok) routed++;
    }
    expect(routed).toBeGreaterThan(200);
  });

  it('snaps, isochrones, suggestions and line analysis equal the lazily prepared ones', () => {
    const g = region.graph;
    const rnd = seeded(9);
    for (let i = 0; i < 20; i++) {
      const activity = ACTIVITIES[i % ACTIVITIES.length]!;
      const v = Math.floor(rnd() * g.nodeCount);
      const point: LonLat = [lonOf(g, v) + 0.001, latOf(g, v) - 0.001];
      expect(prepared.snap({ activity, point })).toEqual(lazy.snap({ activity, point }));
      const iso = { activity, center: point, ranges: [600, 1200] };
      expect(prepared.isochrone(iso)).toEqual(lazy.isochrone(iso));
      if (i < 5) {
        const idea = { activity, start: point, targetDistance: 4000, limit: 2 };
        expect(suggestRoutes(prepared, idea)).toEqual(suggestRoutes(lazy, idea));
      }
      const route = lazy.directions({ activity, waypoints: [point, [lonOf(g, v) - 0.01, latOf(g, v) + 0.005]] });
      if (route.ok) {
        const flat = route.routes[0]!.coordinates; // lon, lat, ele
        const picked: LonLat[] = [];
        for (let k = 0; k < flat.length; k += 15) picked.push([flat[k]!, flat[k + 1]!]);
        picked.push([flat[flat.length - 3]!, flat[flat.length - 2]!]);
        const line = { activity, coordinates: picked };
        expect(prepared.analyze(line)).toEqual(lazy.analyze(line));
        expect(prepared.snapLine(line)).toEqual(lazy.snapLine(line));
      }
    }
  });

  it('the prepared engine computed nothing, at load or on any of those requests; the lazy one did', () => {
    expect(prepared.preparedOnUse).toBe(0);
    expect(prepared.kernel.stats.computed).toEqual({ core: 0, grid: 0, profiles: 0, hierarchies: 0, components: 0, landmarks: 0 });
    expect(lazy.preparedOnUse).toBe(ACTIVITIES.length);
    expect(lazy.kernel.stats.computed.hierarchies).toBeGreaterThan(ACTIVITIES.length);
  });

  it('a worker reads the folder’s routing.bin; without it, or with a stale one, it prepares at load and says so', () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const fromFile = loadRoutingRegion(dir, { build: 'debug', log });
    expect(fromFile.routing).toBe('file');
    expect(lines).toEqual([]);
    const bytes = readFileSync(join(dir, ROUTING_FILE));
    // A file whose sampled costs no longer match the profiles (as after a profile change) is not used.
    const s = decodeSections(new Uint8Array(bytes));
    const sample = s.get('p0.sample') as Float32Array;
    const copy = new Uint8Array(bytes);
    const at = sample.byteOffset - bytes.byteOffset;
    new Float32Array(copy.buffer, copy.byteOffset + at, sample.length).fill(1);
    expect(() => decodePreparedRouting(region.graph, copy)).toThrow(/HIKING_AND_TRAIL profile changed/);
    writeFileSync(join(dir, ROUTING_FILE), copy);
    const stale = loadRoutingRegion(dir, { build: 'debug', log });
    expect(stale.routing).toBe('load');
    expect(lines.join('\n')).toMatch(
      /routing\.bin is not usable \(the HIKING_AND_TRAIL profile changed since the import\): prepared at load/,
    );
    rmSync(join(dir, ROUTING_FILE));
    const none = loadRoutingRegion(dir, { build: 'debug', log });
    expect(none.routing).toBe('load');
    expect(lines.at(-1)).toMatch(/has no routing\.bin: prepared at load in .* s \(re-import the region: npm run import\)/);
    expect(none.engine.preparedOnUse).toBe(0);
    writeFileSync(join(dir, ROUTING_FILE), bytes);
  });
});

describe('the routing file', () => {
  const demo = buildDemoRegion();
  const g = demo.graph;

  it('round-trips: what is read back are views equal to what was prepared', () => {
    const made = prepareRouting(g);
    const bytes = encodePreparedRouting(g, made);
    const read = decodePreparedRouting(g, bytes);
    expect(read.core).toEqual(made.core);
    expect([...read.activities.keys()]).toEqual([...made.activities.keys()]);
    for (const [activity, a] of made.activities) {
      const b = read.activities.get(activity)!;
      expect(b.profile).toEqual(a.profile);
      expect(b.fastest).toBe(a.fastest);
      for (const mask of AVOID_MASKS) expect(b.masks.get(mask)).toEqual(a.masks.get(mask));
      expect(b.profile.coreCost.buffer).toBe(bytes.buffer);
    }
    // Every section starts on an 8-byte boundary.
    for (const [name, a] of decodeSections(bytes)) expect(a.byteOffset % 8, name).toBe(0);
  });

  it('refuses bytes that are not a routing file this build reads, or are made for another graph', () => {
    const bytes = encodePreparedRouting(g, prepareRouting(g));
    expect(() => decodeSections(bytes.subarray(0, 100))).toThrow(RoutingFileError);
    const other = new Uint8Array(bytes);
    other[8] = 99;
    expect(() => decodeSections(other)).toThrow(/file version 99/);
    other.set(new TextEncoder().encode('NOTROUTE'), 0);
    expect(() => decodeSections(other)).toThrow(/not a routing file/);
    expect(() => decodePreparedRouting({ ...g, nodeCount: g.nodeCount + 1 }, bytes)).toThrow(/made for a graph of/);
  });

  it('the demo region is prepared at load, silently, and its engine prepares nothing on a request', () => {
    const lines: string[] = [];
    const demoRouting = loadRoutingRegion(undefined, { build: 'debug', log: (l) => lines.push(l) });
    expect(demoRouting.routing).toBe('load');
    const e = demoRouting.engine;
    const [lon, lat] = [lonOf(g, 10), latOf(g, 10)];
    for (const activity of ACTIVITIES) {
      e.directions({
        activity,
        waypoints: [
          [lon, lat],
          [lonOf(g, 2000), latOf(g, 2000)],
        ],
        avoid: ['TOLLWAY'],
      });
      e.isochrone({ activity, center: [lon, lat], ranges: [600] });
    }
    expect(e.preparedOnUse).toBe(0);
    expect(e.kernel.stats.computed).toEqual({ core: 0, grid: 0, profiles: 0, hierarchies: 0, components: 0, landmarks: 0 });
    expect(lines).toEqual([]);
  });
});
