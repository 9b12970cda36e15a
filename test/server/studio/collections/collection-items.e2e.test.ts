// A collection's itineraries and zones over real HTTP: filing and unfiling, the listings, share-link reads
// (published itineraries only, items filed later included), the grouped itinerary listing and the
// collections holding an item.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created } from '../../../data/memory-db.js';
import { call, type Reply, setUp, withItineraries, type World } from './studio-client.js';

let w: World;
const req = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> =>
  call(w.server, method, path, headers, body);

const square = {
  type: 'Polygon',
  coordinates: [
    [
      [9.5, 47.1],
      [9.6, 47.1],
      [9.6, 47.2],
      [9.5, 47.1],
    ],
  ],
};

async function collection(name: string, privacy: 'public' | 'private', extra: Record<string, unknown> = {}, headers = w.owner) {
  const res = await req('POST', '/v1/collections', headers, { name, privacy, ...extra });
  expect(res.status).toBe(201);
  return res.json.data.id as string;
}

async function zone(name: string, privacy: 'public' | 'private', headers = w.owner) {
  const res = await req('POST', '/v1/zones', headers, { name, level: 'WARNING', mode: 'POLYGON', geometry: square, privacy });
  expect(res.status).toBe(201);
  return res.json.data.id as string;
}

/** Creates an itinerary straight in the store; `published` publishes a snapshot whose name says so. */
function itinerary(name: string, privacy: 'public' | 'private', published = false, organizationId = w.A.organization.id): string {
  return withItineraries(w.server, (store) => {
    const it = created(store.create({ organizationId, name, privacy }));
    if (published) store.publish(it.id, { name: `${name} (published)` });
    return it.id;
  });
}

async function share(collectionId: string): Promise<Record<string, string>> {
  const res = await req('POST', `/v1/collections/${collectionId}/share`, w.owner);
  expect(res.status).toBe(201);
  return { 'X-Share-Token': res.json.data.token as string };
}

const names = (res: Reply) => (res.json.data as { name: string }[]).map((r) => r.name);

beforeAll(async () => {
  w = await setUp();
}, 120_000);
afterAll(async () => {
  await w?.server.stop();
});

