// Collections over real HTTP: create, read, update, delete, the listings by organization and by user, who may
// do what, and that a refused write changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../../helpers/server.js';
import { call, paths, type Reply, setUp, type World } from './studio-client.js';

let w: World;
const req = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> =>
  call(w.server, method, path, headers, body);

beforeAll(async () => {
  w = await setUp();
}, 120_000);
afterAll(async () => {
  await w?.server.stop();
});

async function create(body: Record<string, unknown>, headers = w.owner): Promise<any> {
  const res = await req('POST', '/v1/collections', headers, body);
  expect(res.status).toBe(201);
  return res.json.data;
}

describe('POST /v1/collections', () => {
  it('creates an organization collection and answers 201 with its view and the caller role', async () => {
    const res = await req('POST', '/v1/collections', w.owner, { name: 'Alps', description: 'High routes', privacy: 'private' });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      organization_id: w.A.organization.id,
      name: 'Alps',
      description: 'High routes',
      privacy: 'private',
      scope: 'organization',
      owner_user_id: null,
      role: 'owner',
    });
    expect(res.json.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json.extensions).toEqual({ metadata: {} });
  });

  it('a key writing as a contributor creates it with role viewer (keys read as no identity)', async () => {
    const data = await create({ name: 'Key made', privacy: 'public' }, w.keyAs(w.contributorId));
    expect(data.role).toBe('viewer');
    expect(data.description).toBe('');
  });

  it('a repeated name answers 409 CONFLICT with the holder at extensions.metadata.collection.id', async () => {
    const first = await create({ name: 'Twice', privacy: 'public' });
    const res = await req('POST', '/v1/collections', w.contributor, { name: 'Twice', privacy: 'private' });
    expect(res.status).toBe(409);
    expect(res.code).toBe('CONFLICT');
    expect(res.json.extensions.metadata).toEqual({ collection: { id: first.id } });
  });

  it('a personal collection belongs to the writing user, and may reuse an organization name', async () => {
    await create({ name: 'Shared name', privacy: 'private' });
    const mine = await create({ name: 'Shared name', privacy: 'private', scope: 'personal' }, w.keyAs(w.contributorId));
    expect(mine).toMatchObject({ scope: 'personal', owner_user_id: w.contributorId });
    const again = await req('POST', '/v1/collections', w.contributor, { name: 'Shared name', privacy: 'public', scope: 'personal' });
    expect(again.status).toBe(409);
    expect(again.json.extensions.metadata.collection.id).toBe(mine.id);
  });

  it('every bad field is its own 400 entry, unknown fields included', async () => {
    const res = await req('POST', '/v1/collections', w.owner, { name: '', privacy: 'secret', scope: 'team', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.json.errors.every((e: any) => e.extensions.code === 'VALIDATION_FAILED')).toBe(true);
    expect(paths(res).sort()).toEqual(['request.body.colour', 'request.body.name', 'request.body.privacy', 'request.body.scope'].sort());
  });

  it('a missing name and privacy give one entry each', async () => {
    const res = await req('POST', '/v1/collections', w.owner, {});
    expect(res.status).toBe(400);
    expect(paths(res).sort()).toEqual(['request.body.name', 'request.body.privacy']);
  });

  it('no credential answers 401; a signed-in viewer answers 403', async () => {
    expect((await req('POST', '/v1/collections', {}, { name: 'X', privacy: 'public' })).status).toBe(401);
    const res = await req('POST', '/v1/collections', w.viewer, { name: 'Viewer made', privacy: 'public' });
    expect([res.status, res.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('a signed-in user may name their organization, and a foreign one answers 403', async () => {
    const ok = await req('POST', `/v1/collections?organization_id=${w.A.organization.id}`, w.owner, {
      name: 'Named org',
      privacy: 'public',
    });
    expect(ok.status).toBe(201);
    const foreign = await req('POST', `/v1/collections?organization_id=${w.B.organization.id}`, w.owner, {
      name: 'Foreign',
      privacy: 'public',
    });
    expect(foreign.status).toBe(403);
  });

  it('two creates of one name at once: one 201, one 409 naming it, and one collection exists', async () => {
    const body = { name: 'Race', privacy: 'public' };
    const replies = await Promise.all([
      req('POST', '/v1/collections', w.owner, body),
      req('POST', '/v1/collections', w.keyAs(w.contributorId), body),
    ]);
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const winner = replies.find((r) => r.status === 201) as Reply;
    const loser = replies.find((r) => r.status === 409) as Reply;
    expect(loser.json.extensions.metadata.collection.id).toBe(winner.json.data.id);
    const list = await req('GET', `/v1/organizations/${w.A.organization.id}/collections?limit=100`, w.owner);
    expect(list.json.data.filter((c: any) => c.name === 'Race')).toHaveLength(1);
  });

  it('a signed-in user of several organizations must name one (400 at request.query.organization_id)', async () => {
    const both = admin(w.server, 'create-user', '--email', 'both@a.test', '--password', 'both-pass-12').user.id as string;
    admin(w.server, 'add-member', '--org', w.A.organization.id, '--user', both, '--role', 'admin');
    admin(w.server, 'add-member', '--org', w.B.organization.id, '--user', both, '--role', 'viewer');
    const login = await req('POST', '/v1/login', {}, { email: 'both@a.test', password: 'both-pass-12' });
    const headers = { Authorization: `Bearer ${login.json.data.token as string}` };
    const res = await req('POST', '/v1/collections', headers, { name: 'Where', privacy: 'public' });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['request.query.organization_id']);
    expect(
      (await req('POST', `/v1/collections?organization_id=${w.B.organization.id}`, headers, { name: 'Where', privacy: 'public' })).status,
    ).toBe(403);
    const ok = await req('POST', `/v1/collections?organization_id=${w.A.organization.id}`, headers, { name: 'Where', privacy: 'public' });
    expect(ok.json.data).toMatchObject({ organization_id: w.A.organization.id, role: 'admin' });
  });

  it('a plan limit already reached answers 403 and creates nothing', async () => {
    const org = w.B.organization.id;
    const before = await req('GET', `/v1/organizations/${org}/collections`, w.ownerB);
    admin(w.server, 'set', '--org', org, `limits.collections=${before.json.extensions.metadata.pagination.total as number}`);
    const res = await req('POST', '/v1/collections', w.ownerB, { name: 'One too many', privacy: 'public' });
    expect([res.status, res.code]).toEqual([403, 'FORBIDDEN']);
    admin(w.server, 'set', '--org', org, 'limits.collections=absent');
    expect((await req('POST', '/v1/collections', w.ownerB, { name: 'Not granted', privacy: 'public' })).status).toBe(403);
    admin(w.server, 'set', '--org', org, 'limits.collections=null');
    const after = await req('GET', `/v1/organizations/${org}/collections`, w.ownerB);
    expect(after.json.extensions.metadata.pagination.total).toBe(before.json.extensions.metadata.pagination.total);
  });
});

describe('GET /v1/collections/{collection_id}', () => {
  it("a bare key reads its own organization's private collection with role viewer", async () => {
    const c = await create({ name: 'Private read', privacy: 'private' });
    const res = await req('GET', `/v1/collections/${c.id}`, w.key);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: c.id, role: 'viewer', privacy: 'private' });
    expect((await req('GET', `/v1/collections/${c.id}`, w.contributor)).json.data.role).toBe('contributor');
  });

  it("another organization's private collection answers 404, its public one 200", async () => {
    const hidden = await create({ name: 'Hidden from B', privacy: 'private' });
    const open = await create({ name: 'Open to B', privacy: 'public' });
    expect((await req('GET', `/v1/collections/${hidden.id}`, w.keyB)).code).toBe('NOT_FOUND');
    expect((await req('GET', `/v1/collections/${hidden.id}`, w.ownerB)).status).toBe(404);
    const res = await req('GET', `/v1/collections/${open.id}`, w.keyB);
    expect(res.status).toBe(200);
    expect(res.json.data.role).toBe('viewer');
  });

  it('a private personal collection is its owner alone: another member gets 404', async () => {
    const c = await create({ name: 'My notes', privacy: 'private', scope: 'personal' }, w.contributor);
    expect((await req('GET', `/v1/collections/${c.id}`, w.contributor)).status).toBe(200);
    expect((await req('GET', `/v1/collections/${c.id}`, w.owner)).status).toBe(404);
    expect((await req('GET', `/v1/collections/${c.id}`, w.session)).status).toBe(404);
  });

  it('an unknown id answers 404 and a malformed one 400 with a params path', async () => {
    expect((await req('GET', '/v1/collections/4b7e9a52-1d0c-4c6f-8a43-1f2e3d4c5b6a', w.owner)).status).toBe(404);
    const bad = await req('GET', '/v1/collections/not-a-uuid', w.owner);
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['request.params.collection_id']);
  });
});

