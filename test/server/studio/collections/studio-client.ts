// Shared set-up of the collection and zone tests over real HTTP: a server, two organizations, members of
// each role, credentials of each kind, and direct store access for itineraries (built elsewhere).

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ItineraryStore } from '../../../../data/stores/itinerary-store.js';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../../helpers/server.js';

export interface Reply {
  status: number;
  json: any;
  code: string | undefined;
}

export interface World {
  server: RunningServer;
  A: Bootstrapped;
  B: Bootstrapped;
  contributorId: string;
  viewerId: string;
  /** Signed-in users. */
  owner: Record<string, string>;
  contributor: Record<string, string>;
  viewer: Record<string, string>;
  ownerB: Record<string, string>;
  /** A's publishable key alone (reads), with a session token, and writing as a member. */
  key: Record<string, string>;
  session: Record<string, string>;
  keyAs: (userId: string) => Record<string, string>;
  keyB: Record<string, string>;
}

export async function call(
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  return { status: res.status, json, code: json?.errors?.[0]?.extensions?.code };
}

async function login(server: RunningServer, email: string, password: string): Promise<Record<string, string>> {
  const res = await call(server, 'POST', '/v1/login', {}, { email, password });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${res.json.data.token as string}` };
}

export async function setUp(): Promise<World> {
  const server = await startServer({ SEED_DEMO: '0' });
  const A = bootstrap(server);
  const B = bootstrap(server);
  const contributorId = admin(server, 'create-user', '--email', 'contrib@a.test', '--password', 'contrib-pass-1').user.id;
  const viewerId = admin(server, 'create-user', '--email', 'viewer@a.test', '--password', 'viewer-pass-1').user.id;
  admin(server, 'add-member', '--org', A.organization.id, '--user', contributorId, '--role', 'contributor');
  admin(server, 'add-member', '--org', A.organization.id, '--user', viewerId, '--role', 'viewer');
  const minted = await call(server, 'POST', '/v1/sessions', { 'X-API-Key': A.secretKey.key }, { publishable_key: A.publishableKey.key });
  expect(minted.status).toBe(201);
  const pk = A.publishableKey.key;
  return {
    server,
    A,
    B,
    contributorId,
    viewerId,
    owner: await login(server, A.owner.email, A.owner.password),
    contributor: await login(server, 'contrib@a.test', 'contrib-pass-1'),
    viewer: await login(server, 'viewer@a.test', 'viewer-pass-1'),
    ownerB: await login(server, B.owner.email, B.owner.password),
    key: { 'X-API-Key': pk },
    session: { 'X-API-Key': pk, 'X-Session-Token': minted.json.data.token as string },
    keyAs: (userId) => ({ 'X-API-Key': pk, 'X-User-Id': userId }),
    keyB: { 'X-API-Key': B.publishableKey.key },
  };
}

/** Runs `fn` on the stores of the running server's database (itineraries have no API in this area). */
export function withItineraries<T>(server: RunningServer, fn: (store: ItineraryStore) => T): T {
  const db = new Database(join(server.dataDir, 'platform.db'));
  db.pragma('busy_timeout = 5000');
  try {
    return fn(new ItineraryStore(db));
  } finally {
    db.close();
  }
}

/** The `path` of every entry of a 400. */
export function paths(reply: Reply): string[] {
  return (reply.json.errors as { path?: (string | number)[] }[]).map((e) => (e.path ?? []).join('.'));
}
