// Refusals that share a code and status each get their own sentence saying what to do: codes and statuses
// stay as the spec sets them, only the words differ.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, login, type RunningServer, startServer } from '../../helpers/server.js';
import { networkPoints } from '../studio/itineraries/chain-helpers.js';

let server: RunningServer;
let A: Bootstrapped;
let viewerId: string;
let session: string;

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => undefined)) as any;
  return { status: res.status, code: json?.errors?.[0]?.extensions?.code, message: json?.errors?.[0]?.message as string, json };
}

const key = () => ({ 'X-API-Key': A.publishableKey.key });
const writer = (userId = A.owner.id) => ({ ...key(), 'X-User-Id': userId });

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  A = bootstrap(server);
  viewerId = admin(server, 'create-user', '--email', 'viewer@distinct.test', '--password', 'viewer-pass-1').user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');
  session = (await send('POST', '/v1/sessions', { 'X-API-Key': A.secretKey.key }, { publishable_key: A.publishableKey.key })).json.data
    .token;
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('403 FORBIDDEN', () => {
  it('a non-member X-User-Id, a viewer, a missing scope, a share-token write and a key on a signed-in-only call read differently', async () => {
    const share = (
      await send('POST', `/v1/collections/${A.collection.id}/share`, {
        Authorization: `Bearer ${await login(server, A.owner.email, A.owner.password)}`,
      })
    ).json.data.token;
    const tilesOnly = admin(server, 'create-key', '--org', A.organization.id, '--type', 'pk', '--name', 'tiles', '--scopes', 'tiles')
      .api_key.key;
    const cases = [
      await send('POST', '/v1/collections', writer(crypto.randomUUID()), { name: 'x', privacy: 'public' }),
      await send('POST', '/v1/collections', writer(viewerId), { name: 'x', privacy: 'public' }),
      await send('GET', '/v1/zones', { 'X-API-Key': tilesOnly }),
      await send('DELETE', `/v1/collections/${A.collection.id}`, { 'X-Share-Token': share }),
      await send('POST', `/v1/collections/${A.collection.id}/share`, writer()),
    ];
    for (const c of cases) expect([c.status, c.code]).toEqual([403, 'FORBIDDEN']);
    expect(new Set(cases.map((c) => c.message)).size).toBe(cases.length);
    expect(cases[0]?.message).toMatch(/X-User-Id does not name a member/);
    expect(cases[1]?.message).toMatch(/viewer role/);
    expect(cases[2]?.message).toMatch(/"resources" scope/);
    expect(cases[3]?.message).toMatch(/read-only/);
    expect(cases[4]?.message).toMatch(/signed-in member/);
  });

  it('an inactive organization says so, and says it in French too', async () => {
    const B = bootstrap(server);
    admin(server, 'set', '--org', B.organization.id, 'status=inactive');
    const en = await send('GET', '/v1/zones', { 'X-API-Key': B.publishableKey.key });
    const fr = await send('GET', '/v1/zones', { 'X-API-Key': B.publishableKey.key, 'Accept-Language': 'fr' });
    expect([en.status, en.code, fr.code]).toEqual([403, 'FORBIDDEN', 'FORBIDDEN']);
    expect(en.message).toMatch(/inactive/);
    expect(fr.message).toMatch(/inactive/);
    expect(fr.message).not.toBe(en.message);
  });
});

