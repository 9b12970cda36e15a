// The live channel over a real WebSocket: two members on one itinerary see each other arrive, take and release
// locks, edit (with the version) and publish, all driven by the Studio API through the core's change events; a
// share link hears only publication; the upgrade is refused like any request where no store is needed (401, 400),
// and the opened socket is closed with 4403 or 4404 where the stores refuse it; a connection that goes silent leaves
// the presence within 30 seconds.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../helpers/live-client.js';
import {
  admin,
  callAs,
  type Bootstrapped,
  bootstrap,
  login,
  mintSessionToken,
  type RunningServer,
  startServer,
} from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;
let itineraryId: string;
let ownerToken: string;
let editor: { id: string; token: string };

const liveUrl = (query: string) => `${server.url.replace('http', 'ws')}/studio/live?${query}`;

const call = (token: string, method: string, path: string, body?: unknown) => callAs(server, token, method, path, body);

const open = (query: string) => LiveClient.open(liveUrl(query));

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  ownerToken = await login(server, org.owner.email, org.owner.password);
  const user = admin(server, 'create-user', '--email', 'editor@live.test', '--password', 'editor-pass-1').user;
  admin(server, 'add-member', '--org', org.organization.id, '--user', user.id, '--role', 'contributor');
  editor = { id: user.id, token: await login(server, 'editor@live.test', 'editor-pass-1') };
  const created = await call(ownerToken, 'POST', '/v1/itineraries', {
    name: 'Live ridge',
    privacy: 'private',
    collection_id: org.collection.id,
  });
  itineraryId = created.data.id;
  await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/segments`, {
    engine: 'smart',
    from: [1.551, 42.4952],
    to: [1.5603, 42.4999],
  });
  // A member holds the parts they create: let them go so that the editor can take them.
  await call(ownerToken, 'DELETE', `/v1/itineraries/${itineraryId}/locks`);
}, 60_000);
afterAll(() => server?.stop());

describe('the live channel between two members', () => {
  it('shows presence, locks, edits with their version and publication to both, within a second', async () => {
    const owner = await open(`itinerary_id=${itineraryId}&auth_token=${ownerToken}`);
    expect(owner.hello).toMatchObject({ itinerary_id: itineraryId, version: expect.any(Number), locks: [] });
    expect(owner.hello.published_version).toBeNull();
    expect(owner.hello.presence).toEqual([
      expect.objectContaining({ user: { id: org.owner.id, name: expect.any(String) }, mode: 'viewing', connections: 1 }),
    ]);

    const other = await open(`itinerary_id=${itineraryId}&auth_token=${editor.token}`);
    const both = await owner.next((m) => m.type === 'presence' && m.presence.length === 2, 1000);
    const colours = both.presence.map((p: any) => p.colour);
    expect(new Set(colours).size).toBe(2);
    expect(both.presence.map((p: any) => p.user.id).sort()).toEqual([org.owner.id, editor.id].sort());

    other.send({ type: 'presence', mode: 'editing' });
    const editing = await owner.next(
      (m) => m.type === 'presence' && m.presence.some((p: any) => p.user.id === editor.id && p.mode === 'editing'),
      1000,
    );
    expect(editing.presence).toHaveLength(2);

    await call(editor.token, 'POST', `/v1/itineraries/${itineraryId}/locks`, { parts: 'all' });
    const taken = await owner.next((m) => m.type === 'lock.taken', 1000);
    expect(taken.holder).toEqual({ id: editor.id });
    expect(taken.parts.map((p: any) => p.type).sort()).toEqual(expect.arrayContaining(['segment', 'waypoint']));

    const before = owner.hello.version as number;
    const appended = await call(editor.token, 'POST', `/v1/itineraries/${itineraryId}/segments`, {
      engine: 'smart',
      to: [1.5703, 42.5049],
    });
    const changed = await owner.next((m) => m.type === 'itinerary.changed', 1000);
    expect(changed.version).toBeGreaterThan(before);
    expect(changed.version).toBe(appended.data.version);
    await other.next((m) => m.type === 'itinerary.changed' && m.version === changed.version, 1000);

    await call(editor.token, 'DELETE', `/v1/itineraries/${itineraryId}/locks`);
    const released = await owner.next((m) => m.type === 'lock.released', 1000);
    expect(released.holder).toEqual({ id: editor.id });

    const published = await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/publish`);
    const heard = await other.next((m) => m.type === 'itinerary.published', 1000);
    expect(heard.version).toBe(published.data.published_version);

    owner.send({ type: 'ping' });
    await owner.next((m) => m.type === 'pong', 1000);

    await other.close();
    const alone = await owner.next((m) => m.type === 'presence' && m.presence.length === 1, 1000);
    expect(alone.presence[0].user.id).toBe(org.owner.id);
    await owner.close();
  });

  it('a share link hears publication, never drafts, locks or who is there', async () => {
    const share = (await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/share`)).data.token as string;
    const viewer = await open(`itinerary_id=${itineraryId}&share_token=${share}`);
    expect(viewer.hello).not.toHaveProperty('presence');
    expect(viewer.hello).not.toHaveProperty('locks');
    expect(viewer.hello.published_version).toEqual(expect.any(Number));
    const member = await open(`itinerary_id=${itineraryId}&auth_token=${ownerToken}`);
    await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/locks`, { parts: 'all' });
    await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/segments`, { engine: 'smart', to: [1.5603, 42.4999] });
    await call(ownerToken, 'DELETE', `/v1/itineraries/${itineraryId}/locks`);
    await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/publish`);
    await viewer.next((m) => m.type === 'itinerary.published', 1000);
    expect(viewer.messages.map((m) => m.type)).toEqual(['hello', 'itinerary.published']);
    await member.next((m) => m.type === 'itinerary.published', 1000);
    await member.close();
    // Rotating the link ends the sockets it let in (4401); the new link opens a new one.
    const rotated = (await call(ownerToken, 'POST', `/v1/itineraries/${itineraryId}/share/rotate`)).data.token as string;
    expect(await viewer.closed).toBe(4401);
    const again = await open(`itinerary_id=${itineraryId}&share_token=${rotated}`);
    await call(ownerToken, 'DELETE', `/v1/itineraries/${itineraryId}/share`);
    expect(await again.closed).toBe(4401);
  });

  it('a member removed from the organization is let go at once', async () => {
    const user = admin(server, 'create-user', '--email', 'leaver@live.test', '--password', 'leaver-pass-1').user;
    admin(server, 'add-member', '--org', org.organization.id, '--user', user.id, '--role', 'viewer');
    const token = await login(server, 'leaver@live.test', 'leaver-pass-1');
    const leaver = await LiveClient.open(liveUrl(`itinerary_id=${itineraryId}&auth_token=${token}`));
    expect(leaver.hello.presence).toBeDefined();
    await call(ownerToken, 'DELETE', `/v1/management/members/${user.id}`);
    expect(await leaver.closed).toBe(4401);
  });

  it('the organization’s key reaches it with the embed’s rules; another organization’s key sees only what is published', async () => {
    // This organization holds the intelligence product, so its embeds (and this channel) need a session token.
    const session = await mintSessionToken(server, org);
    const keyed = await LiveClient.open(
      liveUrl(`itinerary_id=${itineraryId}&publishable_key=${org.publishableKey.key}&session_token=${session}`),
    );
    // A key names no member: its socket is counted, not listed.
    expect(keyed.hello.anonymous).toBeGreaterThanOrEqual(1);
    await keyed.close();
    const outsider = bootstrap(server);
    const outsiderSession = await mintSessionToken(server, outsider);
    // Private itinerary of another organization: invisible (the stores decide it, once the socket is open).
    await expect(
      LiveClient.open(
        liveUrl(`itinerary_id=${itineraryId}&publishable_key=${outsider.publishableKey.key}&session_token=${outsiderSession}`),
      ),
    ).rejects.toMatchObject({ closeCode: 4404 });
  });
});