describe('PATCH /v1/collections/{collection_id}', () => {
  it('changes the given fields and keeps the omitted ones', async () => {
    const c = await create({ name: 'Before', description: 'Kept', privacy: 'private' });
    const res = await req('PATCH', `/v1/collections/${c.id}`, w.contributor, { name: 'After' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: 'After', description: 'Kept', privacy: 'private', role: 'contributor' });
    const privacy = await req('PATCH', `/v1/collections/${c.id}`, w.keyAs(w.A.owner.id), { privacy: 'public' });
    expect(privacy.json.data).toMatchObject({ name: 'After', privacy: 'public' });
    expect((await req('PATCH', `/v1/collections/${c.id}`, w.owner, {})).json.data.name).toBe('After');
  });

  it('a rename onto a taken name answers 409 with the holder and changes nothing', async () => {
    const holder = await create({ name: 'Taken', privacy: 'public' });
    const c = await create({ name: 'Renamed later', privacy: 'public' });
    const res = await req('PATCH', `/v1/collections/${c.id}`, w.owner, { name: 'Taken', description: 'lost' });
    expect([res.status, res.code]).toEqual([409, 'CONFLICT']);
    expect(res.json.extensions.metadata).toEqual({ collection: { id: holder.id } });
    const now = await req('GET', `/v1/collections/${c.id}`, w.owner);
    expect(now.json.data).toMatchObject({ name: 'Renamed later', description: '' });
  });

  it('a viewer answers 403, another organization 404, an unknown field 400', async () => {
    const c = await create({ name: 'Guarded', privacy: 'public' });
    expect((await req('PATCH', `/v1/collections/${c.id}`, w.viewer, { name: 'x' })).status).toBe(403);
    expect((await req('PATCH', `/v1/collections/${c.id}`, w.ownerB, { name: 'x' })).status).toBe(403);
    const priv = await create({ name: 'Guarded private', privacy: 'private' });
    expect((await req('PATCH', `/v1/collections/${priv.id}`, w.ownerB, { name: 'x' })).status).toBe(404);
    const bad = await req('PATCH', `/v1/collections/${c.id}`, w.owner, { scope: 'personal' });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['request.body.scope']);
  });

  it("another member cannot change someone's public personal collection (403)", async () => {
    const c = await create({ name: 'Mine only', privacy: 'public', scope: 'personal' }, w.contributor);
    expect((await req('PATCH', `/v1/collections/${c.id}`, w.owner, { name: 'Taken over' })).status).toBe(403);
  });
});

