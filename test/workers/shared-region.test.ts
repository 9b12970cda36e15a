// One copy of a region per process: the server reads graph.bin, places.bin and routing.bin once into the region's
// routing memory and every worker of its pool searches that memory in place, loading the region on the first task that
// names it (RegionRef). A worker handed the region before its files are read waits for them while it loads the rest.
// Workers report where their graph lies and how large their memory is: both lie at the main thread's placement, and
// both see the memory grow when the main thread claims more. Their answers are those of a worker that reads the folder
// itself. A region the main thread retires is dropped by every worker.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Activity } from '../../contracts/activity.js';
import type { TaskMap } from '../../contracts/task-map.js';
import type { OnRegion, RegionRef } from '../../contracts/region-ref.js';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { decodeGraphFile } from '../../data/region/graph-file.js';
import { prepareRoutingFiles } from '../../data/region/prepare-routing.js';
import { readRegionIntoMemory, ROUTING_MEMORY_FILES, writeRegion } from '../../data/region/region-folder.js';
import {
  createRegionHandoff,
  handOver,
  placedFile,
  type RegionHandoff,
  readIntoRoutingMemory,
  RoutingMemoryFullError,
  type SharedRegionFiles,
} from '../../geo-wasm/src/routing-memory.js';
import { instantiateRouting } from '../../geo-wasm/src/routing-wasm.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../server/pool/pool.js';
import { compileWorkers } from './compile-workers.js';

type Ping = TaskMap['ping'][1];

let dir = '';
let shared: SharedRegionFiles;
let handoff: RegionHandoff;
let ref: RegionRef;
let pool: WorkerPool;
let own: WorkerPool;
let tasks: (name: string) => string;
const env = () => ({ ...process.env, REGION_PATH: dir, CAIRN_WASM_BUILD: 'debug' });
/** `input` on the shared region. */
const on = <T extends object>(input: T): T & OnRegion => ({ ...input, region: ref });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-shared-region-'));
  const demo = buildDemoRegion();
  writeRegion(dir, demo, await prepareRoutingFiles(demo.graph));
  tasks = taskFilesIn(dirname(compileWorkers()));
  handoff = createRegionHandoff(ROUTING_MEMORY_FILES, 'debug');
  ref = { key: 'valley@1', dir, files: handoff, retired: new Int32Array(new SharedArrayBuffer(4)) };
  pool = createPool({ taskFile: tasks, minThreads: 2, maxThreads: 2, env: env() });
  own = createPool({ taskFile: tasks, minThreads: 1, maxThreads: 1, env: env() });
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await own?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One ping answered by each of the pool's two workers. */
async function pingEach(): Promise<Ping[]> {
  const byThread = new Map<number, Ping>();
  for (let round = 0; byThread.size < 2 && round < 200; round++) {
    for (const out of await Promise.all([pool.runTask('ping', on({})), pool.runTask('ping', on({}))])) {
      if (!out.ok) throw new Error('ping failed');
      byThread.set(out.threadId, out);
    }
  }
  return [...byThread.values()];
}

