// createItineraryFromLines (used by import) and readItinerary (used by export), in-process with a real
// SQLite database and a real worker pool.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../data/db.js';
import { seedDemo, type SeedResult } from '../../../../data/seed.js';
import { buildApp, type App } from '../../../../server/app.js';
import { DEFAULTS } from '../../../../server/config.js';
import { ApiError } from '../../../../server/errors.js';
import { createLogger } from '../../../../server/logger.js';
import { createItineraryFromLines, readItinerary } from '../../../../server/studio/itineraries/itinerary-service.js';
import { ItineraryViewCache } from '../../../../server/studio/itineraries/itinerary-view-cache.js';
import type { StudioDeps } from '../../../../server/studio/studio-deps.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../../../server/pool/pool.js';
import { expectContinuousChain } from './chain-helpers.js';
import { sqliteStorage } from '../../../../server/storage.js';

const TASKS = new URL('../../../../dist/workers/', import.meta.url);
let db: Database;
let app: App;
let pool: WorkerPool;
let seeded: SeedResult;
let deps: StudioDeps;

beforeAll(async () => {
  db = openDatabase(':memory:');
  pool = createPool({ taskFile: taskFilesIn(TASKS), maxThreads: 1, env: { ...process.env, REGION_PATH: '' } });
  const logger = createLogger('silent');
  app = buildApp({ config: { ...DEFAULTS, logLevel: 'error' }, storage: sqliteStorage(db), pool, logger, signingSecret: 'x'.repeat(40) });
  seeded = await seedDemo(app.stores, app.writes, { ownerPassword: 'irrelevant-password' });
  deps = { stores: app.stores, writes: app.writes, policy: app.policy, pool, views: new ItineraryViewCache(), config: DEFAULTS, logger };
});

afterAll(async () => {
  await pool?.close();
  db?.close();
});

const input = (name: string, extra: Record<string, unknown> = {}) => ({
  organizationId: seeded.organization.id,
  actorUserId: seeded.owner.id,
  name,
  activity: 'HIKING_AND_TRAIL' as const,
  privacy: 'private' as const,
  lines: [
    [1.56, 42.5, 1000, 1.561, 42.5005, 1010, 1.562, 42.501, 1020],
    [1.562, 42.501, 1020, 1.563, 42.5008, 1005],
  ],
  waypoints: [
    { name: 'Start', coordinates: [1.56, 42.5] },
    { name: 'Hut', kind: 'shelter', coordinates: [1.562, 42.501] },
    { name: 'End', coordinates: [1.563, 42.5008] },
  ],
  ...extra,
});

describe('createItineraryFromLines', () => {
  it('keeps every track point as freehand segments with the lines’ own elevation and names the joints', async () => {
    const view = await createItineraryFromLines(deps, input('Imported track'));
    expect(view.segments.map((s) => s.engine)).toEqual(['freehand', 'freehand']);
    expect(view.segments[0]!.geometry.coordinates).toEqual([
      [1.56, 42.5, 1000],
      [1.561, 42.5005, 1010],
      [1.562, 42.501, 1020],
    ]);
    expect(view.segments[0]!.ascent).toBeCloseTo(20, 9);
    expect(view.segments[1]!.descent).toBeCloseTo(15, 9);
    expect(view.waypoints.map((w) => [w.name, w.kind])).toEqual([
      ['Start', null],
      ['Hut', 'shelter'],
      ['End', null],
    ]);
    expectContinuousChain(view);
    expect(await readItinerary(deps, view.id, 'draft')).toEqual(view);
    expect(await readItinerary(deps, view.id, 'published')).toBeUndefined();
  });

  it('matches named waypoints to the nearest joint when their count differs', async () => {
    const view = await createItineraryFromLines(
      deps,
      input('Imported sparse', { waypoints: [{ name: 'Hut', coordinates: [1.56201, 42.50101] }] }),
    );
    expect(view.waypoints.map((w) => w.name)).toEqual([null, 'Hut', null]);
  });

  it('refuses a taken name with the 409 metadata of the holder', async () => {
    const first = await createItineraryFromLines(deps, input('Imported twice'));
    const error = await createItineraryFromLines(deps, input('Imported twice')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('CONFLICT');
    expect((error as ApiError).metadata).toEqual({ itinerary: { id: first.id } });
  });

  it('refuses a line of fewer than two points with 400', async () => {
    const error = await createItineraryFromLines(deps, input('Short line', { lines: [[1.56, 42.5, 0]] })).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('VALIDATION_FAILED');
  });
});
