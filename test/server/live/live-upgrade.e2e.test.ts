// The live channel's handshake under load: 1,000 sockets through the real access checks (a member's token, read from
// the stores), half of them asking `Connection: close` on the upgrade request. uWebSockets.js closes a socket
// upgraded after an await right after it opens (uNetworking/uWebSockets#1928; here, those with `Connection: close`):
// Cairn completes each handshake inside uWS's callback and runs the checks once the socket is open, so every socket
// stays, hears its hello and answers a ping. A refusal the stores decide arrives as a close code.
// On PostgreSQL, one node reached directly: its reads wait for the network, as in a scaled-out deployment. (SQLite's
// reads settle in microtasks, which uWS.js runs before its callback returns, so an upgrade after them never met the
// bug.) Skipped, saying why, where PostgreSQL, Redis or HAProxy is missing (CI has them).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterUnavailable, type RunningCluster, startCluster } from '../../helpers/cluster.js';
import { RawWebSocket } from '../../helpers/raw-websocket.js';
import { admin, type Bootstrapped, bootstrap, callAs, login, type RunningServer } from '../../helpers/server.js';

const unavailable = await clusterUnavailable();
if (unavailable) console.warn(`live-upgrade.e2e: skipped: ${unavailable}`);

const SOCKETS = 1000;
/** Sockets opened at once (a browser tab opens one; a crowd arrives in waves). */
const WAVE = 100;

let cluster: RunningCluster;
/** The one node, reached without the balancer. */
let server: RunningServer;
let org: Bootstrapped;
let token: string;
let itineraryId: string;

beforeAll(async () => {
  if (unavailable) return;
  cluster = await startCluster({ SEED_DEMO: '0' }, { nodes: 1 });
  server = cluster.nodes[0] as RunningServer;
  org = bootstrap(cluster);
  token = await login(server, org.owner.email, org.owner.password);
  itineraryId = (
    await callAs(server, token, 'POST', '/v1/itineraries', { name: 'Crowded ridge', privacy: 'private', collection_id: org.collection.id })
  ).data.id;
}, 120_000);
afterAll(() => cluster?.stop());

const type = (name: string) => (text: string) => (JSON.parse(text) as { type: string }).type === name;

describe.skipIf(unavailable !== undefined)('1,000 sockets opened through the access checks', () => {
  it('all stay open, hear their hello and answer a ping, those upgraded with "Connection: close" too', async () => {
    const sockets: RawWebSocket[] = [];
    for (let wave = 0; wave < SOCKETS / WAVE; wave++) {
      const opened = Array.from({ length: WAVE }, (_, i) =>
        RawWebSocket.open(server.port, `/studio/live?itinerary_id=${itineraryId}&auth_token=${token}`, {
          Connection: (wave * WAVE + i) % 2 === 0 ? 'close' : 'Upgrade',
        }),
      );
      sockets.push(...opened);
      await Promise.all(opened.map((socket) => socket.next(type('hello')).catch(() => undefined)));
    }
    // A socket uWS closed right after opening never answers: each is asked once it has every wave's hello.
    for (const socket of sockets) socket.send('{"type":"ping"}');
    await Promise.all(sockets.map((socket) => socket.next(type('pong')).catch(() => undefined)));

    const closed = sockets.filter((socket) => socket.closeCode !== undefined);
    const closedWithConnectionClose = closed.filter((socket) => sockets.indexOf(socket) % 2 === 0).length;
    expect(
      closed.map((s) => `${s.status} ${s.closeCode} ${s.closeReason}`),
      `${closed.length} closed (${closedWithConnectionClose} asked Connection: close)`,
    ).toEqual([]);
    expect(sockets.every((socket) => socket.status === 101 && socket.messages.some(type('pong')))).toBe(true);
    for (const socket of sockets) socket.destroy();
    await Promise.all(sockets.map((socket) => socket.closed));
  }, 120_000);
});

describe.skipIf(unavailable !== undefined)('a refusal that needs the stores', () => {
  it('closes the opened socket with 4000 + its status and the refusal’s sentence', async () => {
    const dataOnly = admin(cluster, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'Data', '--scopes', 'data');
    const keyed = RawWebSocket.open(server.port, `/studio/live?itinerary_id=${itineraryId}&publishable_key=${dataOnly.api_key.key}`, {
      Connection: 'close',
    });
    expect(await keyed.closed).toBe(4403);
    expect(keyed.status).toBe(101);
    expect(keyed.closeReason).toMatch(/scope/i);
    expect(keyed.messages).toEqual([]);

    const unknown = RawWebSocket.open(server.port, `/studio/live?itinerary_id=00000000-0000-4000-8000-000000000000&auth_token=${token}`, {
      Connection: 'Upgrade',
    });
    expect(await unknown.closed).toBe(4404);
    expect(unknown.closeReason).not.toBe('');
  });
});
