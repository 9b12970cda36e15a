// Zones over real HTTP: create with each mode, geometry checked against the mode (one 400 entry per bad field),
// read, list, partial update re-checking the shape, delete, who may, plan limits, and that a refused write
// changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../../helpers/server.js';
import { call, paths, type Reply, setUp, type World } from '../collections/studio-client.js';

let w: World;
const req = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> =>
  call(w.server, method, path, headers, body);

const ring = [
  [9.5, 47.1],
  [9.6, 47.1],
  [9.6, 47.2],
  [9.5, 47.1],
];
const polygon = { type: 'Polygon', coordinates: [ring] };
const point = { type: 'Point', coordinates: [9.52, 47.14, 1200] };
const line = {
  type: 'LineString',
  coordinates: [
    [9.5, 47.1],
    [9.55, 47.12],
  ],
};

const polygonZone = (extra: Record<string, unknown> = {}) => ({
  name: 'Rockfall',
  level: 'DANGER',
  mode: 'POLYGON',
  geometry: polygon,
  privacy: 'public',
  ...extra,
});

async function create(body: Record<string, unknown>, headers = w.owner): Promise<any> {
  const res = await req('POST', '/v1/zones', headers, body);
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data;
}

beforeAll(async () => {
  w = await setUp();
}, 120_000);
afterAll(async () => {
  await w?.server.stop();
});

describe('POST /v1/zones', () => {
  it('creates a POLYGON zone and answers 201 with its view', async () => {
    const res = await req('POST', '/v1/zones', w.owner, polygonZone({ description: 'Loose rock' }));
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      organization_id: w.A.organization.id,
      name: 'Rockfall',
      description: 'Loose rock',
      level: 'DANGER',
      mode: 'POLYGON',
      geometry: polygon,
      radius_m: null,
      width_m: null,
      privacy: 'public',
    });
    expect(res.json.extensions).toEqual({ metadata: {} });
  });

  it('creates a CIRCLE with a Point and radius_m, and a CORRIDOR with a LineString and width_m', async () => {
    const circle = await create(
      { name: 'Nest', level: 'PROHIBITED', mode: 'CIRCLE', geometry: point, radius_m: 250, privacy: 'private' },
      w.keyAs(w.contributorId),
    );
    expect(circle).toMatchObject({ mode: 'CIRCLE', radius_m: 250, width_m: null, geometry: point });
    const corridor = await create(
      { name: 'Ski run', level: 'INFO', mode: 'CORRIDOR', geometry: line, width_m: 30, privacy: 'public' },
      w.contributor,
    );
    expect(corridor).toMatchObject({ mode: 'CORRIDOR', width_m: 30, radius_m: null });
  });

  it('every schema failure is its own 400 entry, unknown fields included', async () => {
    const res = await req('POST', '/v1/zones', w.owner, {
      name: 'Bad',
      level: 'SEVERE',
      geometry: polygon,
      privacy: 'public',
      colour: 'red',
      radius_m: -5,
    });
    expect(res.status).toBe(400);
    expect(res.json.errors.every((e: any) => e.extensions.code === 'VALIDATION_FAILED')).toBe(true);
    expect(paths(res).sort()).toEqual(['request.body.colour', 'request.body.level', 'request.body.mode', 'request.body.radius_m']);
  });

  it('a polygon with an open ring, too few positions and a bad latitude gives one entry per fault', async () => {
    const geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [9.5, 47.1],
          [9.6, 47.1],
          [9.6, 47.2],
          [9.5, 47.3],
        ],
        [
          [9.5, 47.1],
          [9.6, 47.1],
          [9.5, 47.1],
        ],
        [
          [9.5, 47.1],
          [9.6, 95],
          [9.6, 47.2],
          [9.5, 47.1],
        ],
      ],
    };
    const res = await req('POST', '/v1/zones', w.owner, polygonZone({ name: 'Broken', geometry }));
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual([
      'request.body.geometry.coordinates.0',
      'request.body.geometry.coordinates.1',
      'request.body.geometry.coordinates.2.1.1',
    ]);
  });

  it('the geometry type must match the mode, and radius/width belong to their modes', async () => {
    const wrongType = await req('POST', '/v1/zones', w.owner, polygonZone({ name: 'Mismatch', geometry: point, width_m: 10 }));
    expect(paths(wrongType)).toEqual(['request.body.geometry.type', 'request.body.width_m']);
    const noRadius = await req('POST', '/v1/zones', w.owner, {
      name: 'No radius',
      level: 'INFO',
      mode: 'CIRCLE',
      geometry: point,
      privacy: 'public',
    });
    expect(paths(noRadius)).toEqual(['request.body.radius_m']);
    const shortLine = await req('POST', '/v1/zones', w.owner, {
      name: 'Short',
      level: 'INFO',
      mode: 'CORRIDOR',
      geometry: { type: 'LineString', coordinates: [[200, 47]] },
      privacy: 'public',
    });
    expect(paths(shortLine)).toEqual(['request.body.geometry.coordinates', 'request.body.width_m']);
    const badPoint = await req('POST', '/v1/zones', w.owner, {
      name: 'Bad point',
      level: 'INFO',
      mode: 'CIRCLE',
      geometry: { type: 'Point', coordinates: [181, 91] },
      radius_m: 5,
      privacy: 'public',
    });
    expect(paths(badPoint)).toEqual(['request.body.geometry.coordinates.0', 'request.body.geometry.coordinates.1']);
  });

  it('no credential answers 401, a viewer 403, and refused creates leave the listing unchanged', async () => {
    const before = (await req('GET', '/v1/zones', w.owner)).json.extensions.metadata.pagination.total;
    expect((await req('POST', '/v1/zones', {}, polygonZone())).status).toBe(401);
    expect((await req('POST', '/v1/zones', w.viewer, polygonZone())).code).toBe('FORBIDDEN');
    expect((await req('POST', '/v1/zones', w.keyAs(w.viewerId), polygonZone())).status).toBe(403);
    expect((await req('POST', '/v1/zones', w.owner, polygonZone({ geometry: point }))).status).toBe(400);
    expect((await req('GET', '/v1/zones', w.owner)).json.extensions.metadata.pagination.total).toBe(before);
  });

  it('a plan limit already reached answers 403', async () => {
    const org = w.B.organization.id;
    admin(w.server, 'set', '--org', org, 'limits.zones=1');
    await create(polygonZone({ name: 'Only one' }), w.ownerB);
    expect((await req('POST', '/v1/zones', w.ownerB, polygonZone({ name: 'Second' }))).status).toBe(403);
    admin(w.server, 'set', '--org', org, 'limits.zones=null');
    await create(polygonZone({ name: 'Second' }), w.ownerB);
  });
});

