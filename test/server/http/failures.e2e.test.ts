// Server-side failures over real HTTP: generic 5xx bodies, the request time budget, logs without
// credentials, graceful shutdown, and refusing to start (without the native uWebSockets.js binary, with
// a malformed setting, on a port already in use).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLines, MAIN_JS, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';
import { FRONT_DOORS } from './front-doors.js';

const BUDGET_MS = 400;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ REQUEST_BUDGET_MS: String(BUDGET_MS) }, { diagnostics: true });
});
afterAll(async () => {
  await server?.stop();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers });
  const body = (await res.json()) as { errors: { message: string; path?: unknown; extensions: Record<string, unknown> }[] };
  return { res, body };
}

describe('5xx answers', () => {
  it('an unexpected failure answers 500 with one generic entry, no path, no metadata, no detail', async () => {
    const { res, body } = await get('/_diagnostics/crash');
    expect(res.status).toBe(500);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]?.extensions).toEqual({ code: 'INTERNAL_ERROR' });
    expect(body.errors[0]?.path).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('diagnostic crash');
  });

  it('the 500 is localized and logged with its request id and the stack, the secret in it masked', async () => {
    const { res, body } = await get('/_diagnostics/crash', { 'Accept-Language': 'de' });
    expect(body.errors[0]?.message).toBe('Bei uns ist etwas schiefgelaufen.');
    const requestId = res.headers.get('x-request-id') as string;
    await server.waitForOutput(`"requestId":"${requestId}","op":"diagCrash"`);
    const logged = logLines(server.stdout()).find((l) => l.level === 'error' && l.requestId === requestId);
    expect(String(logged?.error)).toContain('diagnostic crash');
    expect(server.stdout()).not.toContain('sk_ShouldNeverLeakIntoResponses');
  });
});

describe('the request time budget', () => {
  it('a request still running when the budget is spent answers 504 GATEWAY_TIMEOUT', async () => {
    const started = Date.now();
    const { res, body } = await get('/_diagnostics/slow?ms=3000');
    expect(res.status).toBe(504);
    expect(body.errors[0]?.extensions.code).toBe('GATEWAY_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('a request that finishes within the budget is answered normally', async () => {
    const { res } = await get('/_diagnostics/slow?ms=10');
    expect(res.status).toBe(200);
  });

  it('a 4xx reached after the budget is spent stays a 4xx', async () => {
    const { res, body } = await get(`/_diagnostics/block-then-not-found?ms=${BUDGET_MS + 300}`);
    expect(res.status).toBe(404);
    expect(body.errors[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('a 5xx reached after the budget is spent becomes 504', async () => {
    const { res, body } = await get(`/_diagnostics/block-then-crash?ms=${BUDGET_MS + 300}`);
    expect(res.status).toBe(504);
    expect(body.errors[0]?.extensions.code).toBe('GATEWAY_TIMEOUT');
  });

  it('a 5xx within the budget keeps its own status', async () => {
    const { res, body } = await get('/_diagnostics/unavailable');
    expect(res.status).toBe(503);
    expect(body.errors[0]?.extensions.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('request logs', () => {
  it('one JSON line per request with method, route pattern, status, duration and request id', async () => {
    const res = await fetch(`${server.url}/v1/itineraries/0b0e8e43-1111-4222-8333-444455556666/locks`);
    const requestId = res.headers.get('x-request-id') as string;
    await server.waitForOutput(requestId);
    const line = logLines(server.stdout()).find((l) => l.requestId === requestId && l.msg === 'request');
    expect(line).toMatchObject({
      method: 'GET',
      route: '/v1/itineraries/{itinerary_id}/locks',
      status: res.status,
      requestId,
    });
    expect(typeof line?.ms).toBe('number');
  });

  it('never contains a credential, from headers or the query string', async () => {
    const secrets = {
      pk: 'pk_AbCdEfGhIjKlMnOpQrStUvWx',
      sk: 'sk_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      sess: 'sess_eyJraWQiOiJ4In0.c2lnbmF0dXJl',
      share: 'share_0123456789abcdef0123456789abcdef',
      usr: 'usr_eyJ1IjoieCJ9.c2ln',
    };
    const res = await fetch(
      `${server.url}/v1/collections/0b0e8e43-1111-4222-8333-444455556666?publishable_key=${secrets.pk}&session_token=${secrets.sess}&share_token=${secrets.share}`,
      {
        headers: {
          'X-API-Key': secrets.sk,
          'X-Session-Token': secrets.sess,
          'X-Share-Token': secrets.share,
          Authorization: `Bearer ${secrets.usr}`,
        },
      },
    );
    await res.arrayBuffer();
    await server.waitForOutput(res.headers.get('x-request-id') as string);
    const logs = server
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .join('\n');
    for (const value of Object.values(secrets)) expect(logs).not.toContain(value);
    expect(logs).not.toContain('publishable_key=');
  });
});

describe.each(FRONT_DOORS)('graceful shutdown through $name', ({ env }) => {
  it('SIGTERM lets an in-flight request finish, then the process exits 0', async () => {
    const own = await startServer(env, { diagnostics: true });
    const inFlight = fetch(`${own.url}/_diagnostics/slow?ms=600`);
    await new Promise((r) => setTimeout(r, 150));
    own.proc.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ slept: 600 });
    expect(await own.stop()).toBe(0);
    expect(own.stdout()).toContain('"msg":"stopped"');
    await expect(fetch(`${own.url}/healthz`)).rejects.toThrow();
  });
});

describe.each(FRONT_DOORS)('a port already in use, through $name', ({ env }) => {
  it('a second server on the same port exits with one line naming the port, and the first keeps answering', async () => {
    const first = await startServer(env);
    try {
      for (const second of FRONT_DOORS) {
        const dataDir = mkdtempSync(join(tmpdir(), 'cairn-second-'));
        const run = spawnSync(process.execPath, [MAIN_JS], {
          cwd: REPO_ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            ...second.env,
            HOST: '127.0.0.1',
            PORT: String(first.port),
            DATABASE_PATH: join(dataDir, 'platform.db'),
            SEED_DEMO: '0',
          },
          encoding: 'utf8',
          timeout: 20_000,
        });
        rmSync(dataDir, { recursive: true, force: true });
        expect(run.status, second.name).toBe(1);
        expect(run.stderr, second.name).toBe(`cairn: port ${first.port} is in use\n`);
      }
      for (let i = 0; i < 10; i++) expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
  });
});

describe('start-up', () => {
  it('refuses to start on the JavaScript fallback of uWebSockets.js, saying why', () => {
    const run = spawnSync(process.execPath, [MAIN_JS], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', UWS_USE_FALLBACK: '1', PORT: '0', DATABASE_PATH: ':memory:' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('uWebSockets.js');
  });

  it('refuses a malformed setting with the variable named', () => {
    const run = spawnSync(process.execPath, [MAIN_JS], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', REQUEST_BUDGET_MS: 'soon', DATABASE_PATH: ':memory:' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('REQUEST_BUDGET_MS');
  });
});
