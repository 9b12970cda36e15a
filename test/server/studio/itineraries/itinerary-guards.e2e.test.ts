// Every itinerary chain operation against every kind of refusal, over real HTTP: no credential (401),
// a share token or a viewer writing (403), another organization's key on a private itinerary (404), and
// each of the eleven lock-guarded operations with the lock held by nobody and by another member (409
// with holder.id), leaving the itinerary exactly as it was.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer, login as loginAs } from '../../../helpers/server.js';
import { httpClient, networkPoints, type Send } from './chain-helpers.js';

const NOBODY = '00000000-0000-0000-0000-000000000000';
let server: RunningServer;
let A: Bootstrapped;
let B: Bootstrapped;
let owner: Send;
let other: Send;
let viewer: Send;
let outsider: Send;
let anonymous: Send;
let ownerUser: Send;
let otherId: string;
const P = () => networkPoints();
const code = (r: { body: any }) => r.body?.errors?.[0]?.extensions?.code;

const login = (email: string, password: string) => loginAs(server, email, password);

let counter = 0;
/** smart, smart, freehand segments; the freehand one in a group; everything locked by the owner. */
async function fixture(): Promise<any> {
  const id = (await owner('POST', '/v1/itineraries', { name: `Guarded ${++counter}` })).body.data.id;
  await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: P()[5], to: P()[7] });
  await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', to: P()[8] });
  const last = await owner('POST', `/v1/itineraries/${id}/segments`, { engine: 'freehand', coordinates: [[1.575, 42.503]] });
  await owner('POST', `/v1/itineraries/${id}/segment-groups`, {
    name: 'G',
    color: '#010203',
    segment_ids: [last.body.data.segments[2].id],
  });
  return (await owner('GET', `/v1/itineraries/${id}`)).body.data;
}

type Req = { method: string; path: string; body?: unknown };
const OPS: Record<string, (it: any) => Req> = {
  postItinerary: () => ({ method: 'POST', path: '/v1/itineraries', body: { name: `Made ${Math.random()}` } }),
  getItinerary: (it) => ({ method: 'GET', path: `/v1/itineraries/${it.id}` }),
  patchItinerary: (it) => ({ method: 'PATCH', path: `/v1/itineraries/${it.id}`, body: { description: 'changed' } }),
  deleteItinerary: (it) => ({ method: 'DELETE', path: `/v1/itineraries/${it.id}` }),
  postItineraryDuplicate: (it) => ({ method: 'POST', path: `/v1/itineraries/${it.id}/duplicate`, body: { name: `Dup ${Math.random()}` } }),
  postItineraryPublish: (it) => ({ method: 'POST', path: `/v1/itineraries/${it.id}/publish` }),
  getItineraryLocks: (it) => ({ method: 'GET', path: `/v1/itineraries/${it.id}/locks` }),
  postItineraryLock: (it) => ({ method: 'POST', path: `/v1/itineraries/${it.id}/locks`, body: { parts: 'all' } }),
  deleteItineraryLock: (it) => ({ method: 'DELETE', path: `/v1/itineraries/${it.id}/locks` }),
  postItinerarySegment: (it) => ({
    method: 'POST',
    path: `/v1/itineraries/${it.id}/segments`,
    body: { engine: 'freehand', coordinates: [[1.58, 42.504]] },
  }),
  postItinerarySegmentInsert: (it) => ({
    method: 'POST',
    path: `/v1/itineraries/${it.id}/segments/insert`,
    body: { before_segment_id: it.segments[1].id, point: P()[11], engine: 'smart' },
  }),
  putItinerarySegment: (it) => ({
    method: 'PUT',
    path: `/v1/itineraries/${it.id}/segments/${it.segments[1].id}`,
    body: { name: 'Renamed' },
  }),
  deleteItinerarySegment: (it) => ({ method: 'DELETE', path: `/v1/itineraries/${it.id}/segments/${it.segments[1].id}` }),
  postItinerarySegmentMerge: (it) => ({
    method: 'POST',
    path: `/v1/itineraries/${it.id}/segments/${it.segments[0].id}/merge`,
    body: { with_segment_id: it.segments[1].id },
  }),
  postItinerarySegmentSplit: (it) => {
    const c = it.segments[0].geometry.coordinates;
    const m = c[Math.floor(c.length / 2)];
    return { method: 'POST', path: `/v1/itineraries/${it.id}/segments/${it.segments[0].id}/split`, body: { point: [m[0], m[1]] } };
  },
  patchItinerarySegmentMode: (it) => ({
    method: 'PATCH',
    path: `/v1/itineraries/${it.id}/segments/${it.segments[0].id}/mode`,
    body: { engine: 'freehand' },
  }),
  postItinerarySegmentGroup: (it) => ({
    method: 'POST',
    path: `/v1/itineraries/${it.id}/segment-groups`,
    body: { name: 'New', color: '#fff', segment_ids: [it.segments[0].id] },
  }),
  putItinerarySegmentGroup: (it) => ({
    method: 'PUT',
    path: `/v1/itineraries/${it.id}/segment-groups/${it.groups[0].id}`,
    body: { name: 'Renamed' },
  }),
  deleteItinerarySegmentGroup: (it) => ({ method: 'DELETE', path: `/v1/itineraries/${it.id}/segment-groups/${it.groups[0].id}` }),
  putItineraryWaypoint: (it) => ({
    method: 'PUT',
    path: `/v1/itineraries/${it.id}/waypoints/${it.waypoints[1].id}`,
    body: { coordinates: P()[6] },
  }),
  deleteItineraryWaypoint: (it) => ({ method: 'DELETE', path: `/v1/itineraries/${it.id}/waypoints/${it.waypoints[1].id}` }),
};
const READS = new Set(['getItinerary', 'getItineraryLocks']);
const GUARDED = [
  'postItinerarySegmentInsert',
  'putItinerarySegment',
  'deleteItinerarySegment',
  'postItinerarySegmentMerge',
  'postItinerarySegmentSplit',
  'patchItinerarySegmentMode',
  'putItinerarySegmentGroup',
  'deleteItinerarySegmentGroup',
  'putItineraryWaypoint',
  'deleteItineraryWaypoint',
];