describe('GET /v1/zones and /v1/zones/{zone_id}', () => {
  it('a bare key lists public zones only; a session token and a member list private ones too', async () => {
    await create(polygonZone({ name: 'Secret spot', privacy: 'private' }));
    const bare = await req('GET', '/v1/zones?limit=100', w.key);
    expect(bare.status).toBe(200);
    expect(bare.json.data.every((z: any) => z.privacy === 'public' && z.organization_id === w.A.organization.id)).toBe(true);
    const session = await req('GET', '/v1/zones?limit=100', w.session);
    expect(session.json.data.some((z: any) => z.name === 'Secret spot')).toBe(true);
    expect(session.json.extensions.metadata.pagination.total).toBeGreaterThan(bare.json.extensions.metadata.pagination.total);
    expect((await req('GET', '/v1/zones?limit=100', w.viewer)).json.extensions.metadata.pagination.total).toBe(
      session.json.extensions.metadata.pagination.total,
    );
  });

  it('pages with limit and offset; bad bounds answer 400 with query paths', async () => {
    const all = await req('GET', '/v1/zones?limit=100', w.owner);
    const page = await req('GET', '/v1/zones?limit=1&offset=1', w.owner);
    expect(page.json.data.map((z: any) => z.id)).toEqual([all.json.data[1].id]);
    expect(page.json.extensions.metadata.pagination).toEqual({ limit: 1, offset: 1, total: all.json.data.length });
    const bad = await req('GET', '/v1/zones?limit=0&offset=-2', w.owner);
    expect(paths(bad).sort()).toEqual(['request.query.limit', 'request.query.offset']);
    expect((await req('GET', `/v1/zones?organization_id=${w.B.organization.id}`, w.key)).status).toBe(403);
  });

  it("reads a zone by id; another organization's private zone is 404, its public one 200", async () => {
    const priv = await create(polygonZone({ name: 'By id private', privacy: 'private' }));
    const pub = await create(polygonZone({ name: 'By id public' }));
    expect((await req('GET', `/v1/zones/${priv.id}`, w.key)).json.data).toMatchObject({ id: priv.id, name: 'By id private' });
    expect((await req('GET', `/v1/zones/${priv.id}`, w.keyB)).code).toBe('NOT_FOUND');
    expect((await req('GET', `/v1/zones/${pub.id}`, w.keyB)).status).toBe(200);
    expect((await req('GET', '/v1/zones/4b7e9a52-1d0c-4c6f-8a43-1f2e3d4c5b6a', w.owner)).status).toBe(404);
    expect(paths(await req('GET', '/v1/zones/nope', w.owner))).toEqual(['request.params.zone_id']);
  });
});