describe('filing itineraries', () => {
  it('PUT files an itinerary with 204, again with 204, and it is listed once', async () => {
    const c = await collection('Filing', 'private');
    const i = itinerary('Filed walk', 'private');
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.keyAs(w.contributorId))).status).toBe(204);
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.owner)).status).toBe(204);
    const list = await req('GET', `/v1/collections/${c}/itineraries`, w.owner);
    expect(list.status).toBe(200);
    expect(list.json.data).toEqual([
      {
        id: i,
        name: 'Filed walk',
        description: '',
        activity: 'HIKING_AND_TRAIL',
        privacy: 'private',
        version: 1,
        published_version: null,
        published_at: null,
      },
    ]);
    expect(list.json.extensions.metadata.pagination).toEqual({ limit: 20, offset: 0, total: 1 });
  });

  it('DELETE unfiles with 204, a second DELETE answers 404, and the itinerary survives', async () => {
    const c = await collection('Unfiling', 'private');
    const i = itinerary('Unfiled walk', 'private');
    await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.owner);
    expect((await req('DELETE', `/v1/collections/${c}/itineraries/${i}`, w.owner)).status).toBe(204);
    expect((await req('DELETE', `/v1/collections/${c}/itineraries/${i}`, w.owner)).status).toBe(404);
    expect(withItineraries(w.server, (s) => s.get(i)?.name)).toBe('Unfiled walk');
  });

  it("another organization's itinerary answers 404 and is not filed", async () => {
    const c = await collection('Same org only', 'private');
    const foreign = itinerary('Foreign walk', 'public', false, w.B.organization.id);
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${foreign}`, w.owner)).code).toBe('NOT_FOUND');
    expect((await req('PUT', `/v1/collections/${c}/itineraries/4b7e9a52-1d0c-4c6f-8a43-1f2e3d4c5b6a`, w.owner)).status).toBe(404);
    expect((await req('GET', `/v1/collections/${c}/itineraries`, w.owner)).json.data).toEqual([]);
  });

  it('a viewer answers 403, another organization 404 on a private collection, a share token 403', async () => {
    const c = await collection('Write guarded', 'private');
    const i = itinerary('Guarded walk', 'private');
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.viewer)).status).toBe(403);
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.ownerB)).status).toBe(404);
    expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, await share(c))).status).toBe(403);
    expect((await req('GET', `/v1/collections/${c}/itineraries`, w.owner)).json.data).toEqual([]);
  });

  it('deleting a collection keeps the itineraries and zones filed in it', async () => {
    const c = await collection('Doomed', 'private');
    const i = itinerary('Survivor', 'private');
    const z = await zone('Surviving zone', 'private');
    await req('PUT', `/v1/collections/${c}/itineraries/${i}`, w.owner);
    await req('PUT', `/v1/collections/${c}/zones/${z}`, w.owner);
    expect((await req('DELETE', `/v1/collections/${c}`, w.owner)).status).toBe(204);
    expect(withItineraries(w.server, (s) => s.get(i)?.id)).toBe(i);
    expect((await req('GET', `/v1/zones/${z}`, w.owner)).status).toBe(200);
    expect((await req('GET', `/v1/itineraries/${i}/collections`, w.owner)).json.data).toEqual([]);
  });
});

describe('listing a collection', () => {
  let c: string;
  beforeAll(async () => {
    c = await collection('Mixed', 'public');
    for (const [name, privacy, published] of [
      ['Public draft', 'public', false],
      ['Private draft', 'private', false],
      ['Public published', 'public', true],
      ['Private published', 'private', true],
    ] as const) {
      await req('PUT', `/v1/collections/${c}/itineraries/${itinerary(name, privacy, published)}`, w.owner);
    }
  });

  it('a bare key lists public itineraries only; a session token and a member list all', async () => {
    expect(names(await req('GET', `/v1/collections/${c}/itineraries`, w.key))).toEqual(['Public draft', 'Public published']);
    expect(names(await req('GET', `/v1/collections/${c}/itineraries`, w.session))).toHaveLength(4);
    expect(names(await req('GET', `/v1/collections/${c}/itineraries`, w.viewer))).toHaveLength(4);
    expect(names(await req('GET', `/v1/collections/${c}/itineraries`, w.keyB))).toEqual(['Public draft', 'Public published']);
  });

  it('pages with limit and offset and reports the total', async () => {
    const res = await req('GET', `/v1/collections/${c}/itineraries?limit=1&offset=2`, w.owner);
    expect(names(res)).toEqual(['Public published']);
    expect(res.json.extensions.metadata.pagination).toEqual({ limit: 1, offset: 2, total: 4 });
    expect((await req('GET', `/v1/collections/${c}/itineraries?limit=500`, w.owner)).status).toBe(400);
  });

  it('a share token lists only published itineraries, private ones included, as published', async () => {
    const link = await share(c);
    const res = await req('GET', `/v1/collections/${c}/itineraries`, link);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Public published (published)', 'Private published (published)']);
    expect(res.json.data.every((r: any) => r.version === r.published_version && r.published_at !== null)).toBe(true);
    expect(res.json.extensions.metadata.pagination.total).toBe(2);
  });

  it('a share token query parameter reads the collection itself with role viewer', async () => {
    const link = await share(c);
    const res = await req('GET', `/v1/collections/${c}?share_token=${link['X-Share-Token']}`, {});
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: c, role: 'viewer' });
  });

  it('a collection link covers items filed later, and no other collection', async () => {
    const later = await collection('Filled later', 'private');
    const link = await share(later);
    expect((await req('GET', `/v1/collections/${later}/itineraries`, link)).json.data).toEqual([]);
    await req('PUT', `/v1/collections/${later}/itineraries/${itinerary('Late published', 'private', true)}`, w.owner);
    await req('PUT', `/v1/collections/${later}/zones/${await zone('Late zone', 'private')}`, w.owner);
    expect(names(await req('GET', `/v1/collections/${later}/itineraries`, link))).toEqual(['Late published (published)']);
    expect(names(await req('GET', `/v1/collections/${later}/zones`, link))).toEqual(['Late zone']);
    expect((await req('GET', `/v1/collections/${c}`, link)).status).toBe(404);
    expect((await req('GET', `/v1/collections/${c}/zones`, link)).status).toBe(404);
  });

  it("an invisible collection's items answer 404", async () => {
    const hidden = await collection('Hidden items', 'private');
    expect((await req('GET', `/v1/collections/${hidden}/itineraries`, w.keyB)).code).toBe('NOT_FOUND');
    expect((await req('GET', `/v1/collections/${hidden}/zones`, w.ownerB)).code).toBe('NOT_FOUND');
  });
});

describe('filing zones', () => {
  it('PUT files a zone idempotently, the listing shows it, DELETE unfiles it', async () => {
    const c = await collection('Zones here', 'public');
    const pub = await zone('Listed zone', 'public');
    const priv = await zone('Quiet zone', 'private');
    expect((await req('PUT', `/v1/collections/${c}/zones/${pub}`, w.owner)).status).toBe(204);
    expect((await req('PUT', `/v1/collections/${c}/zones/${pub}`, w.keyAs(w.contributorId))).status).toBe(204);
    expect((await req('PUT', `/v1/collections/${c}/zones/${priv}`, w.owner)).status).toBe(204);
    const list = await req('GET', `/v1/collections/${c}/zones`, w.owner);
    expect(names(list)).toEqual(['Listed zone', 'Quiet zone']);
    expect(list.json.data[0]).toMatchObject({ level: 'WARNING', mode: 'POLYGON', geometry: square, radius_m: null });
    expect(names(await req('GET', `/v1/collections/${c}/zones`, w.key))).toEqual(['Listed zone']);
    expect((await req('DELETE', `/v1/collections/${c}/zones/${priv}`, w.owner)).status).toBe(204);
    expect((await req('DELETE', `/v1/collections/${c}/zones/${priv}`, w.owner)).status).toBe(404);
    expect(names(await req('GET', `/v1/collections/${c}/zones`, w.owner))).toEqual(['Listed zone']);
  });

  it("another organization's zone answers 404; a viewer answers 403", async () => {
    const c = await collection('Zone guard', 'private');
    const foreign = await zone('B zone', 'public', w.ownerB);
    expect((await req('PUT', `/v1/collections/${c}/zones/${foreign}`, w.owner)).status).toBe(404);
    const own = await zone('A zone', 'public');
    expect((await req('PUT', `/v1/collections/${c}/zones/${own}`, w.viewer)).status).toBe(403);
    expect((await req('GET', `/v1/collections/${c}/zones`, w.owner)).json.data).toEqual([]);
  });
});

describe('GET /v1/itineraries/{itinerary_id}/collections', () => {
  it('lists the collections holding it that the caller may see', async () => {
    const i = itinerary('Much filed', 'public');
    const pub = await collection('Holder public', 'public');
    const priv = await collection('Holder private', 'private');
    const personal = await collection('Holder personal', 'private', { scope: 'personal' }, w.contributor);
    for (const c of [pub, priv, personal]) {
      expect((await req('PUT', `/v1/collections/${c}/itineraries/${i}`, c === personal ? w.contributor : w.owner)).status).toBe(204);
    }
    expect(names(await req('GET', `/v1/itineraries/${i}/collections`, w.key))).toEqual(['Holder public']);
    expect(names(await req('GET', `/v1/itineraries/${i}/collections`, w.session))).toEqual(['Holder public', 'Holder private']);
    const mine = await req('GET', `/v1/itineraries/${i}/collections`, w.contributor);
    expect(names(mine)).toEqual(['Holder public', 'Holder private', 'Holder personal']);
    expect(mine.json.data.every((c: any) => c.role === 'contributor')).toBe(true);
    const page = await req('GET', `/v1/itineraries/${i}/collections?limit=1&offset=1`, w.contributor);
    expect(names(page)).toEqual(['Holder private']);
    expect(page.json.extensions.metadata.pagination).toEqual({ limit: 1, offset: 1, total: 3 });
  });

  it('an invisible or unknown itinerary answers 404', async () => {
    const hidden = itinerary('Hidden holder', 'private');
    expect((await req('GET', `/v1/itineraries/${hidden}/collections`, w.keyB)).status).toBe(404);
    expect((await req('GET', '/v1/itineraries/4b7e9a52-1d0c-4c6f-8a43-1f2e3d4c5b6a/collections', w.owner)).status).toBe(404);
  });
});

describe('GET /v1/zones/{zone_id}/collections', () => {
  it('lists the collections holding the zone; an invisible zone answers 404', async () => {
    const z = await zone('Held zone', 'private');
    const c = await collection('Zone holder', 'private');
    await req('PUT', `/v1/collections/${c}/zones/${z}`, w.owner);
    const res = await req('GET', `/v1/zones/${z}/collections`, w.owner);
    expect(names(res)).toEqual(['Zone holder']);
    expect(res.json.extensions.metadata.pagination).toEqual({ limit: 20, offset: 0, total: 1 });
    expect((await req('GET', `/v1/zones/${z}/collections`, w.key)).json.data).toEqual([]);
    expect((await req('GET', `/v1/zones/${z}/collections`, w.keyB)).status).toBe(404);
  });
});
