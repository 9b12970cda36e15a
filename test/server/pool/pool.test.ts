import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestAbort } from '../../../server/http/request-abort.js';
import { Activity } from '../../../contracts/activity.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../../server/pool/pool.js';
import { TASK_FILES } from '../../../server/pool/task-files.js';
import type { TaskFailure } from '../../../contracts/task-failure.js';
import type { TaskName } from '../../../contracts/task-map.js';
import { taskError } from '../../../server/pool/task-error.js';
import { compileWorkers } from '../../workers/compile-workers.js';
import { TileArchive } from '../../../data/region/tile-archive.js';
import { REGION_FORMAT_VERSION } from '../../../data/region/region.js';

// Workers load the compiled task modules from dist/workers/, as in production.
let TASKS = '';
const env = { ...process.env, REGION_PATH: '', CAIRN_WASM_BUILD: 'debug', ROUTING_WARM: 'WALKING' };

let pool: WorkerPool;
beforeAll(() => {
  TASKS = dirname(compileWorkers());
  pool = createPool({ taskFile: taskFilesIn(TASKS), maxThreads: 2, env });
});
afterAll(async () => {
  await pool.close();
});

describe('routing worker pool', () => {
  it('runs tasks off the main thread on the demo region', async () => {
    const out = await pool.runTask('ping', {});
    expect(out).toMatchObject({ ok: true, isMainThread: false, region: 'demo' });
    if (out.ok) expect(out.threadId).toBeGreaterThan(0);
  });

  it('routes directions through the pool', async () => {
    const out = await pool.runTask('directions', {
      activity: Activity.HIKING_AND_TRAIL,
      waypoints: [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ],
      avoid: ['TOLLWAY'],
    });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.routes[0]!.distance).toBeGreaterThan(0);
    // The line comes back as GeoJSON positions text, formatted in the worker.
    const positions = JSON.parse(out.routes[0]!.coordinatesJson) as number[][];
    expect(positions).toHaveLength(out.routes[0]!.coordinateCount);
    expect(positions.every((p) => p.length === 3 && p.every(Number.isFinite))).toBe(true);
  });

  it('directions asked in one turn: the first go at once to the idle workers, the rest as one batch per worker, each caller getting its own answer', async () => {
    const q = (i: number) => ({
      activity: Activity.WALKING,
      waypoints: [
        [1.551, 42.4952],
        [1.5703 - i * 0.0005, 42.5049],
      ] as [number, number][],
    });
    const alone = await Promise.all([0, 7].map(async (i) => pool.runTask('directions', q(i))));
    const before = pool.piscina.completed;
    const together = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pool.runTask(
          'directions',
          i === 5
            ? {
                ...q(i),
                waypoints: [
                  [10, 10],
                  [1.5703, 42.5049],
                ],
              }
            : q(i),
        ),
      ),
    );
    // Two workers: the first two queries start at once, one each; the other eighteen wait as two batches.
    expect(pool.piscina.completed - before).toBe(4);
    expect(together[0]).toEqual(alone[0]);
    expect(together[7]).toEqual(alone[1]);
    expect(together[5]).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'waypoints', 0] });
    expect(together.filter((r) => r.ok)).toHaveLength(19);
  });

  it('cuts the demo region’s tile archive, and a tile deeper than it from its ancestor (in a batch of one)', async () => {
    const bytes = await pool.runTask('trailTileArchive', {});
    expect(bytes).toBeInstanceOf(Uint8Array);
    const archive = new TileArchive(Buffer.from(bytes as Uint8Array));
    expect(archive.info).toMatchObject({ kind: 'demo', maxzoom: 14, hasDem: true });
    const at14 = archive.tile(14, 8262, 6051); // at the demo valley’s origin
    expect(at14).toBeDefined();
    const ancestor = at14!;
    const out = await pool.runTask('trailTile', { z: 15, x: 16525, y: 12102, ancestor });
    expect(out).toBeInstanceOf(Uint8Array);
    expect((out as Uint8Array).byteLength).toBeGreaterThan(100);
    expect(await pool.runTask('trailTile', { z: 15, x: 2 ** 15, y: 94, ancestor })).toMatchObject({ ok: false, path: ['input', 'x'] });
  });

  it('answers a batch of directions queries in one task', async () => {
    const q = {
      activity: Activity.WALKING,
      waypoints: [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ] as [number, number][],
    };
    const out = await pool.runTask('directionsBatch', [
      q,
      {
        ...q,
        waypoints: [
          [10, 10],
          [1.56, 42.5],
        ],
      },
      q,
    ]);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.results.map((r) => r.ok)).toEqual([true, false, true]);
  });

  it('returns unroutable input as a failure value', async () => {
    const out = await pool.runTask('directions', {
      activity: Activity.WALKING,
      waypoints: [
        [10, 10],
        [1.56, 42.5],
      ],
    });
    expect(out).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'waypoints', 0] });
  });

  it('maps an abort or a passed deadline to GATEWAY_TIMEOUT', async () => {
    const ctrl = new AbortController();
    const pending = pool.runTask('reachable', { activity: Activity.WALKING, center: [1.56, 42.5], budget: 3600 }, { signal: ctrl.signal });
    ctrl.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'GATEWAY_TIMEOUT' });
    const late = await pool.runTask('ping', {}, { timeoutMs: 0 });
    expect(late).toMatchObject({ ok: false, code: 'GATEWAY_TIMEOUT' });
  });

  it("stops waiting when the request's own cancellation fires or the deadline passes, and lets go of its listener", async () => {
    const slow = createPool({ taskFile: () => new URL('./fixtures/slow-tasks.mjs', import.meta.url).href, maxThreads: 1 });
    try {
      const request = new RequestAbort();
      const aborted = slow.runTask('directions', { ms: 300 } as never, { signal: request });
      setTimeout(() => request.abort(new Error('the client went away')), 20);
      expect(await aborted).toMatchObject({ ok: false, code: 'GATEWAY_TIMEOUT' });
      expect(await slow.runTask('directions', { ms: 300 } as never, { timeoutMs: 20 })).toMatchObject({
        ok: false,
        code: 'GATEWAY_TIMEOUT',
      });
      // A signal that counts its listeners: the pool's is gone once the task has answered.
      const listeners = new Set<() => void>();
      const counting = {
        aborted: false,
        addEventListener: (_type: 'abort', listener: () => void) => listeners.add(listener),
        removeEventListener: (_type: 'abort', listener: () => void) => listeners.delete(listener),
      };
      const answer = slow.runTask('directions', { ms: 1 } as never, { signal: counting, timeoutMs: 5000 });
      expect(listeners.size).toBe(1);
      expect(await answer).toEqual({ ok: true, ms: 1 });
      expect(listeners.size).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('maps a full queue to SERVICE_UNAVAILABLE', async () => {
    const tiny = createPool({ taskFile: taskFilesIn(TASKS), maxThreads: 1, maxQueue: 2, env });
    try {
      const inputs = Array.from({ length: 20 }, () =>
        tiny.runTask('reachable', { activity: Activity.WALKING, center: [1.56, 42.5], budget: 3600 }),
      );
      const results = await Promise.all(inputs);
      expect(results.some((r) => !r.ok && r.code === 'SERVICE_UNAVAILABLE')).toBe(true);
      expect(results.some((r) => r.ok)).toBe(true);
    } finally {
      await tiny.close();
    }
  });

  it('runs each task from the module TASK_FILES names for it', async () => {
    expect(new Set(Object.values(TASK_FILES))).toEqual(
      new Set(['routing.js', 'line-analysis.js', 'transfer.js', 'region-lookup.js', 'zone-match.js', 'trail-tiles.js', 'overlay-tiles.js']),
    );
    expect(await pool.runTask('ping', {})).toMatchObject({ ok: true });
    expect(await pool.runTask('nearestPoints', { points: [[1.56, 42.5]], candidates: [[1.5601, 42.5]], within: 50 })).toEqual({
      ok: true,
      nearest: [0],
    });
    const geojson = {
      type: 'LineString',
      coordinates: [
        [1.56, 42.5],
        [1.561, 42.5],
      ],
    };
    expect(await pool.runTask('readImport', { content: geojson, mediaType: 'application/json', inflateLimit: 1 << 20 })).toMatchObject({
      ok: true,
      plan: { lines: [[1.56, 42.5, Number.NaN, 1.561, 42.5, Number.NaN]] },
    });
  });

  it('finds every task exported by its own module, and by no other', async () => {
    const modules = new Map<string, Record<string, unknown>>();
    for (const file of new Set(Object.values(TASK_FILES))) modules.set(file, await import(pathToFileURL(join(TASKS, file)).href));
    for (const [name, file] of Object.entries(TASK_FILES) as [TaskName, string][]) {
      const holders = [...modules].filter(([, m]) => typeof m[name] === 'function').map(([f]) => f);
      expect(holders, name).toEqual([file]);
    }
  });

  it('runs a task from the file named for it, not from the module its workers started with', async () => {
    const start = new URL('./fixtures/start-module.mjs', import.meta.url).href;
    const other = new URL('./fixtures/other-module.mjs', import.meta.url).href;
    const mapped = createPool({ taskFile: (name) => (name === 'which' ? other : start), maxThreads: 1 });
    try {
      expect(await mapped.runTask('which' as 'ping', {})).toEqual({ ok: true, module: 'other' });
    } finally {
      await mapped.close();
    }
  });

  it('returns bytes a task gives as a top-level Piscina.move, transferred rather than copied', async () => {
    const bytesPool = createPool({ taskFile: () => new URL('./fixtures/bytes-tasks.mjs', import.meta.url).href, maxThreads: 1 });
    try {
      const out: unknown = await bytesPool.runTask('bytes' as 'ping', { length: 1 << 20 } as never);
      expect(out).toBeInstanceOf(Uint8Array);
      const bytes = out as Uint8Array;
      expect(bytes.byteLength).toBe(1 << 20);
      expect([bytes[0], bytes[250], bytes[251], bytes[(1 << 20) - 1]]).toEqual([0, 250, 0, ((1 << 20) - 1) % 251]);
      expect(await bytesPool.runTask('lastDetached' as 'ping', {})).toEqual({ ok: true, detached: true });
    } finally {
      await bytesPool.close();
    }
  });

  it('makes every trail tile under one z12 tile on one worker (it keeps what it sliced there), neighbours on the others', async () => {
    const tilePool = createPool({
      taskFile: () => new URL('./fixtures/tile-thread-tasks.mjs', import.meta.url).href,
      maxThreads: 2,
      minThreads: 2,
    });
    try {
      // Two neighbouring z12 tiles of Andorra, and all their descendants at z13–z15, asked at once and then alone.
      const tiles = [2065, 2066].flatMap((x12) =>
        [1, 2, 3].flatMap((d) =>
          Array.from({ length: 4 ** d }, (_, i) => ({
            z: 12 + d,
            x: x12 * 2 ** d + (i % 2 ** d),
            y: 1502 * 2 ** d + Math.floor(i / 2 ** d),
            ancestor: new Uint8Array(0),
          })),
        ),
      );
      const together = (await Promise.all(tiles.map((t) => tilePool.runTask('trailTile', t)))) as unknown as number[];
      const alone: number[] = [];
      for (const t of tiles.filter((_, i) => i % 17 === 0)) alone.push((await tilePool.runTask('trailTile', t)) as unknown as number);
      const threadOf = (x12: number) => new Set(together.filter((_, i) => tiles[i]!.x >> (tiles[i]!.z - 12) === x12));
      expect(threadOf(2065).size).toBe(1);
      expect(threadOf(2066).size).toBe(1);
      expect([...threadOf(2065)][0]).not.toBe([...threadOf(2066)][0]);
      for (const [k, t] of tiles.filter((_, i) => i % 17 === 0).entries()) expect(alone[k]).toBe([...threadOf(t.x >> (t.z - 12))][0]);
    } finally {
      await tilePool.close();
    }
  });

  it('turns a task failure into the API error at the worker’s own input path', async () => {
    const out = await pool.runTask('directions', {
      activity: Activity.WALKING,
      waypoints: [
        [1.551, 42.4952],
        [10, 10],
      ],
    });
    expect(out).toMatchObject({ ok: false, path: ['input', 'waypoints', 1] });
    const error = taskError(out as TaskFailure);
    expect(error.status).toBe(400);
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['waypoints', 1] }]);
  });

  it('rejects a bad option with a TypeError naming it', () => {
    expect(() => createPool({ maxThreads: 0 })).toThrow('pool.maxThreads must be a positive integer');
  });
});