describe('DELETE /v1/collections/{collection_id}', () => {
  it('answers 204, the collection is gone, and a viewer could not delete it first', async () => {
    const c = await create({ name: 'Short lived', privacy: 'private' });
    expect((await req('DELETE', `/v1/collections/${c.id}`, w.viewer)).status).toBe(403);
    expect((await req('DELETE', `/v1/collections/${c.id}`, w.keyAs(w.contributorId))).status).toBe(204);
    expect((await req('GET', `/v1/collections/${c.id}`, w.owner)).status).toBe(404);
    expect((await req('DELETE', `/v1/collections/${c.id}`, w.owner)).status).toBe(404);
  });
});

describe('GET /v1/organizations/{organization_id}/collections', () => {
  let org: string;
  beforeAll(async () => {
    org = w.A.organization.id;
  });

  it('a bare key lists public organization collections only, each with role viewer', async () => {
    await create({ name: 'Listed private', privacy: 'private' });
    await create({ name: 'Listed personal', privacy: 'public', scope: 'personal' });
    const res = await req('GET', `/v1/organizations/${org}/collections?limit=100`, w.key);
    expect(res.status).toBe(200);
    const rows = res.json.data as any[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((c) => c.privacy === 'public' && c.scope === 'organization' && c.role === 'viewer')).toBe(true);
    expect(rows.some((c) => c.name === 'Listed private')).toBe(false);
    expect(rows.some((c) => c.name === 'Listed personal')).toBe(false);
  });

  it('a session token lists the private ones too; a signed-in member sees their role', async () => {
    const session = await req('GET', `/v1/organizations/${org}/collections?limit=100`, w.session);
    expect(session.json.data.some((c: any) => c.name === 'Listed private')).toBe(true);
    expect(session.json.data.every((c: any) => c.role === 'viewer')).toBe(true);
    const member = await req('GET', `/v1/organizations/${org}/collections?limit=100`, w.contributor);
    expect(member.json.data.some((c: any) => c.name === 'Listed private')).toBe(true);
    expect(member.json.data.every((c: any) => c.role === 'contributor')).toBe(true);
    const bare = await req('GET', `/v1/organizations/${org}/collections`, w.key);
    expect(session.json.extensions.metadata.pagination.total).toBeGreaterThan(bare.json.extensions.metadata.pagination.total);
  });

  it('another organization answers 403 to a bare key, a session token and a non-member', async () => {
    expect((await req('GET', `/v1/organizations/${w.B.organization.id}/collections`, w.key)).code).toBe('FORBIDDEN');
    expect((await req('GET', `/v1/organizations/${w.B.organization.id}/collections`, w.session)).status).toBe(403);
    expect((await req('GET', `/v1/organizations/${org}/collections`, w.ownerB)).status).toBe(403);
  });

  it('pages with limit and offset and reports {limit, offset, total}', async () => {
    const all = await req('GET', `/v1/organizations/${org}/collections?limit=100`, w.owner);
    const total = all.json.extensions.metadata.pagination.total as number;
    expect(total).toBe(all.json.data.length);
    const page = await req('GET', `/v1/organizations/${org}/collections?limit=2&offset=1`, w.owner);
    expect(page.json.extensions.metadata.pagination).toEqual({ limit: 2, offset: 1, total });
    expect(page.json.data.map((c: any) => c.id)).toEqual(all.json.data.slice(1, 3).map((c: any) => c.id));
    const dflt = await req('GET', `/v1/organizations/${org}/collections`, w.owner);
    expect(dflt.json.extensions.metadata.pagination).toMatchObject({ limit: 20, offset: 0 });
    const past = await req('GET', `/v1/organizations/${org}/collections?offset=1000`, w.owner);
    expect(past.json.data).toEqual([]);
  });

  it('out-of-range or unknown query parameters answer 400 with query paths; credentials are never filters', async () => {
    for (const [query, path] of [
      ['limit=0', 'request.query.limit'],
      ['limit=101', 'request.query.limit'],
      ['limit=ten', 'request.query.limit'],
      ['offset=-1', 'request.query.offset'],
      ['colour=red', 'request.query.colour'],
    ] as const) {
      const res = await req('GET', `/v1/organizations/${org}/collections?${query}`, w.owner);
      expect(res.status, query).toBe(400);
      expect(paths(res), query).toEqual([path]);
    }
    const res = await req('GET', `/v1/organizations/${org}/collections?publishable_key=${w.A.publishableKey.key}`, {});
    expect(res.status).toBe(200);
  });
});

