// Organization-level access rules over real HTTP: products and payment method, status, the session
// requirement of the embed, allowed origins, per-organization quotas, and admin changes seen at once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

let server: ServerUnderTest;

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' }, { routing: true });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function status(path: string, init: RequestInit = {}): Promise<[number, string | undefined]> {
  const res = await server.fetch(server.url + path, init);
  const text = await res.text();
  const code = text.startsWith('{"errors"') ? (JSON.parse(text).errors[0].extensions.code as string) : undefined;
  return [res.status, code];
}

async function session(org: Bootstrapped, pk = org.publishableKey.key): Promise<string> {
  const res = await server.fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': org.secretKey.key },
    body: JSON.stringify({ publishable_key: pk }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

const graphql = (pk: string, sess: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-API-Key': pk, 'X-Session-Token': sess },
  body: '{"query":"{__typename}"}',
});

const studioWrite = (org: Bootstrapped) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id },
  body: JSON.stringify({ name: 'Trails', privacy: 'public' }),
});

describe('products and payment method', () => {
  it('without the studio product, Studio calls answer 402 PAYMENT_REQUIRED; with it they pass', async () => {
    const org = bootstrap(server);
    const read = `/v1/collections/${org.collection.id}`;
    const headers = { 'X-API-Key': org.publishableKey.key };
    admin(server, 'set', '--org', org.organization.id, 'products=data');
    expect(await status(read, { headers })).toEqual([402, 'PAYMENT_REQUIRED']);
    admin(server, 'set', '--org', org.organization.id, 'products=studio,data');
    expect(await status(read, { headers })).toEqual([200, undefined]);
  });

  it('with the product but no card, Studio writes answer 402 CARD_REQUIRED while reads pass', async () => {
    const org = bootstrap(server);
    admin(server, 'set', '--org', org.organization.id, 'card=false');
    expect(await status('/v1/collections', studioWrite(org))).toEqual([402, 'CARD_REQUIRED']);
    expect(await status(`/v1/collections/${org.collection.id}`, { headers: { 'X-API-Key': org.publishableKey.key } })).toEqual([
      200,
      undefined,
    ]);
    admin(server, 'set', '--org', org.organization.id, 'card=true');
    expect(await status('/v1/collections', studioWrite(org))).toEqual([201, undefined]);
  });

  it('without the data product, the Data API answers 402 PAYMENT_REQUIRED, card or not', async () => {
    const org = bootstrap(server);
    const sess = await session(org);
    admin(server, 'set', '--org', org.organization.id, 'products=studio');
    expect(await status('/graphql', graphql(org.publishableKey.key, sess))).toEqual([402, 'PAYMENT_REQUIRED']);
  });
});

describe('organization status', () => {
  it('an inactive organization is refused with 403 at once, and accepted again when reactivated', async () => {
    const org = bootstrap(server);
    const read = `/v1/collections/${org.collection.id}`;
    const headers = { 'X-API-Key': org.publishableKey.key };
    admin(server, 'set', '--org', org.organization.id, 'status=inactive');
    expect(await status(read, { headers })).toEqual([403, 'FORBIDDEN']);
    admin(server, 'set', '--org', org.organization.id, 'status=active');
    expect(await status(read, { headers })).toEqual([200, undefined]);
  });
});

describe('the embed session requirement', () => {
  it('follows require_session_token, changed by the admin command while the server runs', async () => {
    const org = bootstrap(server);
    admin(server, 'set', '--org', org.organization.id, 'products=studio,data'); // no intelligence
    const embed = `/studio/embed?publishable_key=${org.publishableKey.key}&collection_id=${org.collection.id}`;
    expect(await status(embed)).toEqual([200, undefined]);
    admin(server, 'set', '--org', org.organization.id, 'require_session_token=true');
    expect(await status(embed)).toEqual([401, 'UNAUTHORIZED']);
    expect(await status(`${embed}&session_token=${await session(org)}`)).toEqual([200, undefined]);
  });

  it('intelligence organizations always need a session for the embed', async () => {
    const org = bootstrap(server);
    const embed = `/studio/embed?publishable_key=${org.publishableKey.key}&collection_id=${org.collection.id}`;
    expect(await status(embed)).toEqual([401, 'UNAUTHORIZED']);
  });
});

