// Overlay tiles of published content over real HTTP: an itinerary's published snapshot and a collection's
// published itineraries and zones, decoded as a map client would; unpublished is 404; a draft edit leaves the
// tiles alone and a publish changes them; share links reach what they cover; the style fragment draws the tiles.

import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bootstrapped,
  bootstrap,
  login,
  mintSessionToken,
  ownerCalls,
  type RunningServer,
  startServer,
} from '../../helpers/server.js';
import { tilePath } from '../../helpers/tiles.js';

let server: RunningServer;
let org: Bootstrapped;
let other: Bootstrapped;
let published: string;
let secret: string;
let unpublished: string;
let call: ReturnType<typeof ownerCalls>;

const A: [number, number] = [1.551, 42.4952];
const B: [number, number] = [1.5603, 42.4999];
const C: [number, number] = [1.5703, 42.5049];

async function tile(path: string, headers: Record<string, string> = { 'X-API-Key': org.publishableKey.key }) {
  const res = await fetch(`${server.url}${path}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    res,
    layers: res.status === 200 ? new VectorTile(new Pbf(bytes)).layers : {},
  };
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  call = ownerCalls(server, org);
  other = bootstrap(server);
  published = (await call('POST', '/v1/itineraries', { name: 'Ridge walk', privacy: 'public' })).data.id;
  await call('POST', `/v1/itineraries/${published}/segments`, { engine: 'freehand', coordinates: [A, B, C] });
  const view = (await call('GET', `/v1/itineraries/${published}`)).data;
  await call('POST', `/v1/itineraries/${published}/segment-groups`, {
    name: 'Day 1',
    color: '#2b8a3e',
    segment_ids: [view.segments[0].id],
  });
  await call('POST', `/v1/itineraries/${published}/publish`);
  secret = (await call('POST', '/v1/itineraries', { name: 'Secret spot', privacy: 'private' })).data.id;
  await call('POST', `/v1/itineraries/${secret}/segments`, { engine: 'freehand', coordinates: [A, B] });
  await call('POST', `/v1/itineraries/${secret}/publish`);
  await call('PUT', `/v1/collections/${org.collection.id}/itineraries/${secret}`);
  unpublished = (await call('POST', '/v1/itineraries', { name: 'Not yet', privacy: 'public' })).data.id;
  await call('POST', `/v1/itineraries/${unpublished}/segments`, { engine: 'freehand', coordinates: [A, C] });
  await call('PUT', `/v1/collections/${org.collection.id}/itineraries/${published}`);
  await call('PUT', `/v1/collections/${org.collection.id}/itineraries/${unpublished}`);
  const zone = (
    await call('POST', '/v1/zones', {
      name: 'Rockfall',
      level: 'DANGER',
      mode: 'CIRCLE',
      geometry: { type: 'Point', coordinates: B },
      radius_m: 150,
      privacy: 'public',
    })
  ).data;
  await call('PUT', `/v1/collections/${org.collection.id}/zones/${zone.id}`);
  const corridor = (
    await call('POST', '/v1/zones', {
      name: 'Snow bridge',
      level: 'WARNING',
      mode: 'CORRIDOR',
      geometry: { type: 'LineString', coordinates: [A, C] },
      width_m: 40,
      privacy: 'public',
    })
  ).data;
  await call('PUT', `/v1/collections/${org.collection.id}/zones/${corridor.id}`);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('overlay tiles', () => {
  it("an itinerary's tile holds its published segments (engine, group name and colour) and waypoints", async () => {
    // z12: one tile holds the whole walk, both its ends included.
    const t = await tile(`/v1/tiles/itineraries/${published}/${tilePath(B, 12)}.mvt`);
    expect(t.status).toBe(200);
    expect(t.res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(t.res.headers.get('cache-control')).toBe('private, no-cache');
    const line = t.layers['itineraries']!.feature(0);
    expect(line.type).toBe(2);
    expect(line.properties).toMatchObject({
      itinerary_id: published,
      itinerary_name: 'Ridge walk',
      engine: 'freehand',
      group_name: 'Day 1',
      color: '#2b8a3e',
    });
    expect(t.layers['waypoints']!.length).toBe(2);
    expect(t.layers['zones']).toBeUndefined();
  });

  it('a never-published itinerary has no overlay: 404 for its tiles and its style', async () => {
    expect((await tile(`/v1/tiles/itineraries/${unpublished}/${tilePath(B, 14)}.mvt`)).status).toBe(404);
    const spec = await fetch(`${server.url}/v1/tiles/overlays/itineraries/${unpublished}.json`, {
      headers: { 'X-API-Key': org.publishableKey.key },
    });
    expect(spec.status).toBe(404);
  });

  it("a collection's tile holds its published itineraries only (private ones with a session), and its zones as their true shapes", async () => {
    const ids = (t: Awaited<ReturnType<typeof tile>>) =>
      new Set(
        Array.from({ length: t.layers['itineraries']!.length }, (_, i) => t.layers['itineraries']!.feature(i).properties['itinerary_id']),
      );
    const path = `/v1/tiles/collections/${org.collection.id}/${tilePath(B, 12)}.mvt`;
    const t = await tile(path);
    expect(t.status).toBe(200);
    expect([...ids(t)]).toEqual([published]); // a bare key lists public items only; `unpublished` was never published
    const withSession = await tile(path, { 'X-API-Key': org.publishableKey.key, 'X-Session-Token': await mintSessionToken(server, org) });
    expect(ids(withSession)).toEqual(new Set([published, secret]));
    expect(withSession.etag).not.toBe(t.etag);
    const zones = Array.from({ length: t.layers['zones']!.length }, (_, i) => t.layers['zones']!.feature(i));
    // A corridor is its line buffered by half its width: an area, not a line.
    expect(zones.find((z) => z.properties['mode'] === 'CORRIDOR')).toMatchObject({
      type: 3,
      properties: { width_m: 40, level: 'WARNING' },
    });
    const zone = zones.find((z) => z.properties['mode'] === 'CIRCLE')!;
    expect(zone.type).toBe(3); // a circle zone is drawn as a polygon, not a point
    expect(zone.properties).toMatchObject({ name: 'Rockfall', level: 'DANGER', mode: 'CIRCLE', radius_m: 150 });
    // 150 m of radius at z12 (~7.2 km a tile of 4096 units here): a round ring ~170 units across, as wide as high.
    const ring = zone.loadGeometry()[0]!;
    const xs = ring.map((p) => p.x);
    const ys = ring.map((p) => p.y);
    const [width, height] = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
    expect(ring.length).toBeGreaterThan(8);
    expect(width).toBeGreaterThan(140);
    expect(width).toBeLessThan(200);
    expect(Math.abs(width - height)).toBeLessThan(10);
  });

  it('a draft edit leaves the tiles as published; publishing changes them', async () => {
    const path = `/v1/tiles/itineraries/${published}/${tilePath(B, 14)}.mvt`;
    const before = await tile(path);
    await call('PATCH', `/v1/itineraries/${published}`, { name: 'Ridge walk, longer' });
    const afterEdit = await tile(path, { 'X-API-Key': org.publishableKey.key, 'If-None-Match': before.etag as string });
    expect(afterEdit.status).toBe(304);
    await call('POST', `/v1/itineraries/${published}/publish`);
    const afterPublish = await tile(path, { 'X-API-Key': org.publishableKey.key, 'If-None-Match': before.etag as string });
    expect(afterPublish.status).toBe(200);
    expect(afterPublish.layers['itineraries']!.feature(0).properties['itinerary_name']).toBe('Ridge walk, longer');
  });

  it('share links reach what they cover; other organizations do not see a private itinerary', async () => {
    const owner = await login(server, org.owner.email, org.owner.password);
    const mint = async (path: string) =>
      ((await (await fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${owner}` } })).json()) as any).data
        .token as string;
    const collectionShare = await mint(`/v1/collections/${org.collection.id}/share`);
    const viaLink = await tile(`/v1/tiles/collections/${org.collection.id}/${tilePath(B, 15)}.mvt?share_token=${collectionShare}`, {});
    expect(viaLink.status).toBe(200);
    expect(viaLink.layers['itineraries']!.length).toBeGreaterThan(0);
    const itineraryShare = await mint(`/v1/itineraries/${published}/share`);
    expect((await tile(`/v1/tiles/itineraries/${published}/${tilePath(B, 14)}.mvt?share_token=${itineraryShare}`, {})).status).toBe(200);
    expect((await tile(`/v1/tiles/collections/${org.collection.id}/${tilePath(B, 14)}.mvt?share_token=${itineraryShare}`, {})).status).toBe(
      404,
    );
    const stranger = { 'X-API-Key': other.publishableKey.key };
    expect((await tile(`/v1/tiles/itineraries/${secret}/${tilePath(B, 12)}.mvt`, stranger)).status).toBe(404);
    expect((await tile(`/v1/tiles/itineraries/${published}/${tilePath(B, 12)}.mvt`, stranger)).status).toBe(200);
  });

  it('the style fragment names the tiles and draws each layer', async () => {
    const res = await fetch(`${server.url}/v1/tiles/overlays/collections/${org.collection.id}.json`, {
      headers: { 'X-API-Key': org.publishableKey.key },
    });
    expect(res.status).toBe(200);
    const spec = (await res.json()) as any;
    const [name, source] = Object.entries(spec.sources)[0] as [string, any];
    expect(source).toMatchObject({ type: 'vector', tiles: [`${server.url}/v1/tiles/collections/${org.collection.id}/{z}/{x}/{y}.mvt`] });
    expect(new Set(spec.layers.map((l: any) => l['source-layer']))).toEqual(new Set(['zones', 'itineraries', 'waypoints']));
    expect(spec.layers.every((l: any) => l.source === name)).toBe(true);
  });

  it('refuses a bad address with its path', async () => {
    const res = await fetch(`${server.url}/v1/tiles/itineraries/${published}/19/0/0.mvt`, {
      headers: { 'X-API-Key': org.publishableKey.key },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0].path).toEqual(['request', 'params', 'z']);
    expect(
      (await fetch(`${server.url}/v1/tiles/itineraries/not-a-uuid/1/0/0.mvt`, { headers: { 'X-API-Key': org.publishableKey.key } })).status,
    ).toBe(400);
  });
});
