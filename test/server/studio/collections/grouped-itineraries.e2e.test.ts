// GET /v1/itineraries over real HTTP: itineraries grouped by collection, personal or by organization, with
// count, limit and pagination, and the bare-key rule (public only).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created } from '../../../data/memory-db.js';
import { bootstrap, type Bootstrapped } from '../../../helpers/server.js';
import { call, type Reply, setUp, withItineraries, type World } from './studio-client.js';

let w: World;
let C: Bootstrapped; // an organization of its own, so totals are exact
let owner: Record<string, string>;
let key: Record<string, string>;
const ids: Record<string, string> = {};
const req = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> =>
  call(w.server, method, path, headers, body);

async function collection(name: string, privacy: string, extra: Record<string, unknown> = {}) {
  const res = await req('POST', '/v1/collections', owner, { name, privacy, ...extra });
  expect(res.status).toBe(201);
  return res.json.data.id as string;
}

/** [collection name | null, itinerary names] per group, in order. */
const groups = (res: Reply) =>
  (res.json.data as { collection: { name: string } | null; itineraries: { name: string }[] }[]).map((g) => [
    g.collection?.name ?? null,
    g.itineraries.map((i) => i.name),
  ]);

beforeAll(async () => {
  w = await setUp();
  C = bootstrap(w.server);
  const login = await req('POST', '/v1/login', {}, { email: C.owner.email, password: C.owner.password });
  owner = { Authorization: `Bearer ${login.json.data.token as string}` };
  key = { 'X-API-Key': C.publishableKey.key };
  withItineraries(w.server, (store) => {
    for (const [name, privacy] of [
      ['North ridge', 'public'],
      ['South ridge', 'private'],
      ['Lake loop', 'public'],
      ['Loose end', 'private'],
    ] as const) {
      ids[name] = created(store.create({ organizationId: C.organization.id, name, privacy })).id;
    }
  });
  const ridges = await collection('Ridges', 'public');
  const secret = await collection('Secret', 'private');
  const mine = await collection('My picks', 'private', { scope: 'personal' });
  for (const [c, i] of [
    [ridges, 'North ridge'],
    [ridges, 'South ridge'],
    [secret, 'Lake loop'],
    [mine, 'Lake loop'],
    [mine, 'North ridge'],
  ] as const) {
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${ids[i]}`, owner)).status).toBe(204);
  }
}, 120_000);
afterAll(async () => {
  await w?.server.stop();
});

describe('GET /v1/itineraries', () => {
  it("groups by the organization's collections with organization_id, each itinerary once, ungrouped last", async () => {
    const res = await req('GET', `/v1/itineraries?organization_id=${C.organization.id}`, owner);
    expect(res.status).toBe(200);
    expect(groups(res)).toEqual([
      ['Ridges', ['North ridge', 'South ridge']],
      ['Secret', ['Lake loop']],
      [null, ['Loose end']],
    ]);
    expect(res.json.data[0].collection).toMatchObject({ name: 'Ridges', privacy: 'public' });
    expect(res.json.count).toBe(4);
    expect(res.json.limit).toBe(20);
    expect(res.json.extensions.metadata.pagination).toEqual({ limit: 20, offset: 0, total: 4 });
  });

  it("groups by the signed-in user's personal collections without organization_id", async () => {
    const res = await req('GET', '/v1/itineraries', owner);
    expect(groups(res)).toEqual([
      ['My picks', ['North ridge', 'Lake loop']],
      [null, ['South ridge', 'Loose end']],
    ]);
  });

  it('a bare key lists public itineraries and public collections only; a session token lists all', async () => {
    const bare = await req('GET', `/v1/itineraries?organization_id=${C.organization.id}`, key);
    expect(groups(bare)).toEqual([
      ['Ridges', ['North ridge']],
      [null, ['Lake loop']],
    ]);
    expect(bare.json.extensions.metadata.pagination.total).toBe(2);
    const minted = await req('POST', '/v1/sessions', { 'X-API-Key': C.secretKey.key }, { publishable_key: C.publishableKey.key });
    const session = { ...key, 'X-Session-Token': minted.json.data.token as string };
    const all = await req('GET', '/v1/itineraries', session);
    expect(all.json.count).toBe(4);
    expect(groups(all)).toEqual([[null, ['North ridge', 'South ridge', 'Lake loop', 'Loose end']]]);
  });

  it('pages over itineraries: count is the page size, pagination the whole', async () => {
    const res = await req('GET', `/v1/itineraries?organization_id=${C.organization.id}&limit=2&offset=1`, owner);
    expect(groups(res)).toEqual([
      ['Ridges', ['South ridge']],
      ['Secret', ['Lake loop']],
    ]);
    expect(res.json.count).toBe(2);
    expect(res.json.limit).toBe(2);
    expect(res.json.extensions.metadata.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
  });

  it('another organization answers 403; a bad organization_id or limit answers 400 with query paths', async () => {
    expect((await req('GET', `/v1/itineraries?organization_id=${w.A.organization.id}`, key)).status).toBe(403);
    expect((await req('GET', `/v1/itineraries?organization_id=${w.A.organization.id}`, owner)).status).toBe(403);
    const bad = await req('GET', '/v1/itineraries?organization_id=nope&limit=0', owner);
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: any) => e.path.join('.')).sort()).toEqual(['request.query.limit', 'request.query.organization_id']);
    expect((await req('GET', '/v1/itineraries', {})).status).toBe(401);
  });
});
