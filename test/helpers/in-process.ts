// The app in this process, configured from the environment as a started server is, on a fresh SQLite file, reached
// through the pipeline (server/http/inject.ts) by a fetch of the same shape: for suites of plain requests that need
// no socket (no live channel, no malformed HTTP, no signals, no timing). The admin command reaches the same file.
// Under CAIRN_TEST_CLUSTER=1 a suite gets the scaled-out deployment instead (./server.ts), so it still runs there.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app.js';
import { resolveSigningSecret } from '../../server/auth/signing-secret.js';
import { loadConfig } from '../../server/config.js';
import { clientAddress } from '../../server/http/http-server.js';
import { inject } from '../../server/http/inject.js';
import { createLogger } from '../../server/logger.js';
import { openStorage } from '../../server/storage.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../server/pool/pool.js';
import { type ServerUnderTest, startServer } from './server.js';

const TASKS = new URL('../../dist/workers/', import.meta.url);
/** Where requests claim to go (nothing listens there: a stray global fetch fails instead of reaching another server). */
const ORIGIN = 'http://127.0.0.1:9';
/** How many redirects the in-process fetch follows within the origin, as fetch's default `redirect: 'follow'`. */
const MAX_REDIRECTS = 5;

/**
 * Builds the app from `env` over the defaults (SEED_DEMO has no effect: nothing seeds), with a one-thread worker pool
 * on the demo region when the suite routes (`routing`). Without `routing`, operations that need a worker fail.
 */
export async function startInProcess(env: Record<string, string> = {}, options: { routing?: boolean } = {}): Promise<ServerUnderTest> {
  if (process.env.CAIRN_TEST_CLUSTER === '1') return startServer(env);
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  const config = loadConfig({ DATABASE_PATH: join(dataDir, 'platform.db'), LOG_LEVEL: 'info', ...env });
  let logged = '';
  const logger = createLogger(config.logLevel, (chunk) => {
    logged += Buffer.from(chunk).toString('utf8');
  });
  const storage = await openStorage(config);
  const signingSecret = await resolveSigningSecret(env.SESSION_SECRET, storage.repositories.settings);
  const pool: WorkerPool | undefined = options.routing
    ? createPool({ taskFile: taskFilesIn(TASKS), maxThreads: 1, env: { ...process.env, REGION_PATH: config.regionPath } })
    : undefined;
  const app = buildApp({ config, logger, storage, pool, signingSecret });
  // As a served process does: usage counts reach the database once a second.
  const usageFlush = setInterval(() => app.quota.flush(), 1000);
  usageFlush.unref();

  const send = async (input: string | URL | Request, init?: RequestInit, redirects = 0): Promise<Response> => {
    // A request off a socket starts its own event-loop turn; the credential cache checks for others' writes (the
    // admin command's) once per turn, so one sent in the turn of the previous answer could read a stale row.
    await new Promise((resolve) => setImmediate(resolve));
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host, accept: '*/*', 'user-agent': 'node' };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await inject(app.handle, {
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers,
      body,
      remoteAddress: clientAddress(headers, config.trustProxy, () => '127.0.0.1'),
    });
    const location = answer.headers.location;
    if (location && [301, 302, 303, 307, 308].includes(answer.status) && request.redirect === 'follow' && redirects < MAX_REDIRECTS) {
      const next = new URL(location, url);
      if (next.origin === url.origin) {
        const keepsBody = answer.status === 307 || answer.status === 308;
        return send(next, keepsBody ? { ...init, body } : { headers: init?.headers }, redirects + 1);
      }
    }
    const empty = [204, 205, 304].includes(answer.status) || request.method === 'HEAD';
    return new Response(empty ? null : answer.bytes, { status: answer.status, headers: answer.headerList });
  };

  return {
    url: ORIGIN,
    dataDir,
    fetch: send as typeof fetch,
    stdout: () => logged,
    commitPending: () => void app.writes.flush(),
    async stop() {
      clearInterval(usageFlush);
      app.quota.flush();
      await app.writes.flush();
      await pool?.close();
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
