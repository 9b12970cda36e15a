// Segment, waypoint, group and lock operations over real HTTP: each success keeps the chain continuous,
// and each documented refusal (400 per field, 403, 404, 409 with holder.id) answers as the spec says.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer, login as loginAs } from '../../../helpers/server.js';
import { expectContinuousChain, httpClient, networkPoints, type Send } from './chain-helpers.js';

const NOBODY = '00000000-0000-0000-0000-000000000000';
let server: RunningServer;
let A: Bootstrapped;
let B: Bootstrapped;
let owner: Send; // A's key acting as the owner
let other: Send; // A's key acting as a contributor
let viewer: Send; // signed-in viewer
let outsider: Send; // B's key
let contributorId: string;
const P = () => networkPoints();
const code = (r: { body: any }) => r.body?.errors?.[0]?.extensions?.code;
const paths = (r: { body: any }) => (r.body?.errors ?? []).map((e: any) => e.path);

const login = (email: string, password: string) => loginAs(server, email, password);

let counter = 0;
/** A new itinerary of A with a smart, a freehand and a smart segment, all locked by the owner. */
async function chain3(): Promise<any> {
  const c = await owner('POST', '/v1/itineraries', { name: `Chain ${++counter}` });
  const id = c.body.data.id;
  await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: P()[7] });
  await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'freehand', coordinates: [[1.566, 42.503], P()[8]] });
  const r = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', to: P()[9] });
  expect(r.status).toBe(201);
  expectContinuousChain(r.body.data);
  return r.body.data;
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  A = bootstrap(server);
  B = bootstrap(server);
  contributorId = admin(server, 'create-user', '--email', 'c@a.test', '--password', 'contrib-pass-1').user.id;
  const viewerId = admin(server, 'create-user', '--email', 'v@a.test', '--password', 'viewer-pass-1').user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', contributorId, '--role', 'contributor');
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');
  owner = httpClient(server.url, { 'X-API-Key': A.publishableKey.key, 'X-User-Id': A.owner.id });
  other = httpClient(server.url, { 'X-API-Key': A.publishableKey.key, 'X-User-Id': contributorId });
  viewer = httpClient(server.url, { Authorization: `Bearer ${await login('v@a.test', 'viewer-pass-1')}` });
  outsider = httpClient(server.url, { 'X-API-Key': B.publishableKey.key, 'X-User-Id': B.owner.id });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('append', () => {
  it('a smart segment on an empty itinerary needs `from` (400 at that field)', async () => {
    const c = await owner('POST', '/v1/itineraries', { name: 'No start' });
    const r = await owner('POST', `/v1/itineraries/${c.body.data.id}/segments`, { engine: 'smart', to: P()[7] });
    expect(r.status).toBe(400);
    expect(code(r)).toBe('VALIDATION_FAILED');
    expect(paths(r)).toEqual([['request', 'body', 'from']]);
  });

  it('routes smart segments exactly from and to the waypoints and continues from the end', async () => {
    const it1 = await chain3();
    expect(it1.segments.map((s: any) => s.engine)).toEqual(['smart', 'freehand', 'smart']);
    expect(it1.waypoints[0].coordinates.slice(0, 2)).toEqual(P()[5]);
    expect(it1.waypoints[3].coordinates.slice(0, 2)).toEqual(P()[9]);
    for (const s of it1.segments) {
      expect(s.distance).toBeGreaterThan(0);
      expect(s.duration).toBeGreaterThan(0);
      expect(s.geometry.coordinates[0]).toHaveLength(3);
    }
    expect(it1.version).toBe(4);
  });

  it('answers 400 per coordinate out of range and for a wrong shape', async () => {
    const c = await owner('POST', '/v1/itineraries', { name: 'Bad coordinates' });
    const id = c.body.data.id;
    const r = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [200, 42.5], to: [1.5, 95] });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual([
      ['request', 'body', 'to', 1],
      ['request', 'body', 'from', 0],
    ]);
    const shape = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.5], to: ['a', 1] });
    expect(shape.status).toBe(400);
    expect(paths(shape)).toEqual(
      expect.arrayContaining([
        ['request', 'body', 'from'],
        ['request', 'body', 'to', 0],
      ]),
    );
  });

  it('an unroutable smart segment answers 400 VALIDATION_FAILED at the point and changes nothing', async () => {
    const c = await owner('POST', '/v1/itineraries', { name: 'Unroutable' });
    const id = c.body.data.id;
    const r = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: [10, 10] });
    expect(r.status).toBe(400);
    expect(code(r)).toBe('VALIDATION_FAILED');
    expect(paths(r)).toEqual([['request', 'body', 'to']]);
    const after = await owner('GET', `/v1/itineraries/${id}`);
    expect(after.body.data.version).toBe(1);
    expect(after.body.data.segments).toEqual([]);
  });

  it('concurrent appends to one itinerary all land, one after the other, in a continuous chain', async () => {
    const c = await owner('POST', '/v1/itineraries', { name: 'Concurrent appends' });
    const id = c.body.data.id;
    await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: P()[7] });
    const results = await Promise.all(
      [8, 9, 10, 11, 12, 13].map((i, n) =>
        owner(
          'POST',
          `/v1/itineraries/${id}/segments`,
          n % 2 ? { engine: 'smart', to: P()[i] } : { engine: 'freehand', coordinates: [P()[i]] },
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const after = (await owner('GET', `/v1/itineraries/${id}`)).body.data;
    expect(after.segments).toHaveLength(7);
    expect(after.version).toBe(8);
    expectContinuousChain(after);
  });

  it("another organization's key cannot append to a private itinerary (404) and a viewer cannot (403)", async () => {
    const it1 = await chain3();
    const r = await outsider('POST', `/v1/itineraries/${it1.id}/segments`, { engine: 'smart', to: P()[6] });
    expect(r.status).toBe(404);
    const v = await viewer('POST', `/v1/itineraries/${it1.id}/segments`, { engine: 'smart', to: P()[6] });
    expect(v.status).toBe(403);
  });
});

