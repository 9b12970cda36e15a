// Share links as a capability, over real HTTP: minting, rotating, disabling, who may, and what survives.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created } from '../../data/memory-db.js';
import { CollectionStore } from '../../../data/stores/collection-store.js';
import { admin, bootstrap, type Bootstrapped, type ServerUnderTest, login as loginAs } from '../../helpers/server.js';
import { startInProcess } from '../../helpers/in-process.js';

let server: ServerUnderTest;
let org: Bootstrapped;
let owner: string;

beforeAll(async () => {
  server = await startInProcess({ SEED_DEMO: '0' });
  org = bootstrap(server);
  owner = await login(org.owner.email, org.owner.password);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const login = (email: string, password: string) => loginAs(server, email, password);

async function share(method: string, path: string, headers: Record<string, string>) {
  const res = await server.fetch(server.url + path, { method, headers });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  return { status: res.status, json, code: json?.errors?.[0]?.extensions?.code as string | undefined };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Status of a share-token read of the collection (200 = the link reaches it). */
async function readWith(token: string, collectionId = org.collection.id): Promise<number> {
  const res = await server.fetch(`${server.url}/v1/collections/${collectionId}`, { headers: { 'X-Share-Token': token } });
  await res.arrayBuffer();
  return res.status;
}

function newCollection(name: string, extra: Record<string, unknown> = {}): string {
  server.commitPending?.();
  const db = new Database(join(server.dataDir, 'platform.db'));
  try {
    return created(new CollectionStore(db).create({ organizationId: org.organization.id, name, privacy: 'private', ...extra })).id;
  } finally {
    db.close();
  }
}

describe('the link lifecycle', () => {
  it('minting answers 201 with a share_ token of 32 hex and a URL carrying it', async () => {
    const id = newCollection('Lifecycle');
    const res = await share('POST', `/v1/collections/${id}/share`, bearer(owner));
    expect(res.status).toBe(201);
    expect(res.json.data.token).toMatch(/^share_[0-9a-f]{32}$/);
    expect(res.json.data.url).toContain(`collection_id=${id}`);
    expect(res.json.data.url).toContain(res.json.data.token);
    expect(await readWith(res.json.data.token, id)).toBe(200);
  });

  it('rotating issues a new token and the old one is refused at once', async () => {
    const id = newCollection('Rotating');
    const first = (await share('POST', `/v1/collections/${id}/share`, bearer(owner))).json.data.token;
    const rotated = await share('POST', `/v1/collections/${id}/share/rotate`, bearer(owner));
    expect(rotated.status).toBe(201);
    expect(rotated.json.data.token).not.toBe(first);
    expect(await readWith(first, id)).toBe(401);
    expect(await readWith(rotated.json.data.token, id)).toBe(200);
  });

  it('disabling refuses the token; rotating or disabling again finds no link (404)', async () => {
    const id = newCollection('Disabling');
    const token = (await share('POST', `/v1/collections/${id}/share`, bearer(owner))).json.data.token;
    expect((await share('DELETE', `/v1/collections/${id}/share`, bearer(owner))).status).toBe(204);
    expect(await readWith(token, id)).toBe(401);
    expect((await share('DELETE', `/v1/collections/${id}/share`, bearer(owner))).status).toBe(404);
    expect((await share('POST', `/v1/collections/${id}/share/rotate`, bearer(owner))).status).toBe(404);
  });

  it('unknown, malformed, rotated and disabled tokens answer the same opaque 401 body', async () => {
    const id = newCollection('Opaque');
    const rotatedAway = (await share('POST', `/v1/collections/${id}/share`, bearer(owner))).json.data.token;
    await share('POST', `/v1/collections/${id}/share/rotate`, bearer(owner));
    const id2 = newCollection('Opaque 2');
    const disabled = (await share('POST', `/v1/collections/${id2}/share`, bearer(owner))).json.data.token;
    await share('DELETE', `/v1/collections/${id2}/share`, bearer(owner));
    const bodies = new Set<string>();
    for (const token of [rotatedAway, disabled, 'share_0123456789abcdef0123456789abcdef', 'share_xyz', 'garbage']) {
      const res = await server.fetch(`${server.url}/v1/collections/${id}`, { headers: { 'X-Share-Token': token } });
      expect(res.status).toBe(401);
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
  });

  it('a link has no expiry and survives membership changes of the member who minted it', async () => {
    const email = `minter-${Date.now()}@s.test`;
    const user = admin(server, 'create-user', '--email', email, '--password', 'minter-password-1');
    admin(server, 'add-member', '--org', org.organization.id, '--user', user.user.id, '--role', 'contributor');
    const token = await login(email, 'minter-password-1');
    const id = newCollection('Survivor');
    const link = (await share('POST', `/v1/collections/${id}/share`, bearer(token))).json.data.token;
    const removed = await server.fetch(`${server.url}/v1/management/members/${user.user.id}`, { method: 'DELETE', headers: bearer(owner) });
    expect(removed.status).toBe(204);
    expect(await readWith(link, id)).toBe(200);
  });
});

describe('who may mint, rotate and disable', () => {
  it('a publishable key gets 403, a share token gets 403, nothing gets 401', async () => {
    const id = newCollection('Guarded');
    const live = (await share('POST', `/v1/collections/${id}/share`, bearer(owner))).json.data.token;
    for (const [method, suffix] of [
      ['POST', '/share'],
      ['POST', '/share/rotate'],
      ['DELETE', '/share'],
    ] as const) {
      const path = `/v1/collections/${id}${suffix}`;
      expect((await share(method, path, { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id })).code).toBe('FORBIDDEN');
      expect((await share(method, path, { 'X-Share-Token': live })).code).toBe('FORBIDDEN');
      expect((await share(method, path, {})).code).toBe('UNAUTHORIZED');
    }
    expect(await readWith(live, id)).toBe(200);
  });

  it('a viewer gets 403; a signed-in user of another organization gets 404', async () => {
    const id = newCollection('Members only');
    const email = `viewer-${Date.now()}@s.test`;
    const viewer = admin(server, 'create-user', '--email', email, '--password', 'viewer-password-1');
    admin(server, 'add-member', '--org', org.organization.id, '--user', viewer.user.id, '--role', 'viewer');
    expect((await share('POST', `/v1/collections/${id}/share`, bearer(await login(email, 'viewer-password-1')))).code).toBe('FORBIDDEN');
    const other = bootstrap(server);
    const stranger = await login(other.owner.email, other.owner.password);
    expect((await share('POST', `/v1/collections/${id}/share`, bearer(stranger))).code).toBe('NOT_FOUND');
  });

  it("another member's personal collection is not found", async () => {
    const email = `personal-${Date.now()}@s.test`;
    const user = admin(server, 'create-user', '--email', email, '--password', 'personal-password-1');
    admin(server, 'add-member', '--org', org.organization.id, '--user', user.user.id, '--role', 'contributor');
    const id = newCollection('Private notes', { scope: 'personal', ownerUserId: user.user.id });
    expect((await share('POST', `/v1/collections/${id}/share`, bearer(owner))).code).toBe('NOT_FOUND');
    expect((await share('POST', `/v1/collections/${id}/share`, bearer(await login(email, 'personal-password-1')))).status).toBe(201);
  });

  it('an unknown or malformed id answers 404 or 400', async () => {
    expect((await share('POST', '/v1/collections/6f1c1e5e-0000-4000-8000-000000000001/share', bearer(owner))).code).toBe('NOT_FOUND');
    const bad = await share('POST', '/v1/collections/not-a-uuid/share', bearer(owner));
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toEqual(['request', 'params', 'collection_id']);
  });
});