describe('PATCH /v1/zones/{zone_id}', () => {
  it('changes the given fields and keeps the others', async () => {
    const z = await create(polygonZone({ name: 'Patch me', description: 'Kept' }));
    const res = await req('PATCH', `/v1/zones/${z.id}`, w.contributor, { level: 'INFO', name: 'Patched' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: 'Patched', description: 'Kept', level: 'INFO', mode: 'POLYGON', geometry: polygon });
  });

  it('switching the mode re-checks the shape: a POLYGON becomes a CIRCLE only with a Point and a radius', async () => {
    const z = await create(polygonZone({ name: 'Shape shifter' }));
    const bad = await req('PATCH', `/v1/zones/${z.id}`, w.owner, { mode: 'CIRCLE' });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['request.body.geometry.type', 'request.body.radius_m']);
    expect((await req('GET', `/v1/zones/${z.id}`, w.owner)).json.data).toMatchObject({ mode: 'POLYGON', geometry: polygon });
    const ok = await req('PATCH', `/v1/zones/${z.id}`, w.owner, { mode: 'CIRCLE', geometry: point, radius_m: 40 });
    expect(ok.json.data).toMatchObject({ mode: 'CIRCLE', geometry: point, radius_m: 40, width_m: null });
    const radius = await req('PATCH', `/v1/zones/${z.id}`, w.owner, { radius_m: 80 });
    expect(radius.json.data).toMatchObject({ mode: 'CIRCLE', radius_m: 80 });
    const back = await req('PATCH', `/v1/zones/${z.id}`, w.owner, { mode: 'CORRIDOR', geometry: line, width_m: 12 });
    expect(back.json.data).toMatchObject({ mode: 'CORRIDOR', radius_m: null, width_m: 12 });
  });

  it('a viewer answers 403, another organization 404, an unknown field 400, and nothing changes', async () => {
    const z = await create(polygonZone({ name: 'Guarded zone', privacy: 'private' }));
    expect((await req('PATCH', `/v1/zones/${z.id}`, w.viewer, { name: 'x' })).status).toBe(403);
    expect((await req('PATCH', `/v1/zones/${z.id}`, w.ownerB, { name: 'x' })).status).toBe(404);
    expect(paths(await req('PATCH', `/v1/zones/${z.id}`, w.owner, { colour: 'red' }))).toEqual(['request.body.colour']);
    expect((await req('GET', `/v1/zones/${z.id}`, w.owner)).json.data.name).toBe('Guarded zone');
  });
});

describe('DELETE /v1/zones/{zone_id}', () => {
  it('answers 204 and the zone is gone; a viewer could not delete it', async () => {
    const z = await create(polygonZone({ name: 'Temporary' }));
    expect((await req('DELETE', `/v1/zones/${z.id}`, w.viewer)).status).toBe(403);
    expect((await req('DELETE', `/v1/zones/${z.id}`, w.keyAs(w.A.owner.id))).status).toBe(204);
    expect((await req('GET', `/v1/zones/${z.id}`, w.owner)).status).toBe(404);
    expect((await req('DELETE', `/v1/zones/${z.id}`, w.owner)).status).toBe(404);
  });
});
