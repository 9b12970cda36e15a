// Itinerary records over real HTTP: create, read (draft, published, share token), update, delete,
// duplicate and publish, with each documented failure.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer, login as loginAs } from '../../../helpers/server.js';
import { expectContinuousChain, httpClient, networkPoints, type Send } from './chain-helpers.js';

let server: RunningServer;
let A: Bootstrapped;
let B: Bootstrapped;
let asOwnerKey: Send; // A's publishable key acting as A's owner
let asBKey: Send; // B's publishable key acting as B's owner
let asContributor: Send; // signed-in contributor of A
let asViewer: Send; // signed-in viewer of A
let asOwnerUser: Send;
let anonymous: Send;
let ownerToken: string;
let viewerId: string;
let contributorId: string;
const P = () => networkPoints();

const login = (email: string, password: string) => loginAs(server, email, password);

const code = (r: { body: any }) => r.body?.errors?.[0]?.extensions?.code;
const paths = (r: { body: any }) => (r.body?.errors ?? []).map((e: any) => e.path);

async function createWithChain(send: Send, name: string, extra: Record<string, unknown> = {}) {
  const created = await send('POST', '/v1/itineraries', { name, ...extra });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const a = await send('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: P()[7] });
  expect(a.status).toBe(201);
  const b = await send('POST', `/v1/itineraries/${id}/segments`, { engine: 'freehand', coordinates: [P()[8]] });
  expect(b.status).toBe(201);
  const c = await send('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', to: P()[9] });
  expect(c.status).toBe(201);
  return c.body.data;
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  A = bootstrap(server);
  B = bootstrap(server);
  const contributor = admin(server, 'create-user', '--email', 'c@a.test', '--password', 'contrib-pass-1');
  const viewer = admin(server, 'create-user', '--email', 'v@a.test', '--password', 'viewer-pass-1');
  contributorId = contributor.user.id;
  viewerId = viewer.user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', contributorId, '--role', 'contributor');
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');
  ownerToken = await login(A.owner.email, A.owner.password);
  asOwnerKey = httpClient(server.url, { 'X-API-Key': A.publishableKey.key, 'X-User-Id': A.owner.id });
  asBKey = httpClient(server.url, { 'X-API-Key': B.publishableKey.key, 'X-User-Id': B.owner.id });
  asContributor = httpClient(server.url, { Authorization: `Bearer ${await login('c@a.test', 'contrib-pass-1')}` });
  asViewer = httpClient(server.url, { Authorization: `Bearer ${await login('v@a.test', 'viewer-pass-1')}` });
  asOwnerUser = httpClient(server.url, { Authorization: `Bearer ${ownerToken}` });
  anonymous = httpClient(server.url, {});
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('POST /v1/itineraries', () => {
  it('creates an empty private draft with the default activity and an empty groups list', async () => {
    const r = await asOwnerKey('POST', '/v1/itineraries', { name: 'Empty one', description: 'd' });
    expect(r.status).toBe(201);
    expect(r.body.extensions).toEqual({ metadata: {} });
    expect(r.body.data).toMatchObject({
      name: 'Empty one',
      description: 'd',
      organization_id: A.organization.id,
      activity: 'HIKING_AND_TRAIL',
      privacy: 'private',
      version: 1,
      published_version: null,
      published_at: null,
      segments: [],
      waypoints: [],
      groups: [],
    });
  });

  it('a taken name answers 409 CONFLICT naming the itinerary that holds it', async () => {
    const first = await asOwnerKey('POST', '/v1/itineraries', { name: 'Taken name' });
    const again = await asContributor('POST', '/v1/itineraries', { name: 'Taken name' });
    expect(again.status).toBe(409);
    expect(code(again)).toBe('CONFLICT');
    expect(again.body.extensions.metadata.itinerary.id).toBe(first.body.data.id);
  });

  it('answers one 400 VALIDATION_FAILED entry per invalid field', async () => {
    const r = await asOwnerKey('POST', '/v1/itineraries', { activity: 'SWIMMING', privacy: 'secret' });
    expect(r.status).toBe(400);
    expect(r.body.errors.every((e: any) => e.extensions.code === 'VALIDATION_FAILED')).toBe(true);
    expect(paths(r)).toEqual(
      expect.arrayContaining([
        ['request', 'body', 'name'],
        ['request', 'body', 'activity'],
        ['request', 'body', 'privacy'],
      ]),
    );
  });

  it('without a credential answers 401 UNAUTHORIZED', async () => {
    const r = await anonymous('POST', '/v1/itineraries', { name: 'Nobody' });
    expect(r.status).toBe(401);
    expect(code(r)).toBe('UNAUTHORIZED');
  });

  it('a signed-in viewer and a key acting as a viewer both answer 403 FORBIDDEN', async () => {
    const r = await asViewer('POST', '/v1/itineraries', { name: 'Viewer made', organization_id: A.organization.id });
    expect(r.status).toBe(403);
    expect(code(r)).toBe('FORBIDDEN');
    const k = await asOwnerKey('POST', '/v1/itineraries', { name: 'Viewer via key' }, { 'X-User-Id': viewerId });
    expect(k.status).toBe(403);
  });

  it('at the plan limit for itineraries, create and duplicate answer 403 FORBIDDEN', async () => {
    const C = bootstrap(server);
    const asC = httpClient(server.url, { 'X-API-Key': C.publishableKey.key, 'X-User-Id': C.owner.id });
    const made = await asC('POST', '/v1/itineraries', { name: 'Only one' });
    expect(made.status).toBe(201);
    admin(server, 'set', '--org', C.organization.id, 'limits.itineraries=1');
    const r = await asC('POST', '/v1/itineraries', { name: 'One too many' });
    expect(r.status).toBe(403);
    expect(code(r)).toBe('FORBIDDEN');
    const d = await asC('POST', `/v1/itineraries/${made.body.data.id}/duplicate`, {});
    expect(d.status).toBe(403);
  });

  it('files the new itinerary in a collection of its organization', async () => {
    const r = await asOwnerKey('POST', '/v1/itineraries', { name: 'Filed', collection_id: A.collection.id });
    expect(r.status).toBe(201);
    const foreign = await asBKey('POST', '/v1/itineraries', { name: 'Filed elsewhere', collection_id: A.collection.id });
    expect(foreign.status).toBe(400);
    expect(paths(foreign)).toEqual([['request', 'body', 'collection_id']]);
  });
});

describe('GET /v1/itineraries/{itinerary_id}', () => {
  it("another organization's private itinerary and an unknown id both answer 404 NOT_FOUND", async () => {
    const mine = await asOwnerKey('POST', '/v1/itineraries', { name: 'Private to A' });
    const r = await asBKey('GET', `/v1/itineraries/${mine.body.data.id}`);
    expect(r.status).toBe(404);
    expect(code(r)).toBe('NOT_FOUND');
    const unknown = await asOwnerKey('GET', '/v1/itineraries/00000000-0000-4000-8000-000000000001');
    expect(unknown.status).toBe(404);
  });

  it("another organization's public itinerary is readable by id, but not writable (403)", async () => {
    const mine = await asOwnerKey('POST', '/v1/itineraries', { name: 'Public of A', privacy: 'public' });
    const id = mine.body.data.id;
    expect((await asBKey('GET', `/v1/itineraries/${id}`)).status).toBe(200);
    const w = await asBKey('PATCH', `/v1/itineraries/${id}`, { name: 'Taken over' });
    expect(w.status).toBe(403);
    expect(code(w)).toBe('FORBIDDEN');
  });

  it('version=published of a never-published itinerary answers 404 asking for the draft, and a share token cannot reach it', async () => {
    const it1 = await createWithChain(asOwnerKey, 'Never published');
    const r = await asOwnerKey('GET', `/v1/itineraries/${it1.id}?version=published`);
    expect(r.status).toBe(404);
    expect(r.body.errors[0].message).toBe('This itinerary is not published: ask for version draft, or publish it first.');
    const share = await asOwnerUser('POST', `/v1/itineraries/${it1.id}/share`);
    expect(share.status).toBe(201);
    const s = await anonymous('GET', `/v1/itineraries/${it1.id}`, undefined, { 'X-Share-Token': share.body.data.token });
    expect(s.status).toBe(404);
  });
});

describe('PATCH and DELETE', () => {
  it('PATCH changes only the fields sent and bumps the draft version', async () => {
    const c = await asOwnerKey('POST', '/v1/itineraries', { name: 'Before rename', description: 'keep me' });
    const r = await asContributor('PATCH', `/v1/itineraries/${c.body.data.id}`, { name: 'After rename', activity: 'WALKING' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'After rename',
      description: 'keep me',
      activity: 'WALKING',
      privacy: 'private',
      version: 2,
    });
  });

  it('a new activity re-routes the smart segments for it; one it cannot route is a 400 at activity and changes nothing', async () => {
    const draft = await createWithChain(asOwnerKey, 'Activity change');
    const walking = await asOwnerKey('PATCH', `/v1/itineraries/${draft.id}`, { activity: 'WALKING' });
    expect(walking.status).toBe(200);
    expect(walking.body.data.activity).toBe('WALKING');
    expect(walking.body.data.version).toBe(draft.version + 1);
    expectContinuousChain(walking.body.data);
    expect(walking.body.data.waypoints).toEqual(draft.waypoints);
    const cycling = await asOwnerKey('PATCH', `/v1/itineraries/${draft.id}`, { activity: 'ROAD_CYCLING', name: 'Renamed with it' });
    const now = await asOwnerKey('GET', `/v1/itineraries/${draft.id}`);
    if (cycling.status === 400) {
      expect(paths(cycling)).toEqual([['request', 'body', 'activity']]);
      expect(now.body.data).toEqual(walking.body.data);
    } else {
      expect(cycling.status).toBe(200);
      expect(now.body.data).toMatchObject({ activity: 'ROAD_CYCLING', name: 'Renamed with it' });
      expectContinuousChain(now.body.data);
    }
  });

  it('a rename onto a taken name answers 409 with the holder in itinerary.id', async () => {
    const a = await asOwnerKey('POST', '/v1/itineraries', { name: 'Rename holder' });
    const b = await asOwnerKey('POST', '/v1/itineraries', { name: 'Rename mover' });
    const r = await asOwnerKey('PATCH', `/v1/itineraries/${b.body.data.id}`, { name: 'Rename holder' });
    expect(r.status).toBe(409);
    expect(r.body.extensions.metadata.itinerary.id).toBe(a.body.data.id);
  });

  it('PATCH with an unknown field answers 400 at that field', async () => {
    const c = await asOwnerKey('POST', '/v1/itineraries', { name: 'Unknown field' });
    const r = await asOwnerKey('PATCH', `/v1/itineraries/${c.body.data.id}`, { colour: 'red' });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual([['request', 'body', 'colour']]);
  });

  it('DELETE answers 204 and the itinerary is gone; a viewer gets 403', async () => {
    const c = await asOwnerKey('POST', '/v1/itineraries', { name: 'To delete' });
    const id = c.body.data.id;
    expect((await asViewer('DELETE', `/v1/itineraries/${id}`)).status).toBe(403);
    const r = await asOwnerKey('DELETE', `/v1/itineraries/${id}`);
    expect(r.status).toBe(204);
    expect((await asOwnerKey('GET', `/v1/itineraries/${id}`)).status).toBe(404);
  });
});

describe('publish', () => {
  it('a share token reads the published snapshot, unchanged by later edits', async () => {
    const draft = await createWithChain(asOwnerKey, 'Published walk');
    const pub = await asOwnerKey('POST', `/v1/itineraries/${draft.id}/publish`);
    expect(pub.status).toBe(200);
    expect(pub.body.data.published_version).toBe(draft.version);
    expect(pub.body.data.published_at).toEqual(expect.any(String));
    const token = (await asOwnerUser('POST', `/v1/itineraries/${draft.id}/share`)).body.data.token;
    const before = await anonymous('GET', `/v1/itineraries/${draft.id}`, undefined, { 'X-Share-Token': token });
    expect(before.status).toBe(200);
    expect(before.body.data.segments).toHaveLength(3);

    const edit = await asOwnerKey('POST', `/v1/itineraries/${draft.id}/segments`, { engine: 'freehand', coordinates: [P()[10]] });
    expect(edit.status).toBe(201);
    await asOwnerKey('PATCH', `/v1/itineraries/${draft.id}`, { name: 'Renamed after publishing' });

    const after = await anonymous('GET', `/v1/itineraries/${draft.id}`, undefined, { 'X-Share-Token': token });
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(before.body.data);
    const asKey = await asOwnerKey('GET', `/v1/itineraries/${draft.id}?version=published`);
    expect(asKey.body.data.segments).toHaveLength(3);
    const draftNow = await asOwnerKey('GET', `/v1/itineraries/${draft.id}`);
    expect(draftNow.body.data.segments).toHaveLength(4);
    expect(draftNow.body.data.name).toBe('Renamed after publishing');
  });

  it('answers 409 with holder.id while another member holds a lock, and succeeds once it is released', async () => {
    const draft = await createWithChain(asOwnerKey, 'Locked publish');
    // The owner's appends locked what they created; release them so the contributor can take one.
    expect((await asOwnerKey('DELETE', `/v1/itineraries/${draft.id}/locks`)).status).toBe(204);
    const take = await asContributor('POST', `/v1/itineraries/${draft.id}/locks`, {
      parts: [{ type: 'segment', id: draft.segments[0].id }],
    });
    expect(take.status).toBe(200);
    const r = await asOwnerKey('POST', `/v1/itineraries/${draft.id}/publish`);
    expect(r.status).toBe(409);
    expect(code(r)).toBe('CONFLICT');
    expect(r.body.extensions.metadata.holder.id).toBe(contributorId);
    expect((await asContributor('DELETE', `/v1/itineraries/${draft.id}/locks`)).status).toBe(204);
    expect((await asOwnerKey('POST', `/v1/itineraries/${draft.id}/publish`)).status).toBe(200);
  });

  it('a collection link reaches an itinerary filed in it only once published, and then its snapshot', async () => {
    const filed = await asOwnerKey('POST', '/v1/itineraries', { name: 'Filed for sharing', collection_id: A.collection.id });
    const id = filed.body.data.id;
    await asOwnerKey('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: P()[7] });
    const token = (await asOwnerUser('POST', `/v1/collections/${A.collection.id}/share`)).body.data.token;
    const before = await anonymous('GET', `/v1/itineraries/${id}`, undefined, { 'X-Share-Token': token });
    expect(before.status).toBe(404);
    expect((await asOwnerKey('POST', `/v1/itineraries/${id}/publish`)).status).toBe(200);
    const after = await anonymous('GET', `/v1/itineraries/${id}?version=draft`, undefined, { 'X-Share-Token': token });
    expect(after.status).toBe(200);
    expect(after.body.data.segments).toHaveLength(1);
    const outside = await asOwnerKey('POST', '/v1/itineraries', { name: 'Not filed', privacy: 'public' });
    await asOwnerKey('POST', `/v1/itineraries/${outside.body.data.id}/publish`);
    const notCovered = await anonymous('GET', `/v1/itineraries/${outside.body.data.id}`, undefined, { 'X-Share-Token': token });
    expect(notCovered.status).toBe(404);
  });

  it('a share token cannot write: 403 FORBIDDEN', async () => {
    const draft = await createWithChain(asOwnerKey, 'Share cannot write');
    const token = (await asOwnerUser('POST', `/v1/itineraries/${draft.id}/share`)).body.data.token;
    const r = await anonymous('POST', `/v1/itineraries/${draft.id}/publish`, undefined, { 'X-Share-Token': token });
    expect(r.status).toBe(403);
    expect(code(r)).toBe('FORBIDDEN');
  });
});

describe('duplicate', () => {
  it('copies the whole chain under new ids with the default name "<name> (copy)"', async () => {
    const src = await createWithChain(asOwnerKey, 'Source route');
    const r = await asOwnerKey('POST', `/v1/itineraries/${src.id}/duplicate`, {});
    expect(r.status).toBe(201);
    const copy = r.body.data;
    expect(copy.name).toBe('Source route (copy)');
    expect(copy.segments).toHaveLength(3);
    expect(copy.segments.map((s: any) => s.geometry)).toEqual(src.segments.map((s: any) => s.geometry));
    expect(copy.segments.some((s: any) => src.segments.some((o: any) => o.id === s.id))).toBe(false);
    expectContinuousChain(copy);
    const again = await asOwnerKey('POST', `/v1/itineraries/${src.id}/duplicate`, {});
    expect(again.status).toBe(409);
    expect(again.body.extensions.metadata.itinerary.id).toBe(copy.id);
  });

  it('keeps a continuous run of segments, and refuses a run with a hole (400)', async () => {
    const src = await createWithChain(asOwnerKey, 'Run source');
    const ids = src.segments.map((s: any) => s.id);
    const run = await asOwnerKey('POST', `/v1/itineraries/${src.id}/duplicate`, { name: 'Run copy', segment_ids: [ids[1], ids[2]] });
    expect(run.status).toBe(201);
    expect(run.body.data.segments).toHaveLength(2);
    expect(run.body.data.waypoints[0].coordinates).toEqual(src.waypoints[1].coordinates);
    expectContinuousChain(run.body.data);
    const hole = await asOwnerKey('POST', `/v1/itineraries/${src.id}/duplicate`, { name: 'Hole copy', segment_ids: [ids[0], ids[2]] });
    expect(hole.status).toBe(400);
    expect(paths(hole)).toEqual([['request', 'body', 'segment_ids']]);
  });

  it('into another organization: a key may not (403), a member of both may', async () => {
    const src = await createWithChain(asOwnerKey, 'Cross org');
    const r = await asOwnerKey('POST', `/v1/itineraries/${src.id}/duplicate`, { organization_id: B.organization.id });
    expect(r.status).toBe(403);
    admin(server, 'add-member', '--org', B.organization.id, '--user', A.owner.id, '--role', 'contributor');
    const ok = await asOwnerUser('POST', `/v1/itineraries/${src.id}/duplicate`, { organization_id: B.organization.id });
    expect(ok.status).toBe(201);
    expect(ok.body.data.organization_id).toBe(B.organization.id);
  });
});