describe('GET /v1/users/{user_id}/collections', () => {
  it('the signed-in user sees all their personal collections and nothing else', async () => {
    await create({ name: 'Contrib private', privacy: 'private', scope: 'personal' }, w.contributor);
    await create({ name: 'Contrib public', privacy: 'public', scope: 'personal' }, w.contributor);
    const res = await req('GET', `/v1/users/${w.contributorId}/collections?limit=100`, w.contributor);
    expect(res.status).toBe(200);
    const names = res.json.data.map((c: any) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Contrib private', 'Contrib public']));
    expect(res.json.data.every((c: any) => c.scope === 'personal' && c.owner_user_id === w.contributorId)).toBe(true);
    expect(res.json.data.every((c: any) => c.role === 'contributor')).toBe(true);
  });

  it("a bare key of the user's organization sees their public personal ones with role viewer", async () => {
    const res = await req('GET', `/v1/users/${w.contributorId}/collections?limit=100`, w.key);
    expect(res.status).toBe(200);
    const names = res.json.data.map((c: any) => c.name);
    expect(names).toContain('Contrib public');
    expect(names).not.toContain('Contrib private');
    expect(res.json.data.every((c: any) => c.role === 'viewer' && c.privacy === 'public')).toBe(true);
  });

  it('a session token, another signed-in user and a foreign key get 403, not an empty page', async () => {
    expect((await req('GET', `/v1/users/${w.contributorId}/collections`, w.session)).code).toBe('FORBIDDEN');
    expect((await req('GET', `/v1/users/${w.contributorId}/collections`, w.owner)).status).toBe(403);
    expect((await req('GET', `/v1/users/${w.contributorId}/collections`, w.keyB)).status).toBe(403);
  });
});