describe('lock-guarded segment operations', () => {
  it('insert without the lock answers 409 with the all-zero holder; held by another member, with that member', async () => {
    const it1 = await chain3();
    await owner('DELETE', `/v1/itineraries/${it1.id}/locks`);
    const body = { before_segment_id: it1.segments[1].id, point: P()[11], engine: 'smart' };
    const none = await owner('POST', `/v1/itineraries/${it1.id}/segments/insert`, body);
    expect(none.status).toBe(409);
    expect(code(none)).toBe('CONFLICT');
    expect(none.body.extensions.metadata.holder.id).toBe(NOBODY);
    expect((await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: [{ type: 'segment', id: it1.segments[0].id }] })).status).toBe(
      200,
    );
    const held = await owner('POST', `/v1/itineraries/${it1.id}/segments/insert`, body);
    expect(held.status).toBe(409);
    expect(held.body.extensions.metadata.holder.id).toBe(contributorId);
    const unchanged = await owner('GET', `/v1/itineraries/${it1.id}`);
    expect(unchanged.body.data).toEqual(it1);
  });

  it('insert between neighbours renumbers, re-routes the following segment from the point and stays continuous', async () => {
    const it1 = await chain3();
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segments/insert`, {
      before_segment_id: it1.segments[2].id,
      point: P()[11],
      engine: 'smart',
    });
    expect(r.status).toBe(201);
    const next = r.body.data;
    expectContinuousChain(next);
    expect(next.segments).toHaveLength(4);
    expect(next.waypoints[3].coordinates.slice(0, 2)).toEqual(P()[11]);
    expect(next.segments[3].id).toBe(it1.segments[2].id);
  });

  it('insert before the first segment makes the point the new start', async () => {
    const it1 = await chain3();
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segments/insert`, {
      before_segment_id: it1.segments[0].id,
      point: P()[4],
      engine: 'freehand',
    });
    expect(r.status).toBe(201);
    expectContinuousChain(r.body.data);
    expect(r.body.data.waypoints[0].coordinates.slice(0, 2)).toEqual(P()[4]);
    expect(r.body.data.segments[0].engine).toBe('freehand');
  });

  it('split at a point projects it onto the segment and creates a waypoint there', async () => {
    const it1 = await chain3();
    const mid = it1.segments[0].geometry.coordinates[Math.floor(it1.segments[0].geometry.coordinates.length / 2)];
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}/split`, { point: [mid[0] + 0.00001, mid[1]] });
    expect(r.status).toBe(200);
    expectContinuousChain(r.body.data);
    expect(r.body.data.segments).toHaveLength(4);
    const total = r.body.data.segments[0].distance + r.body.data.segments[1].distance;
    expect(total).toBeCloseTo(it1.segments[0].distance, 6);
  });

  it('merge with a neighbour of another engine answers 400; with the same engine joins them', async () => {
    const it1 = await chain3();
    const bad = await owner('POST', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}/merge`, {
      with_segment_id: it1.segments[1].id,
    });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual([['request', 'body', 'with_segment_id']]);
    const mode = await owner('PATCH', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}/mode`, { engine: 'smart' });
    expect(mode.status).toBe(200);
    expectContinuousChain(mode.body.data);
    const merged = await owner('POST', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}/merge`, {
      with_segment_id: it1.segments[1].id,
    });
    expect(merged.status).toBe(200);
    expectContinuousChain(merged.body.data);
    expect(merged.body.data.segments).toHaveLength(2);
  });

  it('mode freehand to smart keeps the exact original start and end', async () => {
    const it1 = await chain3();
    const f = it1.segments[1];
    const r = await owner('PATCH', `/v1/itineraries/${it1.id}/segments/${f.id}/mode`, { engine: 'smart' });
    expect(r.status).toBe(200);
    const s = r.body.data.segments[1];
    expect(s.engine).toBe('smart');
    expect(s.geometry.coordinates[0].slice(0, 2)).toEqual(f.geometry.coordinates[0].slice(0, 2));
    expect(s.geometry.coordinates.at(-1).slice(0, 2)).toEqual(f.geometry.coordinates.at(-1).slice(0, 2));
    expectContinuousChain(r.body.data);
  });

  it('segment PUT refuses `mode` (400), coordinates on a smart segment (400) and freehand ends off its waypoints (400)', async () => {
    const it1 = await chain3();
    const base = `/v1/itineraries/${it1.id}/segments`;
    const mode = await owner('PUT', `${base}/${it1.segments[1].id}`, { mode: 'smart' });
    expect(mode.status).toBe(400);
    expect(paths(mode)).toEqual([['request', 'body', 'mode']]);
    const smart = await owner('PUT', `${base}/${it1.segments[0].id}`, { coordinates: [P()[5], P()[7]] });
    expect(paths(smart)).toEqual([['request', 'body', 'coordinates']]);
    const ends = await owner('PUT', `${base}/${it1.segments[1].id}`, {
      coordinates: [
        [1.5, 42.5],
        [1.51, 42.51],
      ],
    });
    expect(ends.status).toBe(400);
    expect(paths(ends)).toEqual([
      ['request', 'body', 'coordinates', 0],
      ['request', 'body', 'coordinates', 1],
    ]);
  });

  it('segment PUT renames and redraws a freehand segment between its waypoints', async () => {
    const it1 = await chain3();
    const w1 = it1.waypoints[1].coordinates;
    const w2 = it1.waypoints[2].coordinates;
    const r = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}`, {
      name: 'Shortcut',
      coordinates: [w1, [(w1[0] + w2[0]) / 2, (w1[1] + w2[1]) / 2 + 0.001], w2],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.segments[1].name).toBe('Shortcut');
    expect(r.body.data.segments[1].geometry.coordinates).toHaveLength(3);
    expectContinuousChain(r.body.data);
  });

  it('delete of a middle segment closes the chain up; an unknown segment is 404', async () => {
    const it1 = await chain3();
    const r = await owner('DELETE', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}`);
    expect(r.status).toBe(200);
    expect(r.body.data.segments).toHaveLength(2);
    expectContinuousChain(r.body.data);
    const unknown = await owner('DELETE', `/v1/itineraries/${it1.id}/segments/00000000-0000-4000-8000-000000000009`);
    expect(unknown.status).toBe(404);
  });
});

