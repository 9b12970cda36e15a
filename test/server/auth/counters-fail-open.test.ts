// Both session counters fail open: when their store is unavailable, minting goes on. Driven in-process
// through the real pipeline with an injected failing counter store (a socket adds nothing here).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../data/db.js';
import { seedDemo, type SeedResult } from '../../../data/seed.js';
import { buildApp, type App } from '../../../server/app.js';
import type { WindowCounter } from '../../../server/auth/window-counter.js';
import { DEFAULTS } from '../../../server/config.js';
import { inject } from '../../../server/http/inject.js';
import { createLogger } from '../../../server/logger.js';
import { sqliteStorage } from '../../../server/storage.js';

class FailingCounter implements WindowCounter {
  calls = 0;
  async increment(): Promise<number> {
    this.calls++;
    throw new Error('counter store unreachable');
  }
  async peek(): Promise<number> {
    this.calls++;
    throw new Error('counter store unreachable');
  }
}

let db: Database;
let app: App;
let seeded: SeedResult;
const ipCounter = new FailingCounter();
const failureCounter = new FailingCounter();
const logs: string[] = [];
const logger = createLogger('error', (chunk) => logs.push(Buffer.from(chunk).toString('utf8')));

beforeAll(async () => {
  db = openDatabase(':memory:');
  app = buildApp({
    config: { ...DEFAULTS, logLevel: 'error' },
    storage: sqliteStorage(db),
    logger,
    counters: { sessionIp: ipCounter, sessionFailures: failureCounter },
    signingSecret: 'x'.repeat(40),
  });
  seeded = await seedDemo(app.stores, app.writes, { ownerPassword: 'irrelevant-password' });
});
afterAll(() => db.close());

const mint = (sk: string, pk: string) =>
  inject(app.handle, {
    method: 'POST',
    path: '/v1/sessions',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': sk },
    body: JSON.stringify({ publishable_key: pk }),
  });

describe('session counters with an unavailable store', () => {
  it('minting still succeeds when the per-IP counter store fails', async () => {
    for (let i = 0; i < 70; i++) {
      const res = await mint(seeded.secretKey.key, seeded.publishableKey.key);
      expect(res.status).toBe(201);
    }
    expect(ipCounter.calls).toBeGreaterThanOrEqual(70);
  });

  it('refusals keep their own status (never 429) when the failure counter store fails', async () => {
    for (let i = 0; i < 15; i++) {
      const res = await mint(seeded.secretKey.key, 'pk_000000000000000000000000');
      expect(res.status).toBe(404);
    }
    expect((await mint(seeded.secretKey.key, seeded.publishableKey.key)).status).toBe(201);
    expect(failureCounter.calls).toBeGreaterThan(15);
  });

  it('each store failure is logged as an error', async () => {
    logger.flush(); // the logger writes its buffer every 20 ms: write it out now
    expect(logs.join('')).toContain('failing open');
  });
});
