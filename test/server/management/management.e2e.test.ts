import { join } from 'node:path';
import Database from 'better-sqlite3';
// The management surface over real HTTP: who may call it, keys, members, settings, billing, usage,
// plan limits, and that a refused write changes nothing.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type ServerUnderTest, login as loginAs } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';

let server: ServerUnderTest;
let org: Bootstrapped;
let owner: string; // user token

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' }, { routing: true });
  org = bootstrap(server);
  owner = await login(org.owner.email, org.owner.password);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const login = (email: string, password: string) => loginAs(server, email, password);

async function call(token: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await server.fetch(`${server.url}/v1/management${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  return { status: res.status, json, code: json?.errors?.[0]?.extensions?.code as string | undefined };
}

async function member(role: string, into = org): Promise<{ id: string; token: string; email: string }> {
  const email = `${role}-${Math.random().toString(36).slice(2)}@m.test`;
  const user = admin(server, 'create-user', '--email', email, '--password', 'member-password-1');
  admin(server, 'add-member', '--org', into.organization.id, '--user', user.user.id, '--role', role);
  return { id: user.user.id, token: await login(email, 'member-password-1'), email };
}

describe('who may manage', () => {
  it('an owner and an admin may; a contributor and a viewer get 403', async () => {
    const adm = await member('admin');
    const contributor = await member('contributor');
    const viewer = await member('viewer');
    expect((await call(owner, 'GET', '/organization')).status).toBe(200);
    expect((await call(adm.token, 'GET', '/organization')).status).toBe(200);
    expect((await call(contributor.token, 'GET', '/keys')).code).toBe('FORBIDDEN');
    expect((await call(viewer.token, 'GET', '/members')).code).toBe('FORBIDDEN');
  });

  it('AI settings: defaults, a partial update, the API key sealed and never answered, refusals with their field', async () => {
    const contributor = await member('contributor');
    expect((await call(contributor.token, 'GET', '/ai')).code).toBe('FORBIDDEN');
    const fresh = await call(owner, 'GET', '/ai');
    expect(fresh.status).toBe(200);
    expect(fresh.json.data).toMatchObject({ endpoint: null, model: null, api_key_set: false, api_key_hint: null, updated_at: null });
    expect(fresh.json.data.enabled_tools).toContain('plan_route');
    const key = 'sk-live-model-key-0123456789-wxyz';
    const patched = await call(owner, 'PATCH', '/ai', {
      endpoint: 'https://models.example/v1/chat/completions',
      model: 'trail-guide-1',
      api_key: key,
      enabled_tools: ['plan_route', 'search_places'],
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toMatchObject({
      endpoint: 'https://models.example/v1/chat/completions',
      model: 'trail-guide-1',
      api_key_set: true,
      api_key_hint: 'wxyz',
      enabled_tools: ['plan_route', 'search_places'],
    });
    expect(JSON.stringify(patched.json)).not.toContain(key);
    expect(JSON.stringify((await call(owner, 'GET', '/ai')).json)).not.toContain(key);
    // Stored sealed: the database holds no plaintext key.
    const db = new Database(join(server.dataDir, 'platform.db'), { readonly: true });
    const stored = (db.prepare('SELECT ai_settings FROM organizations WHERE id = ?').get(org.organization.id) as { ai_settings: string })
      .ai_settings;
    db.close();
    expect(stored).not.toContain(key);
    expect(JSON.parse(stored).apiKeySealed).toMatch(/^v1\./);
    // A partial update keeps the rest; null clears.
    const cleared = await call(owner, 'PATCH', '/ai', { model: null, api_key: null });
    expect(cleared.json.data).toMatchObject({
      endpoint: 'https://models.example/v1/chat/completions',
      model: null,
      api_key_set: false,
      api_key_hint: null,
    });
    // Refusals name their field and change nothing.
    for (const [body, path] of [
      [{ endpoint: 'ftp://models.example' }, 'endpoint'],
      [{ endpoint: 'not a url' }, 'endpoint'],
      [{ model: 'two\nlines' }, 'model'],
      [{ enabled_tools: ['rm_rf'] }, 'enabled_tools'],
      [{ api_key: '' }, 'api_key'],
      [{ temperature: 2 }, 'temperature'],
    ] as const) {
      const refused = await call(owner, 'PATCH', '/ai', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.errors[0].path.slice(0, 3)).toEqual(['request', 'body', path]);
    }
    expect((await call(owner, 'GET', '/ai')).json.data).toMatchObject({
      endpoint: 'https://models.example/v1/chat/completions',
      model: null,
    });
    expect((await call(owner, 'DELETE', '/ai')).status).toBe(405);
  });

  it('a publishable key needs the management scope and a session token', async () => {
    const key = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'ops', '--scopes', 'management');
    const bare = await server.fetch(`${server.url}/v1/management/organization`, { headers: { 'X-API-Key': key.api_key.key } });
    expect(bare.status).toBe(401);
    const mint = await server.fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': org.secretKey.key },
      body: JSON.stringify({ publishable_key: key.api_key.key }),
    });
    const session = ((await mint.json()) as { data: { token: string } }).data.token;
    const ok = await server.fetch(`${server.url}/v1/management/organization`, {
      headers: { 'X-API-Key': key.api_key.key, 'X-Session-Token': session },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).data.id).toBe(org.organization.id);
  });

  it('a user of several organizations names one with organization_id', async () => {
    const home = bootstrap(server);
    const token = await login(home.owner.email, home.owner.password);
    const other = bootstrap(server);
    admin(server, 'add-member', '--org', other.organization.id, '--user', home.owner.id, '--role', 'admin');
    const ambiguous = await call(token, 'GET', '/organization');
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.errors[0].path).toEqual(['request', 'query', 'organization_id']);
    const chosen = await call(token, 'GET', `/organization?organization_id=${other.organization.id}`);
    expect(chosen.json.data.id).toBe(other.organization.id);
    const stranger = bootstrap(server);
    expect((await call(token, 'GET', `/organization?organization_id=${stranger.organization.id}`)).status).toBe(404);
    admin(server, 'add-member', '--org', other.organization.id, '--user', home.owner.id, '--role', 'viewer');
    expect((await call(token, 'GET', `/organization?organization_id=${other.organization.id}`)).status).toBe(403);
  });
});

describe('organization and settings', () => {
  let solo: Bootstrapped;
  let token: string;
  beforeAll(async () => {
    solo = bootstrap(server);
    token = await login(solo.owner.email, solo.owner.password);
  });

  it('the organization read shows settings, limits (null = unlimited), products and the card', async () => {
    const { json } = await call(token, 'GET', '/organization');
    expect(json.data).toMatchObject({
      id: solo.organization.id,
      status: 'active',
      settings: { require_session_token: false, quota_data: 60, quota_tiles: 600 },
      products: ['studio', 'data', 'intelligence'],
      payment_method_on_file: true,
      limits: { keys: null, members: null },
    });
  });

  it('settings change with PATCH; omitted fields keep their value', async () => {
    const res = await call(token, 'PATCH', '/settings', { quota_data: 120, require_session_token: true });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ quota_data: 120, require_session_token: true, quota_tiles: 600 });
  });

  it('a bad settings body answers 400 per field and changes nothing', async () => {
    const res = await call(token, 'PATCH', '/settings', { quota_data: -1, quota_tiles: 'many', colour: 'red', quota_x: 1 });
    expect(res.status).toBe(400);
    const paths = res.json.errors.map((e: any) => e.path.join('.')).sort();
    expect(paths).toEqual(['request.body.colour', 'request.body.quota_data', 'request.body.quota_tiles', 'request.body.quota_x']);
    const after = await call(token, 'GET', '/organization');
    expect(after.json.data.settings).toMatchObject({ quota_data: 120, quota_tiles: 600 });
  });

  it('billing shows and changes the payment method on file', async () => {
    expect((await call(token, 'GET', '/billing')).json.data).toMatchObject({ payment_method_on_file: true });
    const off = await call(token, 'PATCH', '/billing', { payment_method_on_file: false });
    expect(off.json.data.payment_method_on_file).toBe(false);
    const write = await server.fetch(`${server.url}/v1/collections`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': solo.publishableKey.key, 'X-User-Id': solo.owner.id },
      body: JSON.stringify({ name: 'x', privacy: 'public' }),
    });
    expect(write.status).toBe(402);
  });
});

describe('keys', () => {
  it('creates a publishable key with scopes and origins, usable at once', async () => {
    const res = await call(owner, 'POST', '/keys', {
      type: 'pk',
      name: 'Web app',
      scopes: ['tiles'],
      allowed_origins: ['https://*.trails.test'],
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ type: 'pk', name: 'Web app', scopes: ['tiles'], allowed_origins: ['https://*.trails.test'] });
    expect(res.json.data.key).toMatch(/^pk_[0-9A-Za-z]{24}$/);
    const tiles = await server.fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': res.json.data.key } });
    expect(tiles.status).toBe(200);
  });

  it('shows a secret key once: the listing never contains it', async () => {
    const created = await call(owner, 'POST', '/keys', { type: 'sk', name: 'Backend' });
    expect(created.json.data.key).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    const list = await call(owner, 'GET', '/keys');
    const listed = list.json.data.find((k: any) => k.id === created.json.data.id);
    expect(listed).toMatchObject({ type: 'sk', name: 'Backend', hint: created.json.data.key.slice(-4) });
    expect(listed.key).toBeUndefined();
    expect(JSON.stringify(list.json)).not.toContain(created.json.data.key);
  });

  it('renaming and changing scopes take effect on the next request', async () => {
    const created = await call(owner, 'POST', '/keys', { type: 'pk', name: 'Tiles', scopes: ['tiles'] });
    const pk = created.json.data.key as string;
    const patched = await call(owner, 'PATCH', `/keys/${created.json.data.id}`, { name: 'Studio only', scopes: ['resources'] });
    expect(patched.json.data).toMatchObject({ name: 'Studio only', scopes: ['resources'] });
    const tiles = await server.fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': pk } });
    expect(tiles.status).toBe(403);
  });

  it('revoking answers 204 and the key is refused on the very next request', async () => {
    const created = await call(owner, 'POST', '/keys', { type: 'pk', name: 'Short-lived', scopes: ['tiles'] });
    const pk = created.json.data.key as string;
    expect((await server.fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': pk } })).status).toBe(200);
    expect((await call(owner, 'DELETE', `/keys/${created.json.data.id}`)).status).toBe(204);
    expect((await server.fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': pk } })).status).toBe(401);
    expect((await call(owner, 'DELETE', `/keys/${created.json.data.id}`)).status).toBe(404);
  });

  it("another organization's key is not found", async () => {
    const other = bootstrap(server);
    expect((await call(owner, 'DELETE', `/keys/${other.publishableKey.id}`)).status).toBe(404);
    expect((await call(owner, 'PATCH', `/keys/${other.publishableKey.id}`, { name: 'mine' })).status).toBe(404);
  });

  it('bad key bodies answer 400 per field and create nothing', async () => {
    const before = (await call(owner, 'GET', '/keys')).json.data.length;
    const res = await call(owner, 'POST', '/keys', { type: 'xk', name: '', scopes: ['everything'], allowed_origins: ['ftp://x'] });
    expect(res.status).toBe(400);
    expect(res.json.errors.length).toBeGreaterThanOrEqual(4);
    for (const e of res.json.errors) expect(e.path.slice(0, 2)).toEqual(['request', 'body']);
    expect((await call(owner, 'GET', '/keys')).json.data.length).toBe(before);
  });

  it('plan limits: absent means not granted (403), a number caps, null is unlimited', async () => {
    const capped = bootstrap(server);
    const token = await login(capped.owner.email, capped.owner.password);
    admin(server, 'set', '--org', capped.organization.id, 'limits.keys=absent');
    expect((await call(token, 'POST', '/keys', { type: 'pk', name: 'n' })).code).toBe('FORBIDDEN');
    admin(server, 'set', '--org', capped.organization.id, 'limits.keys=3');
    expect((await call(token, 'POST', '/keys', { type: 'pk', name: 'third' })).status).toBe(201);
    expect((await call(token, 'POST', '/keys', { type: 'pk', name: 'fourth' })).code).toBe('FORBIDDEN');
    admin(server, 'set', '--org', capped.organization.id, 'limits.keys=null');
    expect((await call(token, 'POST', '/keys', { type: 'pk', name: 'fourth' })).status).toBe(201);
    const read = await call(token, 'GET', '/organization');
    expect(read.json.data.limits.keys).toBeNull();
  });
});

describe('members', () => {
  it('adds a user by email, changes the role, removes them', async () => {
    const email = `new-${Date.now()}@m.test`;
    const user = admin(server, 'create-user', '--email', email, '--password', 'member-password-1');
    const added = await call(owner, 'POST', '/members', { email, role: 'viewer' });
    expect(added.status).toBe(201);
    expect(added.json.data).toMatchObject({ user_id: user.user.id, role: 'viewer' });
    expect((await call(owner, 'POST', '/members', { email, role: 'admin' })).code).toBe('CONFLICT');
    expect((await call(owner, 'PATCH', `/members/${user.user.id}`, { role: 'contributor' })).json.data.role).toBe('contributor');
    const list = await call(owner, 'GET', '/members');
    expect(list.json.data.find((m: any) => m.user_id === user.user.id)?.role).toBe('contributor');
    expect((await call(owner, 'DELETE', `/members/${user.user.id}`)).status).toBe(204);
    expect((await call(owner, 'GET', '/members')).json.data.some((m: any) => m.user_id === user.user.id)).toBe(false);
  });

  it('an unknown email answers 400 on its field', async () => {
    const res = await call(owner, 'POST', '/members', { email: 'nobody@nowhere.test', role: 'viewer' });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].path).toEqual(['request', 'body', 'email']);
  });

  it('the last owner can be neither demoted nor removed', async () => {
    const solo = bootstrap(server);
    const token = await login(solo.owner.email, solo.owner.password);
    expect((await call(token, 'PATCH', `/members/${solo.owner.id}`, { role: 'admin' })).code).toBe('CONFLICT');
    expect((await call(token, 'DELETE', `/members/${solo.owner.id}`)).code).toBe('CONFLICT');
    expect((await call(token, 'GET', '/members')).json.data[0].role).toBe('owner');
  });

  it('an admin cannot grant or take away the owner role', async () => {
    const adm = await member('admin');
    const target = await member('viewer');
    expect((await call(adm.token, 'PATCH', `/members/${target.id}`, { role: 'owner' })).code).toBe('FORBIDDEN');
    expect((await call(adm.token, 'PATCH', `/members/${org.owner.id}`, { role: 'viewer' })).code).toBe('FORBIDDEN');
  });
});

describe('usage', () => {
  it('counts Data API requests per minute and per day', async () => {
    const solo = bootstrap(server);
    const token = await login(solo.owner.email, solo.owner.password);
    const mint = await server.fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': solo.secretKey.key },
      body: JSON.stringify({ publishable_key: solo.publishableKey.key }),
    });
    const session = ((await mint.json()) as { data: { token: string } }).data.token;
    for (let i = 0; i < 4; i++) {
      await server.fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': solo.publishableKey.key, 'X-Session-Token': session },
        body: '{"query":"{__typename}"}',
      });
    }
    // Usage is flushed once a second: wait until the four requests are there.
    await vi.waitFor(
      async () => {
        const minutes = await call(token, 'GET', '/usage?api=data');
        expect(minutes.json.data.reduce((n: number, b: any) => n + b.count, 0)).toBe(4);
      },
      { timeout: 10_000, interval: 100 },
    );
    const days = await call(token, 'GET', '/usage?granularity=day');
    expect(days.json.data).toEqual([{ api: 'data', day: new Date().toISOString().slice(0, 10), count: 4 }]);
  });
});
