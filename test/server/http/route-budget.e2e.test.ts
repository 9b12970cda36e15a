// Per-operation time budgets: imports run under IMPORT_BUDGET_MS, everything else under REQUEST_BUDGET_MS.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;

beforeAll(async () => {
  // A general budget too short for anything asynchronous, and the default import budget.
  server = await startServer({ REQUEST_BUDGET_MS: '30', SEED_DEMO: '0' }, { diagnostics: true });
  org = bootstrap(server);
});
afterAll(async () => {
  await server?.stop();
});

describe('time budgets per operation', () => {
  it('an ordinary request past the general budget answers 504', async () => {
    const res = await fetch(`${server.url}/_diagnostics/slow?ms=300`);
    expect(res.status).toBe(504);
    // The control: the same request within the budget answers normally.
    const within = await fetch(`${server.url}/_diagnostics/slow?ms=0`);
    expect(within.status).toBe(200);
    expect(await within.json()).toEqual({ slept: 0 });
  });

  it('an import gets its own, longer budget', async () => {
    const line = Array.from({ length: 200 }, (_, i) => [1.55 + i * 0.0001, 42.5 + i * 0.00005, 1500 + i]);
    const body = JSON.stringify({ type: 'Feature', properties: { name: 'Budgeted' }, geometry: { type: 'LineString', coordinates: line } });
    const res = await fetch(`${server.url}/v1/itineraries/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/geo+json', 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id },
      body,
    });
    expect(res.status).toBe(201);
  });
});
