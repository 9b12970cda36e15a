// GET /studio/layers and GET /studio/activities over HTTP: what the embed and the planner may show, capped by the
// organization's embed settings, for each credential the studio surfaces take (key, share link, signed-in member).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, type Bootstrapped, bootstrap, login, mintSessionToken, type ServerUnderTest } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';

let server: ServerUnderTest;
let org: Bootstrapped;
/** The bootstrapped organization holds the intelligence product: its studio surfaces need a session token. */
let keyHeaders: Record<string, string>;

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await server.fetch(`${server.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' });
  org = bootstrap(server);
  keyHeaders = { 'X-API-Key': org.publishableKey.key, 'X-Session-Token': await mintSessionToken(server, org) };
}, 30_000);
afterAll(() => server?.stop());

describe('GET /studio/layers', () => {
  it('lists the layers the organization allows, with where each comes from, and what its settings withhold', async () => {
    const all = await get('/studio/layers', keyHeaders);
    expect(all.status).toBe(200);
    expect(all.body.data.organization_id).toBe(org.organization.id);
    expect(all.body.data.layers.map((l: any) => l.id)).toEqual(['trails', 'itineraries', 'waypoints', 'zones']);
    expect(all.body.data.layers[0]).toMatchObject({ kind: 'base', source: `${server.url}/v1/tiles/trails.json` });
    admin(server, 'set', '--org', org.organization.id, 'embed.layers=trails,zones');
    const capped = await get('/studio/layers', keyHeaders);
    expect(capped.body.data.layers.map((l: any) => l.id)).toEqual(['trails', 'zones']);
    expect(capped.body.data.withheld).toEqual(['itineraries', 'waypoints']);
    admin(server, 'set', '--org', org.organization.id, 'embed.layers=trails,itineraries,waypoints,zones');
  });

  it('answers a share link with the sharing organization’s layers, and a signed-in member with their organization’s', async () => {
    const token = await login(server, org.owner.email, org.owner.password);
    const shared = await server.fetch(`${server.url}/v1/collections/${org.collection.id}/share`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    const shareToken = ((await shared.json()) as any).data.token as string;
    const viaLink = await get(`/studio/layers?share_token=${shareToken}`);
    expect(viaLink.status).toBe(200);
    expect(viaLink.body.data.organization_id).toBe(org.organization.id);
    const member = await get('/studio/layers', { Authorization: `Bearer ${token}` });
    expect(member.status).toBe(200);
    expect(member.body.data.organization_id).toBe(org.organization.id);
    const stranger = await get(`/studio/layers?organization_id=${bootstrap(server).organization.id}`, { Authorization: `Bearer ${token}` });
    expect(stranger.status).toBe(404);
  });

  it('refuses a key without embedding (403) and no credential (401)', async () => {
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'Data', '--scopes', 'data');
    expect((await get('/studio/layers', { 'X-API-Key': dataOnly.api_key.key })).status).toBe(403);
    expect((await get('/studio/layers')).status).toBe(401);
  });
});

describe('GET /studio/activities', () => {
  it('lists every activity with its profile: access tags, ways, difficulty and flat speeds', async () => {
    const res = await get('/studio/activities', keyHeaders);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.activities.map((a: any) => [a.id, a]));
    expect(Object.keys(byId).sort()).toEqual(['HIKING_AND_TRAIL', 'MOUNTAIN_BIKING', 'ROAD_CYCLING', 'TRAIL_RUNNING', 'WALKING']);
    // Tobler on the flat: 6·e^(−3.5·0.05) ≈ 5.0 km/h; trail running 1.8 times that.
    expect(byId.HIKING_AND_TRAIL).toMatchObject({ access: ['foot', 'access'], max_sac_scale: 'T6', flat_speed_kmh: { path: 5 } });
    expect(byId.TRAIL_RUNNING.flat_speed_kmh.path).toBe(9.1);
    expect(byId.WALKING.max_sac_scale).toBe('T2');
    expect(byId.ROAD_CYCLING).toMatchObject({
      access: ['bicycle', 'access'],
      max_sac_scale: null,
      flat_speed_kmh: { paved_road: 25 },
      oneway_respected: true,
    });
    expect(byId.MOUNTAIN_BIKING.highways).not.toContain('steps');
    expect(byId.HIKING_AND_TRAIL.highways).toContain('steps');
    expect(byId.HIKING_AND_TRAIL.highways).not.toContain('motorway');
  });
});
