// The world the fuzz test plays in, built through the real API and the admin command: two organizations,
// each with a collection, a published itinerary (segments, waypoints, a group) and a zone, plus every kind
// of credential. Organization A is the caller's; B's ids are the "foreign" ones.

import { admin, bootstrap, type Bootstrapped, login, type RunningServer } from '../helpers/server.js';
import { networkPoints } from '../server/studio/itineraries/chain-helpers.js';

export interface OrgWorld {
  boot: Bootstrapped;
  ids: Record<string, string>; // path parameter name → an id of this organization
  segmentIds: string[];
  waypointIds: string[];
}

export interface World {
  A: OrgWorld;
  B: OrgWorld;
  contributorId: string;
  viewerId: string;
  session: string;
  userToken: string;
  shareToken: string;
}

async function call(server: RunningServer, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => undefined)) as any;
  if (res.status >= 300) throw new Error(`world set-up: ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** One organization's resources; `privacy` private makes them invisible to the other organization's keys. */
async function organization(server: RunningServer, tag: string, privacy: 'public' | 'private'): Promise<OrgWorld> {
  const boot = bootstrap(server);
  const as = { 'X-API-Key': boot.publishableKey.key, 'X-User-Id': boot.owner.id };
  const P = networkPoints();
  const itinerary = (await call(server, 'POST', '/v1/itineraries', as, { name: `Fuzz ${tag}`, privacy })).data.id as string;
  for (let i = 0; i < 3; i++) {
    await call(server, 'POST', `/v1/itineraries/${itinerary}/segments`, as, { engine: 'freehand', coordinates: [P[i], P[i + 1]] });
  }
  const read = (await call(server, 'GET', `/v1/itineraries/${itinerary}`, as)).data;
  const segmentIds = read.segments.map((s: { id: string }) => s.id);
  const waypointIds = read.waypoints.map((w: { id: string }) => w.id);
  const group = (
    await call(server, 'POST', `/v1/itineraries/${itinerary}/segment-groups`, as, {
      name: 'Day 1',
      color: '#1A7F37',
      segment_ids: [segmentIds[0]],
    })
  ).data;
  await call(server, 'POST', `/v1/itineraries/${itinerary}/publish`, as);
  await call(server, 'PUT', `/v1/collections/${boot.collection.id}/itineraries/${itinerary}`, as);
  const zone = (
    await call(server, 'POST', '/v1/zones', as, {
      name: `Zone ${tag}`,
      level: 'WARNING',
      mode: 'CIRCLE',
      geometry: { type: 'Point', coordinates: P[2] },
      radius_m: 50,
      privacy,
    })
  ).data.id as string;
  await call(server, 'PUT', `/v1/collections/${boot.collection.id}/zones/${zone}`, as);
  // The owner holds every lock of the itinerary for the whole run, so valid guarded writes can pass.
  await call(server, 'POST', `/v1/itineraries/${itinerary}/locks`, as, { parts: 'all' });
  const ids = {
    organization_id: boot.organization.id,
    user_id: boot.owner.id,
    collection_id: boot.collection.id,
    itinerary_id: itinerary,
    zone_id: zone,
    segment_id: segmentIds[1] as string,
    waypoint_id: waypointIds[1] as string,
    group_id: group.id as string,
  };
  return { boot, ids, segmentIds, waypointIds };
}

export async function buildWorld(server: RunningServer): Promise<World> {
  const A = await organization(server, 'A', 'public');
  // B's resources are private, so A's credentials cannot reach them at all: truly foreign ids.
  const B = await organization(server, 'B', 'private');
  await call(
    server,
    'PATCH',
    `/v1/collections/${B.ids.collection_id}`,
    { 'X-API-Key': B.boot.publishableKey.key, 'X-User-Id': B.boot.owner.id },
    { privacy: 'private' },
  );
  const contributorId = admin(server, 'create-user', '--email', 'fuzz-contrib@a.test', '--password', 'fuzz-contrib-1').user.id;
  const viewerId = admin(server, 'create-user', '--email', 'fuzz-viewer@a.test', '--password', 'fuzz-viewer-1').user.id;
  admin(server, 'add-member', '--org', A.boot.organization.id, '--user', contributorId, '--role', 'contributor');
  admin(server, 'add-member', '--org', A.boot.organization.id, '--user', viewerId, '--role', 'viewer');
  const session = (
    await call(server, 'POST', '/v1/sessions', { 'X-API-Key': A.boot.secretKey.key }, { publishable_key: A.boot.publishableKey.key })
  ).data.token;
  const userToken = await login(server, A.boot.owner.email, A.boot.owner.password);
  const shareToken = (await call(server, 'POST', `/v1/collections/${A.ids.collection_id}/share`, { Authorization: `Bearer ${userToken}` }))
    .data.token;
  return { A, B, contributorId, viewerId, session, userToken, shareToken };
}
