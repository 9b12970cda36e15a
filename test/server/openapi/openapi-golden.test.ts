// The REST adapter, bound to every operation of the table, serves exactly the recorded OpenAPI document:
// reshaping the core (operations, policy, transports) must not change the public contract. After an
// intended change of the contract, regenerate with UPDATE_FIXTURES=1 and review the diff.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { buildApp } from '../../../server/app.js';
import { DEFAULTS } from '../../../server/config.js';
import { inject } from '../../../server/http/inject.js';
import { createLogger } from '../../../server/logger.js';
import { sqliteStorage } from '../../../server/storage.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/openapi/openapi.json', import.meta.url));

it('serves the recorded OpenAPI document, operation by operation', async () => {
  const app = buildApp({
    config: { ...DEFAULTS, logLevel: 'error' },
    storage: sqliteStorage(openDatabase(':memory:')),
    logger: createLogger('silent'),
    signingSecret: 'x'.repeat(40),
  });
  const res = await inject(app.handle, { method: 'GET', path: '/v1/openapi.json', headers: { host: 'localhost:8080' } });
  expect(res.status).toBe(200);
  const served = JSON.parse(res.text) as { paths: Record<string, Record<string, unknown>> };
  if (process.env.UPDATE_FIXTURES === '1') writeFileSync(FIXTURE, JSON.stringify(served, null, 2));
  const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof served;
  // Per operation first, so a failure names the operation that changed.
  for (const [path, methods] of Object.entries(recorded.paths)) {
    for (const [method, operation] of Object.entries(methods)) expect(served.paths[path]?.[method], `${method} ${path}`).toEqual(operation);
  }
  expect(served).toEqual(recorded);
});
