// The Tile API's trail tiles over real HTTP on the demo region: TileJSON as map clients read it, tiles decoded as
// MapLibre would, entity tags and 304, gzip for clients that accept it, 204 where the region has nothing,
// refused coordinates with their path, the per-organization quota (share links included) and the scope rule.

import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, type Bootstrapped, bootstrap, login, type RunningServer, startServer } from '../../helpers/server.js';
import { tilePath } from '../../helpers/tiles.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

let server: RunningServer;
let org: Bootstrapped;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { 'X-API-Key': org.publishableKey.key, ...headers } });

/** A GET through node:http, bytes as they came (no decoding). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { 'X-API-Key': org.publishableKey.key, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function tileJson(): Promise<any> {
  const res = await get('/v1/tiles/trails.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json();
}

describe('trail tiles', () => {
  it('TileJSON 3.0 describes the region: bounds, center, zooms, layers with their fields, attribution', async () => {
    const doc = await tileJson();
    expect(doc).toMatchObject({ tilejson: '3.0.0', scheme: 'xyz', minzoom: 0, maxzoom: 14 });
    expect(doc.tiles).toEqual([`${server.url}/v1/tiles/trails/{z}/{x}/{y}.mvt`]);
    const [west, south, east, north] = doc.bounds;
    expect(west).toBeLessThan(east);
    expect(south).toBeLessThan(north);
    expect(doc.center[0]).toBeGreaterThan(west);
    expect(doc.center[0]).toBeLessThan(east);
    expect(doc.center[2]).toBeGreaterThanOrEqual(10);
    // The demo region has elevation data: contours too, from z12.
    expect(doc.vector_layers.map((l: any) => l.id)).toEqual(['trails', 'hazards', 'places', 'contours']);
    expect(doc.vector_layers[3]).toMatchObject({ minzoom: 12, fields: { elevation: expect.any(String), index: expect.any(String) } });
    expect(Object.keys(doc.vector_layers[0].fields)).toEqual(expect.arrayContaining(['osm_id', 'highway', 'name', 'sac_scale', 'surface']));
    expect(doc.attribution).toBeTruthy();
  });

  it('a tile decodes as a map client reads it, with the layers and fields TileJSON promised', async () => {
    const doc = await tileJson();
    const z = 14;
    const path = `/v1/tiles/trails/${tilePath([doc.center[0], doc.center[1]], z)}.mvt`;
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(res.headers.get('etag')).toMatch(/^"t-[A-Za-z0-9_-]+-14-\d+-\d+"$/);
    expect(res.headers.get('ratelimit-limit')).toBe('600');
    const tile = new VectorTile(new Pbf(new Uint8Array(await res.arrayBuffer())));
    const trails = tile.layers['trails'];
    expect(trails?.length).toBeGreaterThan(0);
    const feature = trails!.feature(0);
    expect(feature.type).toBe(2); // LineString
    expect(typeof feature.properties['highway']).toBe('string');
    expect(typeof feature.properties['osm_id']).toBe('number');
  });

  it('answers 304 to a matching If-None-Match and gzip to a client that accepts it, the same tile inside', async () => {
    const doc = await tileJson();
    const path = `/v1/tiles/trails/${tilePath([doc.center[0], doc.center[1]], 13)}.mvt`;
    // node:http, not fetch: fetch asks for gzip itself and undoes it.
    const plain = await rawGet(path, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers['etag'] as string;
    const again = await rawGet(path, { 'If-None-Match': `"other", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers['etag']).toBe(etag);
    expect(again.body.byteLength).toBe(0);
    const zipped = await rawGet(path, { 'Accept-Encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toBe('Accept-Encoding');
    expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength);
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
    // gzip refused with q=0: the plain bytes.
    expect((await rawGet(path, { 'Accept-Encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers 204 where the region has nothing, and HEAD like GET without the bytes', async () => {
    const empty = await get('/v1/tiles/trails/10/0/0.mvt');
    expect(empty.status).toBe(204);
    expect(empty.headers.get('content-type')).toBeNull();
    const doc = await tileJson();
    const path = `/v1/tiles/trails/${tilePath([doc.center[0], doc.center[1]], 12)}.mvt`;
    const head = await fetch(`${server.url}${path}`, { method: 'HEAD', headers: { 'X-API-Key': org.publishableKey.key } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('refuses coordinates outside the zoom or the grid with the path of the bad one and what to send', async () => {
    const cases: [string, string, RegExp][] = [
      ['17/0/0', 'z', /0 to 16/],
      ['3/8/0', 'x', /0 to 7/],
      ['3/0/8', 'y', /0 to 7/],
      ['3/a/0', 'x', /whole number/],
      ['3/0/-1', 'y', /whole number/],
      ['2.5/0/0', 'z', /whole number/],
    ];
    for (const [zxy, field, sentence] of cases) {
      const res = await get(`/v1/tiles/trails/${zxy}.mvt`);
      expect(res.status, zxy).toBe(400);
      const body = (await res.json()) as any;
      expect(body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      expect(body.errors[0].path).toEqual(['request', 'params', field]);
      expect(body.errors[0].message).toMatch(sentence);
    }
    expect((await get('/v1/tiles/trails/3/0/0.png')).status).toBe(404);
  });

  it('needs the tiles scope (embedding grants it, data alone does not)', async () => {
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'data only', '--scopes', 'data');
    const res = await fetch(`${server.url}/v1/tiles/trails/0/0/0.mvt`, { headers: { 'X-API-Key': dataOnly.api_key.key } });
    expect(res.status).toBe(403);
    expect((await fetch(`${server.url}/v1/tiles/trails/0/0/0.mvt`)).status).toBe(401);
  });

  it('counts every tile against the organization quota, through a share link too, and answers 429 once spent', async () => {
    const other = bootstrap(server);
    admin(server, 'set', '--org', other.organization.id, 'quota.tiles=3');
    const owner = await login(server, other.owner.email, other.owner.password);
    const minted = await fetch(`${server.url}/v1/collections/${other.collection.id}/share`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}` },
    });
    expect(minted.status).toBe(201);
    const share = ((await minted.json()) as any).data.token as string;
    await insideOneMinute();
    const byKey = await fetch(`${server.url}/v1/tiles/trails/0/0/0.mvt`, { headers: { 'X-API-Key': other.publishableKey.key } });
    expect(byKey.headers.get('ratelimit-remaining')).toBe('2');
    const byLink = await fetch(`${server.url}/v1/tiles/trails/0/0/0.mvt?share_token=${share}`);
    expect(byLink.status).toBe(200);
    expect(byLink.headers.get('ratelimit-remaining')).toBe('1');
    await fetch(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-API-Key': other.publishableKey.key } });
    const spent = await fetch(`${server.url}/v1/tiles/trails/0/0/0.mvt?share_token=${share}`);
    expect(spent.status).toBe(429);
    expect(spent.headers.get('ratelimit-remaining')).toBe('0');
    // The first organization's quota is its own.
    expect((await get('/v1/tiles/trails/0/0/0.mvt')).status).toBe(200);
  });
});
