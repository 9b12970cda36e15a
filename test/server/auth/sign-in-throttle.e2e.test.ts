// Failed sign-ins are limited the same way on every path a member signs in by (POST /v1/login and the OAuth sign-in
// page): 10 a minute per client address and 10 a minute per account, after which even the right password waits.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, type Bootstrapped, bootstrap, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

let server: ServerUnderTest;
let org: Bootstrapped;

beforeAll(async () => {
  // Behind a trusted proxy the client address is X-Forwarded-For's first entry: one test server stands for many clients.
  server = await startInProcess({ SEED_DEMO: '0', TRUST_PROXY: '1' });
  org = bootstrap(server);
});
afterAll(async () => {
  await server?.stop();
});

interface Envelope {
  data?: { token: string };
  errors?: { message: string; extensions: { code: string } }[];
}

async function login(from: string, email: string, password: string): Promise<{ status: number; body: Envelope }> {
  const res = await server.fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': from },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
}

/** A fresh account, so that each test starts with its own per-account count. */
function member(): { email: string; password: string } {
  const account = { email: `walker-${Math.random().toString(36).slice(2)}@example.org`, password: 'correct horse battery' };
  const { user } = admin<{ user: { id: string } }>(server, 'create-user', '--email', account.email, '--password', account.password);
  admin(server, 'add-member', '--org', org.organization.id, '--user', user.id, '--role', 'contributor');
  return account;
}

describe('POST /v1/login', () => {
  it('12 wrong passwords from one address: 10 answer 401, then 429, and the right password too waits', async () => {
    const account = member();
    await insideOneMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login('203.0.113.7', account.email, `guess-${i}`)).status);
    expect(statuses, String(statuses)).toEqual([...Array(10).fill(401), 429, 429]);
    const right = await login('203.0.113.7', account.email, account.password);
    expect(right.status).toBe(429);
    expect(right.body.errors?.[0]?.extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(right.body.errors?.[0]?.message).toBe('Too many failed sign-ins from this address: wait until the next minute and try again.');
    expect(right.body.data).toBeUndefined();
  }, 30_000);

  it('guesses spread over many addresses are limited per account, without locking out other accounts', async () => {
    const target = member();
    const other = member();
    await insideOneMinute();
    for (let i = 0; i < 10; i++) expect((await login(`198.51.100.${i + 1}`, target.email, `guess-${i}`)).status).toBe(401);
    // A fresh address, the right password, a re-cased email: the account's limit is spent all the same.
    const right = await login('198.51.100.200', target.email.toUpperCase(), target.password);
    expect(right.status).toBe(429);
    expect(right.body.errors?.[0]?.message).toBe('Too many failed sign-ins for this account: wait until the next minute and try again.');
    const bystander = await login('198.51.100.201', other.email, other.password);
    expect(bystander.status).toBe(200);
    expect(bystander.body.data?.token).toMatch(/^usr_/);
  }, 30_000);

  it('a right password under the limit signs in, and the refusal is localized', async () => {
    const account = member();
    await insideOneMinute();
    for (let i = 0; i < 3; i++) expect((await login('192.0.2.50', account.email, 'nope')).status).toBe(401);
    expect((await login('192.0.2.50', account.email, account.password)).status).toBe(200);
    for (let i = 0; i < 10; i++) await login('192.0.2.51', `nobody-${i}@example.org`, 'nope');
    const res = await server.fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '192.0.2.51', 'Accept-Language': 'fr' },
      body: JSON.stringify(account),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    const body = (await res.json()) as Envelope;
    expect(body.errors?.[0]?.message).toMatch(/^Trop de connexions échouées depuis cette adresse/);
  }, 30_000);
});

describe('one limit for every sign-in path', () => {
  const REDIRECT = 'http://localhost:53682/callback';

  async function oauthTicket(): Promise<string> {
    const registered = await server.fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Trail assistant', redirect_uris: [REDIRECT] }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const url = new URL(`${server.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const page = await (await server.fetch(url)).text();
    return /name="ticket" value="([^"]+)"/.exec(page)?.[1] as string;
  }

  const signInPage = (from: string, ticket: string, email: string, password: string) =>
    server.fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': from },
      body: new URLSearchParams({ stage: 'sign_in', ticket, email, password }).toString(),
      redirect: 'manual',
    });

  it('failures on POST /v1/login make the OAuth sign-in page wait, and the other way round', async () => {
    const account = member();
    const ticket = await oauthTicket();
    await insideOneMinute();
    for (let i = 0; i < 10; i++) expect((await login('203.0.113.90', account.email, 'nope')).status).toBe(401);
    const page = await signInPage('203.0.113.90', ticket, account.email, account.password);
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('Too many failed sign-ins from this address');

    const second = member();
    for (let i = 0; i < 10; i++) expect((await signInPage(`203.0.113.${100 + i}`, ticket, second.email, 'nope')).status).toBe(401);
    const api = await login('203.0.113.150', second.email, second.password);
    expect(api.status).toBe(429);
    expect(api.body.errors?.[0]?.message).toMatch(/for this account/);
  }, 40_000);
});