describe('a region read once into the routing memory, shared by every worker', () => {
  it('workers wait for the files the main thread reads after starting them, then answer', async () => {
    let answered = false;
    const first = pool.runTask('ping', on({})).then((out) => {
      answered = true;
      return out;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    shared = await handOver(handoff, () => readRegionIntoMemory(dir, 'debug', handoff.memory));
    expect(await first).toMatchObject({ ok: true, region: dir, routing: { shared: true } });
  });

  it('every worker loads it when handed it, and each holds its graph where the main thread read it', async () => {
    expect(await pool.everyWorker('ping', on({}))).toEqual({ answered: 2 });
    const pings = await pingEach();
    expect(pings).toHaveLength(2);
    const graph = decodeGraphFile(placedFile(shared, 'graph.bin')!);
    for (const p of pings) {
      expect(p.region).toBe(dir);
      expect(p.routing.shared).toBe(true);
      expect(p.routing.graphAt).toBe(graph.nodeLonE7.byteOffset);
      expect(p.routing.placesAt).toBe(placedFile(shared, 'places.bin')!.byteOffset);
    }
    const alone = await own.runTask('ping', {});
    expect(alone.ok && alone.routing.shared).toBe(false);
  });

  it('is one memory: when the main thread claims more of it, both workers see it grow', async () => {
    const before = await pingEach();
    const size = shared.memory.buffer.byteLength;
    for (const p of before) expect(p.routing.memoryBytes).toBeLessThanOrEqual(size);
    instantiateRouting('debug', shared.memory).claim(64 << 20);
    const grown = shared.memory.buffer.byteLength;
    expect(grown).toBeGreaterThanOrEqual(size + (64 << 20));
    for (const p of await pingEach()) expect(p.routing.memoryBytes).toBe(grown);
  });

  it('routes, snaps and reachable areas answer as a worker that read the folder itself', async () => {
    const input = {
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [
        [1.551, 42.4952],
        [1.5712, 42.5078],
      ] as [number, number][],
    };
    const routed = await pool.runTask('directions', on(input));
    expect(routed.ok).toBe(true);
    for (let i = 0; i < 4; i++) expect(await pool.runTask('directions', on(input))).toEqual(await own.runTask('directions', input));
    const snap = { activity: Activity.WALKING, point: [1.56, 42.5] as [number, number] };
    const snapped = await pool.runTask('snap', on(snap));
    expect(snapped.ok).toBe(true);
    expect(snapped).toEqual(await own.runTask('snap', snap));
    const reach = { activity: Activity.HIKING_AND_TRAIL, center: [1.551, 42.4952] as [number, number], budget: 900 };
    const reached = await pool.runTask('reachable', on(reach));
    expect(reached.ok).toBe(true);
    expect(reached).toEqual(await own.runTask('reachable', reach));
  });

  it('place searches and lookups answer as a worker that read the folder itself', async () => {
    const byText = { text: 'pic de cairn' };
    const found = await pool.runTask('places', on(byText));
    expect(found.ok && found.places[0]?.name).toBe('Pic de Cairn');
    expect(found).toEqual(await own.runTask('places', byText));
    const near = { near: [1.56, 42.5] as [number, number], radius: 3000, limit: 20 };
    expect(await pool.runTask('places', on(near))).toEqual(await own.runTask('places', near));
    const id = { id: found.ok ? found.places[0]!.id : '' };
    const one = await pool.runTask('place', on(id));
    expect(one.ok && one.place?.name).toBe('Pic de Cairn');
    expect(one).toEqual(await own.runTask('place', id));
  });

  it('is dropped by every worker once the main thread retires it', async () => {
    for (const p of await pingEach()) expect(p.held).toContain('valley@1');
    Atomics.store(ref.retired, 0, 1);
    expect(await pool.everyWorker('dropRegions', {})).toEqual({ answered: 2 });
    const held = await Promise.all([pool.runTask('dropRegions', {}), pool.runTask('dropRegions', {})]);
    for (const answer of held) expect(answer).toMatchObject({ ok: true, held: [] });
  });
});

describe('a region too large for one routing memory', () => {
  it('is refused before anything is read, saying how large it is and what fits', async () => {
    // A sparse file: 4 GiB long, nothing on disk.
    const big = join(dir, 'huge.bin');
    writeFileSync(big, '');
    truncateSync(big, 2 ** 32);
    const refused = readIntoRoutingMemory({ 'graph.bin': big }, 'debug');
    await expect(refused).rejects.toBeInstanceOf(RoutingMemoryFullError);
    await expect(refused).rejects.toThrow(/take 4\.00 GiB; one routing memory holds at most 3\.75 GiB/);
  });
});

describe('a region whose files cannot be read', () => {
  it('fails the tasks of the workers waiting for it', async () => {
    const failed = createRegionHandoff(ROUTING_MEMORY_FILES, 'debug');
    const broken = createPool({ taskFile: tasks, minThreads: 1, maxThreads: 1, env: env() });
    try {
      const ping = broken.runTask('ping', {
        region: { key: 'broken@1', dir, files: failed, retired: new Int32Array(new SharedArrayBuffer(4)) },
      });
      await expect(handOver(failed, () => Promise.reject(new Error('disk gone')))).rejects.toThrow('disk gone');
      expect(await ping).toMatchObject({ ok: false, kind: 'worker_failed' });
    } finally {
      await broken.close();
    }
  });
});