let shared: any;
let shareToken: string;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  A = bootstrap(server);
  B = bootstrap(server);
  otherId = admin(server, 'create-user', '--email', 'o@a.test', '--password', 'other-pass-1').user.id;
  const viewerId = admin(server, 'create-user', '--email', 'v@a.test', '--password', 'viewer-pass-1').user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', otherId, '--role', 'admin');
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');
  owner = httpClient(server.url, { 'X-API-Key': A.publishableKey.key, 'X-User-Id': A.owner.id });
  other = httpClient(server.url, { Authorization: `Bearer ${await login('o@a.test', 'other-pass-1')}` });
  viewer = httpClient(server.url, { Authorization: `Bearer ${await login('v@a.test', 'viewer-pass-1')}` });
  outsider = httpClient(server.url, { 'X-API-Key': B.publishableKey.key, 'X-User-Id': B.owner.id });
  anonymous = httpClient(server.url, {});
  ownerUser = httpClient(server.url, { Authorization: `Bearer ${await login(A.owner.email, A.owner.password)}` });
  shared = await fixture();
  await owner('POST', `/v1/itineraries/${shared.id}/publish`);
  shared = (await owner('GET', `/v1/itineraries/${shared.id}`)).body.data;
  shareToken = (await ownerUser('POST', `/v1/itineraries/${shared.id}/share`)).body.data.token;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('refusals common to every operation', () => {
  it.each(Object.keys(OPS))('%s without a credential answers 401 UNAUTHORIZED', async (op) => {
    const r = OPS[op]!(shared);
    const res = await anonymous(r.method, r.path, r.body);
    expect(res.status).toBe(401);
    expect(code(res)).toBe('UNAUTHORIZED');
  });

  it.each(Object.keys(OPS).filter((op) => !READS.has(op)))('%s with a share token or as a viewer answers 403 FORBIDDEN', async (op) => {
    const r = OPS[op]!(shared);
    const share = await anonymous(r.method, r.path, r.body, { 'X-Share-Token': shareToken });
    expect(share.status).toBe(403);
    expect(code(share)).toBe('FORBIDDEN');
    const byViewer = await viewer(r.method, r.path, r.body);
    expect(byViewer.status).toBe(403);
    expect(code(byViewer)).toBe('FORBIDDEN');
  });

  it.each(Object.keys(OPS).filter((op) => op !== 'postItinerary'))(
    "%s on another organization's private itinerary answers 404 NOT_FOUND",
    async (op) => {
      const r = OPS[op]!(shared);
      const res = await outsider(r.method, r.path, r.body);
      expect(res.status).toBe(404);
      expect(code(res)).toBe('NOT_FOUND');
    },
  );

  it('the share token still reads the itinerary after all those refusals', async () => {
    const res = await anonymous('GET', `/v1/itineraries/${shared.id}`, undefined, { 'X-Share-Token': shareToken });
    expect(res.status).toBe(200);
    expect(res.body.data.segments).toEqual(shared.segments);
  });
});

describe('lock-guarded operations', () => {
  it.each(GUARDED)(
    '%s answers 409 with holder.id of nobody, then of the other member, changing nothing; with the lock it succeeds',
    async (op) => {
      const it1 = await fixture();
      const r = OPS[op]!(it1);
      await owner('DELETE', `/v1/itineraries/${it1.id}/locks`);
      const unlocked = await owner(r.method, r.path, r.body);
      expect(unlocked.status).toBe(409);
      expect(code(unlocked)).toBe('CONFLICT');
      expect(unlocked.body.extensions.metadata.holder.id).toBe(NOBODY);
      expect((await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: 'all' })).status).toBe(200);
      const held = await owner(r.method, r.path, r.body);
      expect(held.status).toBe(409);
      expect(held.body.extensions.metadata.holder.id).toBe(otherId);
      expect((await owner('GET', `/v1/itineraries/${it1.id}`)).body.data).toEqual(it1);
      const byHolder = await other(r.method, r.path, r.body);
      expect(byHolder.status).toBeLessThan(300);
    },
  );

  it('postItineraryPublish answers 409 with the holder while another member holds a lock', async () => {
    const it1 = await fixture();
    await owner('DELETE', `/v1/itineraries/${it1.id}/locks`);
    await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: [{ type: 'segment_group', id: it1.groups[0].id }] });
    const res = await owner('POST', `/v1/itineraries/${it1.id}/publish`);
    expect(res.status).toBe(409);
    expect(res.body.extensions.metadata.holder.id).toBe(otherId);
    expect((await other('POST', `/v1/itineraries/${it1.id}/publish`)).status).toBe(200);
  });
});