describe('worker failures', () => {
  const FAILING = new URL('./fixtures/failing-tasks.mjs', import.meta.url).href;

  it('a task that throws, ends its thread or crashes it is an INTERNAL_ERROR value, reported once, and the pool keeps serving', async () => {
    const reported: unknown[] = [];
    const failing = createPool({ taskFile: () => FAILING, maxThreads: 1, onWorkerError: (e) => reported.push(e) });
    try {
      const run = (name: string) => failing.runTask(name as 'ping', {});
      expect(await run('ping')).toMatchObject({ ok: true });
      expect(await run('throws')).toEqual({
        ok: false,
        kind: 'worker_failed',
        code: 'INTERNAL_ERROR',
        reason: expect.stringMatching(/^the worker failed: /),
      });
      expect(await run('exits')).toEqual({
        ok: false,
        kind: 'worker_failed',
        code: 'INTERNAL_ERROR',
        reason: expect.stringMatching(/^the worker failed: /),
      });
      expect(await run('crashes')).toEqual({
        ok: false,
        kind: 'worker_failed',
        code: 'INTERNAL_ERROR',
        reason: expect.stringMatching(/^the worker failed: /),
      });
      // With a deadline too (the path requests take).
      expect(await failing.runTask('throws' as 'ping', {}, { timeoutMs: 5000 })).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
      expect(await run('ping')).toMatchObject({ ok: true });
      expect(reported.length).toBeGreaterThanOrEqual(4);
    } finally {
      await failing.close();
    }
  });

  it('a region that fails to load in the worker fails each task with INTERNAL_ERROR, never the process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-bad-region-'));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ formatVersion: REGION_FORMAT_VERSION }));
    for (const name of ['graph.bin', 'places.bin', 'hazards.json', 'routes.json']) writeFileSync(join(dir, name), 'garbage');
    const reported: unknown[] = [];
    const broken = createPool({
      taskFile: taskFilesIn(TASKS),
      maxThreads: 1,
      env: { ...env, REGION_PATH: dir, ROUTING_WARM: '' },
      onWorkerError: (e) => reported.push(e),
    });
    try {
      const out = await broken.runTask(
        'directions',
        {
          activity: Activity.WALKING,
          waypoints: [
            [1.551, 42.4952],
            [1.5703, 42.5049],
          ],
        },
        { timeoutMs: 10_000 },
      );
      expect(out).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
      expect(String(reported[0])).toMatch(/graph\.bin/);
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a task module that cannot load fails each task with INTERNAL_ERROR at once; once it loads again, tasks succeed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-failing-load-'));
    const marker = join(dir, 'broken');
    writeFileSync(marker, '');
    const reported: unknown[] = [];
    const pool = createPool({
      taskFile: () => new URL('./fixtures/failing-load.mjs', import.meta.url).href,
      maxThreads: 1,
      env: { ...process.env, FAIL_LOAD_WHILE: marker },
      onWorkerError: (e) => reported.push(e),
    });
    try {
      // No deadline: piscina stops replacing workers that fail to start, and such a task used to wait in its
      // queue for ever. Each new task tries a new worker.
      for (let i = 0; i < 3; i++) expect(await pool.runTask('ping', {})).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
      // With a deadline it is the same failure, not a GATEWAY_TIMEOUT.
      expect(await pool.runTask('ping', {}, { timeoutMs: 20_000 })).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
      expect(String(reported[0])).toMatch(/cannot load/);
      rmSync(marker);
      expect(await pool.runTask('ping', {})).toMatchObject({ ok: true });
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('a region that fails to load while a worker starts (ROUTING_WARM) fails the task with INTERNAL_ERROR, never hangs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-bad-region-'));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ formatVersion: REGION_FORMAT_VERSION }));
    for (const name of ['graph.bin', 'places.bin', 'hazards.json', 'routes.json']) writeFileSync(join(dir, name), 'garbage');
    const reported: unknown[] = [];
    const broken = createPool({
      taskFile: taskFilesIn(TASKS),
      maxThreads: 1,
      env: { ...env, REGION_PATH: dir, ROUTING_WARM: 'WALKING' },
      onWorkerError: (e) => reported.push(e),
    });
    try {
      // The first lands on the worker piscina starts with, the next on a replacement that fails to start too.
      for (let i = 0; i < 3; i++) expect(await broken.runTask('ping', {})).toMatchObject({ ok: false, code: 'INTERNAL_ERROR' });
      expect(String(reported[0])).toMatch(/graph\.bin/);
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