describe('refusals at the upgrade', () => {
  it('no credential 401, a plain GET 400 (HTTP answers); a key without embedding 4403, an unknown itinerary 4404 (close codes)', async () => {
    await expect(LiveClient.open(liveUrl(`itinerary_id=${itineraryId}`))).rejects.toMatchObject({ status: 401 });
    await expect(LiveClient.open(liveUrl(`itinerary_id=${itineraryId}&auth_token=usr_forged`))).rejects.toMatchObject({ status: 401 });
    const dataOnly = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'Data', '--scopes', 'data');
    await expect(LiveClient.open(liveUrl(`itinerary_id=${itineraryId}&publishable_key=${dataOnly.api_key.key}`))).rejects.toMatchObject({
      closeCode: 4403,
    });
    await expect(
      LiveClient.open(liveUrl(`itinerary_id=00000000-0000-4000-8000-000000000000&auth_token=${ownerToken}`)),
    ).rejects.toMatchObject({ closeCode: 4404 });
    await expect(LiveClient.open(liveUrl(`itinerary_id=not-a-uuid&auth_token=${ownerToken}`))).rejects.toMatchObject({ status: 400 });
    const plain = await fetch(`${server.url}/studio/live?itinerary_id=${itineraryId}`, {
      headers: { Authorization: `Bearer ${ownerToken}` },
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as any).errors[0].message).toContain('WebSocket');
  });

  it('a user token in the query works only on the live channel', async () => {
    const res = await fetch(`${server.url}/v1/itineraries/${itineraryId}?auth_token=${ownerToken}`);
    expect(res.status).toBe(401);
  });
});

describe('a connection that goes silent', () => {
  it('leaves the presence within 30 seconds', async () => {
    const watcher = await open(`itinerary_id=${itineraryId}&auth_token=${ownerToken}`);
    const silent = await open(`itinerary_id=${itineraryId}&auth_token=${editor.token}`);
    await watcher.next((m) => m.type === 'presence' && m.presence.length === 2, 1000);
    // The client stops reading (and so stops answering pings) without closing: a dropped network.
    (silent.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    await watcher.next((m) => m.type === 'presence' && m.presence.length === 1, 30_000);
    silent.socket.terminate();
    await watcher.close();
  }, 45_000);
});
