// The pool as the operations see it with several regions, in-process: a task names its region by key once every
// worker holds it; a worker started since (one that replaced a worker that died) does not, refuses the task, and gets
// it again whole, so the caller sees only the answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Activity } from '../../../contracts/activity.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../../server/pool/pool.js';
import { RegionSet } from '../../../server/regions/region-set.js';
import { regionalPool } from '../../../server/regions/regional-pool.js';
import { EAST_VALLEY, writeValley } from '../../helpers/demo-valleys.js';
import { compileWorkers } from '../../workers/compile-workers.js';

let root = '';
let pool: WorkerPool;
let regions: RegionSet;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-regional-pool-'));
  await writeValley(join(root, 'west'));
  await writeValley(join(root, 'east'), EAST_VALLEY);
  // One worker at first: the region set hands both regions to it; a second starts under load, holding neither.
  pool = createPool({
    taskFile: taskFilesIn(dirname(compileWorkers())),
    minThreads: 1,
    maxThreads: 2,
    env: { ...process.env, CAIRN_WASM_BUILD: 'debug' },
  });
  regions = await RegionSet.open({ pool, regionsPath: root, pollMs: 0, build: 'debug' });
}, 120_000);
afterAll(async () => {
  await regions?.close();
  await pool?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('tasks on a region', () => {
  it('answer on a worker started since the region was handed out, which is handed it whole', async () => {
    const placed = regionalPool(pool, regions);
    const west = {
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ] as [number, number][],
    };
    const east = { ...west, waypoints: west.waypoints.map(([lon, lat]) => [lon + 0.1, lat] as [number, number]) };
    expect(await placed.runTask('directions', west)).toMatchObject({ ok: true });
    // The worker dies; piscina starts another, which holds no region.
    const [worker] = pool.piscina.threads;
    await worker!.terminate();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await pool.runTask('dropRegions', {})).toMatchObject({ ok: true, held: [] });
    const [w, e] = await Promise.all([placed.runTask('directions', west), placed.runTask('directions', east)]);
    expect(w.ok && e.ok).toBe(true);
    const held = await pool.runTask('dropRegions', {});
    expect(held.ok && held.held.sort()).toEqual(regions.regions.map((r) => r.ref!.key).sort());
  });

  it('named by key to a worker that does not hold it, fails as region_not_held, not as a worker failure', async () => {
    const out = await pool.runTask('directions', {
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ],
      region: { key: 'nowhere@0' },
    });
    expect(out).toMatchObject({ ok: false, kind: 'region_not_held' });
  });
});