describe('waypoints', () => {
  it('moving a waypoint re-routes the smart neighbour and moves the freehand end vertex', async () => {
    const it1 = await chain3();
    const r = await owner('PUT', `/v1/itineraries/${it1.id}/waypoints/${it1.waypoints[1].id}`, {
      name: 'Col',
      kind: 'pass',
      coordinates: P()[6],
    });
    expect(r.status).toBe(200);
    const next = r.body.data;
    expectContinuousChain(next);
    expect(next.waypoints[1]).toMatchObject({ name: 'Col', kind: 'pass' });
    expect(next.waypoints[1].coordinates.slice(0, 2)).toEqual(P()[6]);
    // The freehand segment after it keeps its drawn vertices; only its first one moved.
    const drawn = it1.segments[1].geometry.coordinates.map((c: number[]) => c.slice(0, 2));
    const moved = next.segments[1].geometry.coordinates.map((c: number[]) => c.slice(0, 2));
    expect(moved.slice(1)).toEqual(drawn.slice(1));
    expect(moved[0]).toEqual(P()[6]);
    expect(next.segments[0].engine).toBe('smart');
    expect(next.segments[0].geometry.coordinates.at(-1).slice(0, 2)).toEqual(P()[6]);
  });

  it('PUT describes a waypoint; the draft, the published snapshot and a duplicate show it; null clears it', async () => {
    const it1 = await chain3();
    expect(it1.waypoints.map((w: any) => w.description)).toEqual([null, null, null, null]);
    const url = `/v1/itineraries/${it1.id}/waypoints/${it1.waypoints[1].id}`;
    const text = 'Hut, 40 places\n\nOpen\tJune to September';
    const set = await owner('PUT', url, { description: text });
    expect(set.status).toBe(200);
    expect(set.body.data.waypoints[1]).toMatchObject({ id: it1.waypoints[1].id, name: null, description: text });
    // Renaming leaves the description as it is.
    expect((await owner('PUT', url, { name: 'Hut' })).status).toBe(200);
    const draft = await owner('GET', `/v1/itineraries/${it1.id}?version=draft`);
    expect(draft.body.data.waypoints.map((w: any) => [w.name, w.description])).toEqual([
      [null, null],
      ['Hut', text],
      [null, null],
      [null, null],
    ]);
    expect((await owner('POST', `/v1/itineraries/${it1.id}/publish`)).status).toBe(200);
    const copy = await owner('POST', `/v1/itineraries/${it1.id}/duplicate`, {});
    expect(copy.status).toBe(201);
    expect(copy.body.data.waypoints[1]).toMatchObject({ name: 'Hut', description: text });
    const cleared = await owner('PUT', url, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.waypoints[1]).toMatchObject({ name: 'Hut', description: null });
    const published = await owner('GET', `/v1/itineraries/${it1.id}?version=published`);
    expect(published.body.data.waypoints[1]).toMatchObject({ name: 'Hut', description: text });
  });

  it('PUT refuses a description that is not text, too long or with control characters, at its path', async () => {
    const it1 = await chain3();
    const url = `/v1/itineraries/${it1.id}/waypoints/${it1.waypoints[1].id}`;
    for (const bad of [42, ['Spring'], 'x'.repeat(5001), 'Bell\u0007']) {
      const r = await owner('PUT', url, { description: bad });
      expect(r.status, JSON.stringify(bad).slice(0, 20)).toBe(400);
      expect(code(r)).toBe('VALIDATION_FAILED');
      expect(paths(r)).toEqual([['request', 'body', 'description']]);
    }
    const longest = await owner('PUT', url, { description: 'x'.repeat(5000) });
    expect(longest.body.data.waypoints[1].description).toHaveLength(5000);
  });

  it('deleting a middle waypoint joins its neighbours; the guard names the holder', async () => {
    const it1 = await chain3();
    await owner('DELETE', `/v1/itineraries/${it1.id}/locks`);
    await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: [{ type: 'waypoint', id: it1.waypoints[2].id }] });
    const held = await owner('DELETE', `/v1/itineraries/${it1.id}/waypoints/${it1.waypoints[2].id}`);
    expect(held.status).toBe(409);
    expect(held.body.extensions.metadata.holder.id).toBe(contributorId);
    await other('DELETE', `/v1/itineraries/${it1.id}/locks`);
    expect((await owner('POST', `/v1/itineraries/${it1.id}/locks`, { parts: 'all' })).status).toBe(200);
    const r = await owner('DELETE', `/v1/itineraries/${it1.id}/waypoints/${it1.waypoints[2].id}`);
    expect(r.status).toBe(200);
    expect(r.body.data.segments).toHaveLength(2);
    expect(r.body.data.waypoints).toHaveLength(3);
    expectContinuousChain(r.body.data);
  });
});

