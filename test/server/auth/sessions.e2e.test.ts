// POST /v1/sessions over real HTTP: minting, every refusal of the spec, both counters, revocation.
// The server trusts X-Forwarded-For here so that each test counts against its own client address.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, login, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';
import { tamperings } from '../../helpers/token-tampering.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

let server: ServerUnderTest;
let A: Bootstrapped;
let B: Bootstrapped;
let ipCounter = 0;

beforeAll(async () => {
  server = await startInProcess({ TRUST_PROXY: '1', SEED_DEMO: '0' });
  A = bootstrap(server);
  B = bootstrap(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** A client address of its own for one test. */
function freshIp(): string {
  ipCounter++;
  return `10.9.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

async function mint(sk: string | undefined, body: unknown, ip: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Forwarded-For': ip };
  if (sk !== undefined) headers['X-API-Key'] = sk;
  const res = await server.fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  return { res, json, code: json.errors?.[0]?.extensions?.code as string | undefined };
}

async function data(pk: string, session: string): Promise<number> {
  const res = await server.fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': pk, 'X-Session-Token': session },
    body: '{"query":"{__typename}"}',
  });
  await res.arrayBuffer();
  return res.status;
}

describe('minting', () => {
  it('answers 201 with status, a sess_ token and an ISO expiry five minutes out', async () => {
    const before = Date.now();
    const { res, json } = await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, freshIp());
    expect(res.status).toBe(201);
    expect(json.status).toBe(201);
    expect(json.data.token).toMatch(/^sess_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(json.data.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const ttl = Date.parse(json.data.expires_at) - before;
    expect(ttl).toBeGreaterThan(295_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
    expect(await data(A.publishableKey.key, json.data.token)).toBe(200);
  });

  it('every call mints a new token, even several in the same second, and each works', async () => {
    const ip = freshIp();
    const body = { publishable_key: A.publishableKey.key };
    const tokens = (await Promise.all([1, 2, 3].map(() => mint(A.secretKey.key, body, ip)))).map((m) => m.json.data.token);
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) expect(await data(A.publishableKey.key, token)).toBe(200);
  });

  it('a session token works only with the publishable key it was minted for', async () => {
    const other = admin(server, 'create-key', '--org', A.organization.id, '--type', 'pk', '--name', 'second', '--scopes', 'data');
    const { json } = await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, freshIp());
    expect(await data(other.api_key.key, json.data.token)).toBe(401);
  });
});

describe('tampered tokens', () => {
  it('a session token in any non-canonical encoding answers 401; the token as minted answers', async () => {
    const { json } = await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, freshIp());
    expect(await data(A.publishableKey.key, json.data.token)).toBe(200);
    for (const [name, tampered] of Object.entries(tamperings(json.data.token))) {
      if (name === 'space appended') continue; // HTTP strips trailing whitespace from header values
      expect(await data(A.publishableKey.key, tampered), name).toBe(401);
    }
  });

  it('a user token in any non-canonical encoding answers 401; the token as issued answers 200', async () => {
    const token = await login(server, A.owner.email, A.owner.password);
    const read = async (t: string) => {
      const res = await server.fetch(`${server.url}/v1/management/organization`, { headers: { Authorization: `Bearer ${t}` } });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await read(token)).toBe(200);
    for (const [name, tampered] of Object.entries(tamperings(token))) {
      if (name === 'space appended') continue; // HTTP strips trailing whitespace from header values
      expect(await read(tampered), name).toBe(401);
    }
  });
});

describe('refusals', () => {
  it('a missing secret key answers 401', async () => {
    expect((await mint(undefined, { publishable_key: A.publishableKey.key }, freshIp())).res.status).toBe(401);
  });

  it('an unknown secret key answers 404 saying which key matched nothing', async () => {
    const r = await mint('sk_00000000000000000000000000000000', { publishable_key: A.publishableKey.key }, freshIp());
    expect([r.res.status, r.code]).toEqual([404, 'NOT_FOUND']);
    expect(r.json.errors[0].message).toMatch(/^No live secret key matches X-API-Key/);
  });

  it('a publishable key presented as the secret answers 404 saying a secret key goes there', async () => {
    const r = await mint(A.publishableKey.key, { publishable_key: A.publishableKey.key }, freshIp());
    expect([r.res.status, r.code]).toEqual([404, 'NOT_FOUND']);
    expect(r.json.errors[0].message).toBe(
      'POST /v1/sessions is authorized by a secret key: send your sk_… key in X-API-Key, and the publishable key in the body as publishable_key.',
    );
  });

  it('an unknown publishable key in the body answers 404 naming the body field', async () => {
    const r = await mint(A.secretKey.key, { publishable_key: 'pk_000000000000000000000000' }, freshIp());
    expect([r.res.status, r.code]).toEqual([404, 'NOT_FOUND']);
    expect(r.json.errors[0].message).toMatch(/^No live publishable key matches publishable_key in the body/);
  });

  it('keys of two organizations answer 403 saying so', async () => {
    const r = await mint(A.secretKey.key, { publishable_key: B.publishableKey.key }, freshIp());
    expect([r.res.status, r.code]).toEqual([403, 'FORBIDDEN']);
    expect(r.json.errors[0].message).toMatch(/^The secret key and the publishable key belong to different organizations/);
  });

  it('a body without publishable_key answers 400 with its path; broken JSON answers 400 BAD_REQUEST', async () => {
    const missing = await mint(A.secretKey.key, {}, freshIp());
    expect(missing.res.status).toBe(400);
    expect(missing.json.errors[0].path).toEqual(['request', 'body', 'publishable_key']);
    expect(missing.code).toBe('VALIDATION_FAILED');
    const broken = await mint(A.secretKey.key, '{"publishable_key":', freshIp());
    expect([broken.res.status, broken.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('an inactive organization answers 403, and minting works again once it is active', async () => {
    const C = bootstrap(server);
    admin(server, 'set', '--org', C.organization.id, 'status=inactive');
    const r = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect([r.res.status, r.code]).toEqual([403, 'FORBIDDEN']);
    admin(server, 'set', '--org', C.organization.id, 'status=active');
    expect((await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp())).res.status).toBe(201);
  });
});

describe('revocation', () => {
  it('revoking the secret key refuses minting (404) and kills the tokens it minted on the next request', async () => {
    const C = bootstrap(server);
    const { json } = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect(await data(C.publishableKey.key, json.data.token)).toBe(200);
    admin(server, 'revoke-key', '--id', C.secretKey.id);
    expect(await data(C.publishableKey.key, json.data.token)).toBe(401);
    const again = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect([again.res.status, again.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('revoking the publishable key refuses it and its tokens on the very next request', async () => {
    const C = bootstrap(server);
    const { json } = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect(await data(C.publishableKey.key, json.data.token)).toBe(200);
    admin(server, 'revoke-key', '--id', C.publishableKey.id);
    expect(await data(C.publishableKey.key, json.data.token)).toBe(401);
    const again = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect(again.res.status).toBe(404);
  });
});

describe('counters', () => {
  it('60 requests per minute per client IP whatever their outcome, then 429 without Retry-After', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    await insideOneMinute();
    for (let i = 0; i < 60; i++) {
      // Alternate good and bad requests: every one is charged. Each bad one presents its own unknown key,
      // so the per-key failure counter stays out of the way.
      const sk = i % 2 === 0 ? A.secretKey.key : `sk_${String(i).padStart(32, '0')}`;
      statuses.push((await mint(sk, { publishable_key: A.publishableKey.key }, ip)).res.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    const over = await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, ip);
    expect([over.res.status, over.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(over.res.headers.get('retry-after')).toBeNull();
    // Another client is unaffected.
    expect((await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, freshIp())).res.status).toBe(201);
  });

  it('10 failed validations per minute per secret key, then 429 for that key even when valid', async () => {
    const C = bootstrap(server);
    await insideOneMinute();
    for (let i = 0; i < 10; i++) {
      const r = await mint(C.secretKey.key, { publishable_key: 'pk_000000000000000000000000' }, freshIp());
      expect(r.res.status).toBe(404);
    }
    const valid = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect([valid.res.status, valid.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(valid.res.headers.get('retry-after')).toBeNull();
    // Only 404/403 are charged: another key with successes and 400s keeps working.
    for (let i = 0; i < 12; i++) {
      expect((await mint(A.secretKey.key, {}, freshIp())).res.status).toBe(400);
    }
    expect((await mint(A.secretKey.key, { publishable_key: A.publishableKey.key }, freshIp())).res.status).toBe(201);
  });

  it('session creation does not consume the Data API quota', async () => {
    const C = bootstrap(server);
    admin(server, 'set', '--org', C.organization.id, 'quota.data=1');
    await insideOneMinute();
    for (let i = 0; i < 3; i++) await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    const { json } = await mint(C.secretKey.key, { publishable_key: C.publishableKey.key }, freshIp());
    expect(await data(C.publishableKey.key, json.data.token)).toBe(200);
  });
});