describe('allowed origins', () => {
  let org: Bootstrapped;
  let pk: string;
  beforeAll(() => {
    org = bootstrap(server);
    const key = admin(
      server,
      'create-key',
      '--org',
      org.organization.id,
      '--type',
      'pk',
      '--name',
      'web',
      '--scopes',
      'tiles',
      '--origins',
      'https://*.example.com,http://localhost:*',
    );
    pk = key.api_key.key;
  });
  const tiles = (headers: Record<string, string>) => status('/v1/tiles/trails.json', { headers: { 'X-API-Key': pk, ...headers } });

  it('a subdomain of a wildcard origin is allowed, the bare domain and other sites are not', async () => {
    expect(await tiles({ Origin: 'https://maps.example.com' })).toEqual([200, undefined]);
    expect(await tiles({ Origin: 'https://a.b.example.com' })).toEqual([200, undefined]);
    expect(await tiles({ Origin: 'https://example.com' })).toEqual([403, 'FORBIDDEN']);
    expect(await tiles({ Origin: 'https://evil-example.com' })).toEqual([403, 'FORBIDDEN']);
    expect(await tiles({ Origin: 'http://maps.example.com' })).toEqual([403, 'FORBIDDEN']);
  });

  it('a port wildcard allows any port of that host only', async () => {
    expect(await tiles({ Origin: 'http://localhost:5173' })).toEqual([200, undefined]);
    expect(await tiles({ Origin: 'http://localhost.evil.com:5173' })).toEqual([403, 'FORBIDDEN']);
  });

  it('requests without Origin are checked on the Referer, navigations or not (docs/authentication.md)', async () => {
    const navigation = { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe', Accept: 'text/html' };
    const image = { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' };
    for (const kind of [navigation, image, {}]) {
      expect(await tiles({ ...kind, Referer: 'https://www.example.com/trip/1' })).toEqual([200, undefined]);
      expect(await tiles({ ...kind, Referer: 'https://phish.test/page' })).toEqual([403, 'FORBIDDEN']);
    }
  });

  it('server-side calls with neither header are not origin-checked', async () => {
    expect(await tiles({})).toEqual([200, undefined]);
  });

  it('a key without origins follows the organization default origins, set through management', async () => {
    const res = await server.fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: org.owner.email, password: org.owner.password }),
    });
    const token = ((await res.json()) as { data: { token: string } }).data.token;
    const patch = await server.fetch(`${server.url}/v1/management/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ default_allowed_origins: ['https://trails.test'] }),
    });
    expect(patch.status).toBe(200);
    const open = org.publishableKey.key;
    expect(await status('/v1/tiles/trails.json', { headers: { 'X-API-Key': open, Origin: 'https://trails.test' } })).toEqual([
      200,
      undefined,
    ]);
    expect(await status('/v1/tiles/trails.json', { headers: { 'X-API-Key': open, Origin: 'https://other.test' } })).toEqual([
      403,
      'FORBIDDEN',
    ]);
  });
});

describe('quotas', () => {
  it('the Data API quota is per organization across all its keys; past it 429 without Retry-After', async () => {
    const org = bootstrap(server);
    const other = bootstrap(server);
    admin(server, 'set', '--org', org.organization.id, 'quota.data=3');
    const second = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'second', '--scopes', 'data');
    const s1 = await session(org);
    const s2 = await session(org, second.api_key.key);
    await insideOneMinute();
    const results: number[] = [];
    for (let i = 0; i < 3; i++) results.push((await status('/graphql', graphql(org.publishableKey.key, s1)))[0]);
    expect(results).toEqual([200, 200, 200]);
    const res = await server.fetch(`${server.url}/graphql`, graphql(second.api_key.key, s2));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(((await res.json()) as any).errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    // Another organization keeps its own quota.
    expect(await status('/graphql', graphql(other.publishableKey.key, await session(other)))).toEqual([200, undefined]);
  });

  it('the Tile API quota is separate from the Data API quota', async () => {
    const org = bootstrap(server);
    admin(server, 'set', '--org', org.organization.id, 'quota.tiles=2', 'quota.data=100');
    const headers = { 'X-API-Key': org.publishableKey.key };
    await insideOneMinute();
    const tiles = [];
    for (let i = 0; i < 3; i++) tiles.push((await status('/v1/tiles/trails.json', { headers }))[0]);
    expect(tiles).toEqual([200, 200, 429]);
    expect(await status('/graphql', graphql(org.publishableKey.key, await session(org)))).toEqual([200, undefined]);
  });

  it('the Studio API has no quota', async () => {
    const org = bootstrap(server);
    admin(server, 'set', '--org', org.organization.id, 'quota.data=0', 'quota.tiles=0');
    const headers = { 'X-API-Key': org.publishableKey.key };
    for (let i = 0; i < 5; i++) {
      expect(await status(`/v1/collections/${org.collection.id}`, { headers })).toEqual([200, undefined]);
    }
  });
});
