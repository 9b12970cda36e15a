// The access matrix over real HTTP: every kind of credential against every surface that exists,
// read and write, asserting the status and `extensions.code` a client would see.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created } from '../../data/memory-db.js';
import { CollectionStore } from '../../../data/stores/collection-store.js';
import { ItineraryStore } from '../../../data/stores/itinerary-store.js';
import { TokenSigner } from '../../../server/auth/signed-token.js';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer, login as loginAs } from '../../helpers/server.js';

const SECRET = 'test-session-secret-0123456789-abcdefghijklmnop';
const signer = new TokenSigner(SECRET);
const forger = new TokenSigner('not-the-server-secret-0123456789-abcdefghijklmnop');

let server: RunningServer;
let A: Bootstrapped; // every product, card on file
let B: Bootstrapped; // another organization
const creds: Record<string, Record<string, string>> = {};
let itineraryId: string;
let otherItineraryId: string;
let mintTargetId: string;
let contributorId: string;
let viewerId: string;

const login = (email: string, password: string) => loginAs(server, email, password);

async function mintSession(sk: string, pk: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': sk },
    body: JSON.stringify({ publishable_key: pk }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function mintShare(userToken: string, path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${userToken}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

beforeAll(async () => {
  server = await startServer({ SESSION_SECRET: SECRET, SEED_DEMO: '0' });
  A = bootstrap(server);
  B = bootstrap(server);
  const contributor = admin(server, 'create-user', '--email', 'contrib@a.test', '--password', 'contrib-pass-1');
  const viewer = admin(server, 'create-user', '--email', 'viewer@a.test', '--password', 'viewer-pass-1');
  contributorId = contributor.user.id;
  viewerId = viewer.user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', contributorId, '--role', 'contributor');
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');

  const db = new Database(join(server.dataDir, 'platform.db'));
  const itineraries = new ItineraryStore(db);
  itineraryId = created(itineraries.create({ organizationId: A.organization.id, name: 'Ridge loop' })).id;
  otherItineraryId = created(itineraries.create({ organizationId: A.organization.id, name: 'Valley walk' })).id;
  // Minting in the matrix targets its own collection, so it never rotates the links other rows use.
  mintTargetId = created(new CollectionStore(db).create({ organizationId: A.organization.id, name: 'Mint target', privacy: 'private' })).id;
  db.close();

  const ownerToken = await login(A.owner.email, A.owner.password);
  const session = await mintSession(A.secretKey.key, A.publishableKey.key);
  const sessionB = await mintSession(B.secretKey.key, B.publishableKey.key);
  const now = Math.floor(Date.now() / 1000);
  const expired = signer.sign('sess', {
    kid: A.publishableKey.id,
    sid: A.secretKey.id,
    org: A.organization.id,
    iat: now - 600,
    exp: now - 300,
  });
  const forged = forger.sign('sess', {
    kid: A.publishableKey.id,
    sid: A.secretKey.id,
    org: A.organization.id,
    iat: now,
    exp: now + 300,
  });
  // A live collection link (after one rotation), the token rotated away, a live itinerary link, a disabled one.
  const rotatedAway = await mintShare(ownerToken, `/v1/collections/${A.collection.id}/share`);
  const collectionShare = await mintShare(ownerToken, `/v1/collections/${A.collection.id}/share/rotate`);
  const itineraryShare = await mintShare(ownerToken, `/v1/itineraries/${itineraryId}/share`);
  const disabled = await mintShare(ownerToken, `/v1/itineraries/${otherItineraryId}/share`);
  const off = await fetch(`${server.url}/v1/itineraries/${otherItineraryId}/share`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${ownerToken}` },
  });
  expect(off.status).toBe(204);

  const pk = A.publishableKey.key;
  creds.none = {};
  creds.pk = { 'X-API-Key': pk };
  creds.pkSession = { 'X-API-Key': pk, 'X-Session-Token': session };
  creds.pkExpiredSession = { 'X-API-Key': pk, 'X-Session-Token': expired };
  creds.pkSessionOfOtherOrg = { 'X-API-Key': pk, 'X-Session-Token': sessionB };
  creds.pkForgedSession = { 'X-API-Key': pk, 'X-Session-Token': forged };
  creds.shareCollection = { 'X-Share-Token': collectionShare };
  creds.shareItinerary = { 'X-Share-Token': itineraryShare };
  creds.shareRotated = { 'X-Share-Token': rotatedAway };
  creds.shareDisabled = { 'X-Share-Token': disabled };
  creds.shareMalformed = { 'X-Share-Token': 'share_nothex' };
  creds.user = { Authorization: `Bearer ${ownerToken}` };
  creds.forgedUser = { Authorization: `Bearer ${forger.sign('usr', { uid: A.owner.id, iat: now, exp: now + 600 })}` };
  creds.skInApiKeyHeader = { 'X-API-Key': A.secretKey.key };
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

interface Surface {
  method: string;
  path: () => string;
  body?: unknown;
  /** Headers every request to this surface carries besides credentials (X-User-Id on key writes). */
  extra?: Record<string, string>;
}

const surfaces: Record<string, Surface> = {
  studioRead: { method: 'GET', path: () => `/v1/collections/${A.collection.id}` },
  studioReadItinerary: { method: 'GET', path: () => `/v1/itineraries/${itineraryId}` },
  studioWrite: {
    method: 'POST',
    path: () => '/v1/collections',
    body: { name: 'New', privacy: 'private' },
    extra: {},
  },
  data: { method: 'POST', path: () => '/graphql', body: { query: '{ __typename }' } },
  tiles: { method: 'GET', path: () => '/v1/tiles/trails.json' },
  embed: { method: 'GET', path: () => `/studio/embed?collection_id=${A.collection.id}` },
  managementRead: { method: 'GET', path: () => '/v1/management/organization' },
  managementWrite: { method: 'PATCH', path: () => '/v1/management/settings', body: {} },
  shareMint: { method: 'POST', path: () => `/v1/collections/${mintTargetId}/share` },
};

async function hit(surface: Surface, headers: Record<string, string>): Promise<{ status: number; code?: string }> {
  const init: RequestInit = { method: surface.method, headers: { ...headers, ...surface.extra } };
  if (surface.body !== undefined) {
    init.body = JSON.stringify(surface.body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(server.url + surface.path(), init);
  const text = await res.text();
  const code = text.startsWith('{"errors"') ? (JSON.parse(text).errors[0].extensions.code as string) : undefined;
  return { status: res.status, code };
}

/** Expected [status, code] per credential × surface. */
/** Authorized and served (no error code). */
const OK200: [number, undefined] = [200, undefined];
const OK201: [number, undefined] = [201, undefined];
/** An itinerary link does not reach a collection: it looks nonexistent. */
const NF: [number, string] = [404, 'NOT_FOUND'];
const U: [number, string] = [401, 'UNAUTHORIZED'];
const F: [number, string] = [403, 'FORBIDDEN'];
const BAD: [number, string] = [400, 'BAD_REQUEST'];

const matrix: Record<string, Record<keyof typeof surfaces, [number, string | undefined]>> = {
  none: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
  // The demo organization holds `intelligence`, so its embed always needs a session token.
  pk: {
    studioRead: OK200,
    studioReadItinerary: OK200,
    studioWrite: BAD,
    data: U,
    tiles: OK200,
    embed: U,
    managementRead: F,
    managementWrite: F,
    shareMint: F,
  },
  pkSession: {
    studioRead: OK200,
    studioReadItinerary: OK200,
    studioWrite: BAD,
    data: OK200,
    tiles: OK200,
    embed: OK200,
    managementRead: F,
    managementWrite: F,
    shareMint: F,
  },
  pkExpiredSession: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: F,
    managementWrite: F,
    shareMint: F,
  },
  pkSessionOfOtherOrg: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: F,
    managementWrite: F,
    shareMint: F,
  },
  pkForgedSession: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: F,
    managementWrite: F,
    shareMint: F,
  },
  // The itinerary was never published: share links do not reach it at all.
  shareItinerary: {
    studioRead: NF,
    studioReadItinerary: NF,
    studioWrite: F,
    data: U,
    tiles: OK200,
    embed: NF, // the page of a collection this link does not cover
    managementRead: U,
    managementWrite: U,
    shareMint: F,
  },
  shareCollection: {
    studioRead: OK200,
    studioReadItinerary: NF,
    studioWrite: F,
    data: U,
    tiles: OK200,
    embed: OK200,
    managementRead: U,
    managementWrite: U,
    shareMint: F,
  },
  shareRotated: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
  shareDisabled: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
  shareMalformed: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
  user: {
    studioRead: OK200,
    studioReadItinerary: OK200,
    studioWrite: OK201,
    data: U,
    // The region's trails answer signed-in members (the planner draws them); overlay tiles do not (below).
    tiles: OK200,
    embed: U,
    managementRead: [200, undefined],
    managementWrite: [200, undefined],
    shareMint: [201, undefined],
  },
  forgedUser: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
  skInApiKeyHeader: {
    studioRead: U,
    studioReadItinerary: U,
    studioWrite: U,
    data: U,
    tiles: U,
    embed: U,
    managementRead: U,
    managementWrite: U,
    shareMint: U,
  },
};

describe('access matrix', () => {
  for (const [credential, row] of Object.entries(matrix)) {
    for (const [surface, [status, code]] of Object.entries(row)) {
      it(`${credential} on ${surface} answers ${status}${code ? ` ${code}` : ''}`, async () => {
        const got = await hit(surfaces[surface] as Surface, creds[credential] as Record<string, string>);
        expect(got).toEqual({ status, code });
      });
    }
  }
});

describe('writes with a publishable key', () => {
  const write = (userId: string | undefined) =>
    hit(surfaces.studioWrite as Surface, { 'X-API-Key': A.publishableKey.key, ...(userId ? { 'X-User-Id': userId } : {}) });

  it('a missing X-User-Id answers 400 BAD_REQUEST with no path', async () => {
    expect(await write(undefined)).toEqual({ status: 400, code: 'BAD_REQUEST' });
  });
  it('an unparseable X-User-Id answers 400', async () => {
    expect(await write('not-a-uuid')).toEqual({ status: 400, code: 'BAD_REQUEST' });
  });
  it('a well-formed id naming no member answers 403', async () => {
    expect(await write('5d9ea0f8-97f9-470f-9731-44f6955a6d01')).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
  it('a member of another organization answers 403', async () => {
    expect(await write(B.owner.id)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
  it('a viewer answers 403', async () => {
    expect(await write(viewerId)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
  it('a contributor and an owner reach the operation (409: the matrix row above already created the name)', async () => {
    expect(await write(contributorId)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(await write(A.owner.id)).toEqual({ status: 409, code: 'CONFLICT' });
  });
  it('reads ignore X-User-Id, even a malformed one', async () => {
    expect(await hit(surfaces.studioRead as Surface, { 'X-API-Key': A.publishableKey.key, 'X-User-Id': 'junk' })).toEqual({
      status: 200,
      code: undefined,
    });
  });
});

describe('credential precedence', () => {
  it('the header wins over the query parameter', async () => {
    const res = await fetch(`${server.url}/v1/tiles/trails.json?publishable_key=pk_nonsense000000000000000`, {
      headers: { 'X-API-Key': A.publishableKey.key },
    });
    expect(res.status).toBe(200);
    const reverse = await fetch(`${server.url}/v1/tiles/trails.json?publishable_key=${A.publishableKey.key}`, {
      headers: { 'X-API-Key': 'pk_nonsense000000000000000' },
    });
    expect(reverse.status).toBe(401);
  });

  it('query credentials work for navigations that cannot set headers', async () => {
    const res = await fetch(
      `${server.url}/studio/embed?publishable_key=${A.publishableKey.key}&session_token=${creds.pkSession?.['X-Session-Token']}&collection_id=${A.collection.id}`,
    );
    expect(res.status).toBe(200);
  });

  it('a user token is accepted only in the Authorization header, never as auth_token in the query', async () => {
    const token = (creds.user!.Authorization as string).slice('Bearer '.length);
    expect((await fetch(`${server.url}/v1/management/organization?auth_token=${token}`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/management/organization`, { headers: creds.user })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/tiles/trails.json?auth_token=${token}`)).status).toBe(401);
  });

  it('a signed-in member reads the trail tiles, never an overlay (those are keys’ and links’)', async () => {
    expect((await fetch(`${server.url}/v1/tiles/trails/14/8251/6068.mvt`, { headers: creds.user })).status).toBeLessThan(300);
    const overlay = await fetch(`${server.url}/v1/tiles/overlays/collections/${A.collection.id}.json`, { headers: creds.user });
    expect(overlay.status).toBe(401);
  });

  it('share_token in the query is accepted only where share links are', async () => {
    const token = creds.shareCollection?.['X-Share-Token'] as string;
    expect((await fetch(`${server.url}/v1/collections/${A.collection.id}?share_token=${token}`)).status).toBe(200);
    const data = await fetch(`${server.url}/graphql?share_token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"query":"{__typename}"}',
    });
    expect(data.status).toBe(401);
  });
});