describe('segment groups', () => {
  it('creates a group over neighbouring segments and answers the ItinerarySegmentGroup', async () => {
    const it1 = await chain3();
    const r = await owner('POST', `/v1/itineraries/${it1.id}/segment-groups`, {
      name: 'Climb',
      color: '#ff8800',
      speed: 3.5,
      segment_ids: [it1.segments[0].id, it1.segments[1].id],
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({ id: expect.any(String), name: 'Climb', color: '#ff8800', speed: 3.5 });
    const read = await owner('GET', `/v1/itineraries/${it1.id}`);
    expect(read.body.data.groups).toEqual([r.body.data]);
    expect(read.body.data.segments.map((s: any) => s.groupId)).toEqual([r.body.data.id, r.body.data.id, null]);
  });

  it('refuses segments that are not neighbours, already grouped, or unknown (400 per field)', async () => {
    const it1 = await chain3();
    const ids = it1.segments.map((s: any) => s.id);
    const base = `/v1/itineraries/${it1.id}/segment-groups`;
    const gap = await owner('POST', base, { name: 'Gap', color: '#000', segment_ids: [ids[0], ids[2]] });
    expect(gap.status).toBe(400);
    expect(paths(gap)).toEqual([['request', 'body', 'segment_ids']]);
    await owner('POST', base, { name: 'First', color: '#000', segment_ids: [ids[0]] });
    const twice = await owner('POST', base, { name: 'Again', color: '#000', segment_ids: [ids[0], ids[1]] });
    expect(paths(twice)).toEqual([['request', 'body', 'segment_ids', 0]]);
    const bad = await owner('POST', base, { name: 'Bad', color: 'red', segment_ids: [] });
    expect(paths(bad)).toEqual(
      expect.arrayContaining([
        ['request', 'body', 'color'],
        ['request', 'body', 'segment_ids'],
      ]),
    );
  });

  it('segment PUT joins a neighbouring segment to a group, and refuses one that would leave a hole (400)', async () => {
    const it1 = await chain3();
    const g = (
      await owner('POST', `/v1/itineraries/${it1.id}/segment-groups`, { name: 'G', color: '#abc', segment_ids: [it1.segments[0].id] })
    ).body.data;
    const far = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[2].id}`, { group_id: g.id });
    expect(far.status).toBe(400);
    expect(paths(far)).toEqual([['request', 'body', 'group_id']]);
    const near = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}`, { group_id: g.id });
    expect(near.status).toBe(200);
    expect(near.body.data.segments.map((s: any) => s.groupId)).toEqual([g.id, g.id, null]);
    const hole = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[2].id}`, { group_id: g.id });
    expect(hole.status).toBe(200);
    const middle = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}`, { group_id: null });
    expect(middle.status).toBe(400);
    const unknown = await owner('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[1].id}`, { group_id: it1.segments[0].id });
    expect(paths(unknown)).toEqual([['request', 'body', 'group_id']]);
  });

  it('update and delete need the group lock; delete ungroups its segments', async () => {
    const it1 = await chain3();
    const g = (
      await owner('POST', `/v1/itineraries/${it1.id}/segment-groups`, { name: 'G', color: '#123456', segment_ids: [it1.segments[2].id] })
    ).body.data;
    const byOther = await other('PUT', `/v1/itineraries/${it1.id}/segment-groups/${g.id}`, { name: 'Mine now' });
    expect(byOther.status).toBe(409);
    expect(byOther.body.extensions.metadata.holder.id).toBe(A.owner.id);
    const put = await owner('PUT', `/v1/itineraries/${it1.id}/segment-groups/${g.id}`, { name: 'Descent', speed: null });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ id: g.id, name: 'Descent', color: '#123456', speed: null });
    const del = await owner('DELETE', `/v1/itineraries/${it1.id}/segment-groups/${g.id}`);
    expect(del.status).toBe(204);
    const read = await owner('GET', `/v1/itineraries/${it1.id}`);
    expect(read.body.data.groups).toEqual([]);
    expect(read.body.data.segments.every((s: any) => s.groupId === null)).toBe(true);
    expect((await owner('DELETE', `/v1/itineraries/${it1.id}/segment-groups/${g.id}`)).status).toBe(404);
  });
});

describe('locks', () => {
  it('taking locks is all or nothing, listing shows holders, releasing frees them', async () => {
    const it1 = await chain3();
    const list = await owner('GET', `/v1/itineraries/${it1.id}/locks`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3 + 4);
    expect(list.body.data.every((l: any) => l.holder.id === A.owner.id)).toBe(true);
    const refused = await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: 'all' });
    expect(refused.status).toBe(409);
    expect(refused.body.extensions.metadata.holder.id).toBe(A.owner.id);
    expect((await owner('DELETE', `/v1/itineraries/${it1.id}/locks`)).status).toBe(204);
    const taken = await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: 'all' });
    expect(taken.status).toBe(200);
    expect(taken.body.data.every((l: any) => l.holder.id === contributorId)).toBe(true);
    const unknown = await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: [{ type: 'segment', id: it1.waypoints[0].id }] });
    expect(unknown.status).toBe(400);
    expect(paths(unknown)).toEqual([['request', 'body', 'parts', 0, 'id']]);
  });
});