describe('401 UNAUTHORIZED', () => {
  it('an expired, a truncated and a key-less session token read differently', async () => {
    const data = (headers: Record<string, string>) => send('POST', '/graphql', headers, { query: '{__typename}' });
    // A token whose signature is genuine but whose time is up: signed with the server's own secret.
    const expired = await mintExpired();
    const cases = [
      await data({ ...key(), 'X-Session-Token': expired }),
      await data({ ...key(), 'X-Session-Token': session.slice(0, -3) }),
      await data({ 'X-Session-Token': session }),
      await data(key()),
    ];
    for (const c of cases) expect([c.status, c.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(cases[0]?.message).toMatch(/expired/);
    expect(cases[1]?.message).toMatch(/truncated or altered/);
    expect(cases[2]?.message).toMatch(/no publishable key/);
    expect(cases[3]?.message).toMatch(/needs a session token/);
  });

  it('a share token failure stays opaque: the same sentence for unknown and malformed tokens', async () => {
    const unknown = await send('GET', `/v1/collections/${A.collection.id}`, { 'X-Share-Token': `share_${'0'.repeat(32)}` });
    const malformed = await send('GET', `/v1/collections/${A.collection.id}`, { 'X-Share-Token': 'share_nope' });
    expect([unknown.status, malformed.status]).toEqual([401, 401]);
    expect(unknown.message).toBe(malformed.message);
  });
});

describe('400 VALIDATION_FAILED', () => {
  it('an empty value and an empty list say so, not "at least 1 characters"', async () => {
    const empty = await send('POST', '/v1/collections', writer(), { name: '', privacy: 'public' });
    expect([empty.status, empty.code, empty.message]).toEqual([400, 'VALIDATION_FAILED', 'Give a value here: it may not be empty.']);
    expect(empty.json.errors[0].path).toEqual(['request', 'body', 'name']);
    const short = await send('POST', '/v1/login', {}, { email: 'a', password: 'x' });
    expect(short.message).toBe('Use at least 3 characters.');
    const fr = await send('POST', '/v1/collections', { ...writer(), 'Accept-Language': 'fr' }, { name: '', privacy: 'public' });
    expect(fr.message).toBe('Donnez une valeur ici : elle ne peut pas être vide.');
  });
});

describe('409 CONFLICT', () => {
  it('a name clash, a lock held by another member and a missing lock read differently, metadata unchanged', async () => {
    const contributorId = admin(server, 'create-user', '--email', 'c@distinct.test', '--password', 'contrib-pass-1').user.id;
    admin(server, 'add-member', '--org', A.organization.id, '--user', contributorId, '--role', 'contributor');
    const P = networkPoints();
    const it1 = (await send('POST', '/v1/itineraries', writer(), { name: 'Clash' })).json.data.id;
    const clash = await send('POST', '/v1/itineraries', writer(), { name: 'Clash' });
    await send('POST', `/v1/itineraries/${it1}/segments`, writer(), { engine: 'freehand', coordinates: [P[0], P[1]] });
    const read = (await send('GET', `/v1/itineraries/${it1}`, writer())).json.data;
    const segmentId = read.segments[0].id;
    const held = await send('DELETE', `/v1/itineraries/${it1}/segments/${segmentId}`, writer(contributorId));
    await send('DELETE', `/v1/itineraries/${it1}/locks`, writer());
    const missing = await send('DELETE', `/v1/itineraries/${it1}/segments/${segmentId}`, writer(contributorId));
    expect([clash.status, held.status, missing.status]).toEqual([409, 409, 409]);
    expect(clash.json.extensions.metadata.itinerary.id).toBe(it1);
    expect(held.json.extensions.metadata.holder.id).toBe(A.owner.id);
    expect(missing.json.extensions.metadata.holder.id).toBe('00000000-0000-0000-0000-000000000000');
    expect(clash.message).toMatch(/already exists/);
    expect(held.message).toMatch(/Another member is editing/);
    expect(missing.message).toMatch(/Take the lock/);
  });
});

describe('chain edits that cannot apply', () => {
  it('a split at a segment end and a merge with a non-neighbour each say what to do instead', async () => {
    const P = networkPoints();
    const id = (await send('POST', '/v1/itineraries', writer(), { name: 'Split me' })).json.data.id;
    for (let i = 0; i < 3; i++)
      await send('POST', `/v1/itineraries/${id}/segments`, writer(), { engine: 'freehand', coordinates: [P[i], P[i + 1]] });
    const segments = (await send('GET', `/v1/itineraries/${id}`, writer())).json.data.segments;
    const split = await send('POST', `/v1/itineraries/${id}/segments/${segments[0].id}/split`, writer(), { point: P[0] });
    expect([split.status, split.json.errors[0].path]).toEqual([400, ['request', 'body', 'point']]);
    expect(split.message).toBe('Split at a point inside the segment, not at one of its ends.');
    const merge = await send('POST', `/v1/itineraries/${id}/segments/${segments[0].id}/merge`, writer(), {
      with_segment_id: segments[2].id,
    });
    expect([merge.status, merge.json.errors[0].path]).toEqual([400, ['request', 'body', 'with_segment_id']]);
    expect(merge.message).toMatch(/just before or just after/);
  });
});

describe('unroutable points', () => {
  it('blames `from` when the start is off the network, and `to` when the end is', async () => {
    const P = networkPoints();
    const off = [1.0, 42.0];
    const it1 = (await send('POST', '/v1/itineraries', writer(), { name: 'Off network' })).json.data.id;
    const badFrom = await send('POST', `/v1/itineraries/${it1}/segments`, writer(), { engine: 'smart', from: off, to: P[3] });
    const badTo = await send('POST', `/v1/itineraries/${it1}/segments`, writer(), { engine: 'smart', from: P[3], to: off });
    expect([badFrom.status, badTo.status]).toEqual([400, 400]);
    expect(badFrom.json.errors[0].path).toEqual(['request', 'body', 'from']);
    expect(badFrom.message).toMatch(/start point is not near any trail/);
    expect(badTo.json.errors[0].path).toEqual(['request', 'body', 'to']);
    expect(badTo.message).toMatch(/This point is not near any trail/);
  });
});

/** A session token of A's keys that expired a minute ago, signed with the server's secret. */
async function mintExpired(): Promise<string> {
  const { default: Database } = await import('better-sqlite3');
  const { join } = await import('node:path');
  const { TokenSigner } = await import('../../../server/auth/signed-token.js');
  const { createSqliteRepositories } = await import('../../../data/repositories-sqlite.js');
  const { resolveSigningSecret } = await import('../../../server/auth/signing-secret.js');
  const db = new Database(join(server.dataDir, 'platform.db'));
  try {
    const signer = new TokenSigner(await resolveSigningSecret(undefined, createSqliteRepositories(db).settings));
    const now = Math.floor(Date.now() / 1000);
    return signer.sign('sess', { kid: A.publishableKey.id, sid: A.secretKey.id, org: A.organization.id, iat: now - 400, exp: now - 60 });
  } finally {
    db.close();
  }
}
