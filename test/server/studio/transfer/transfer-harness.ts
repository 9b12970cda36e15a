// Shared set-up of the import and export tests: one real server per file, fixtures and small HTTP helpers.

import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { rawExchange as rawHttp } from '../../../helpers/raw-http.js';
import { admin, bootstrap, type Bootstrapped, REPO_ROOT, type RunningServer, startServer } from '../../../helpers/server.js';

export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'transfer');
export const GPX = readFileSync(join(FIXTURES, 'ridge-walk.gpx'), 'utf8');
export const KML = readFileSync(join(FIXTURES, 'valley-path.kml'), 'utf8');
export const GEOJSON = readFileSync(join(FIXTURES, 'forest-loop.geojson'), 'utf8');
/** valley-path.kml zipped as doc.kml (see the fixtures' README). */
export const KMZ = readFileSync(join(FIXTURES, 'valley-path.kmz'));

export type Position = number[];
export interface View {
  id: string;
  name: string;
  description: string;
  activity: string;
  privacy: string;
  segments: { id: string; position: number; engine: string; groupId: string | null; geometry: { coordinates: Position[] } }[];
  waypoints: { name: string | null; kind: string | null; description: string | null; coordinates: Position }[];
}

/** The running server and the organizations every transfer test uses (filled in by serveTransferSuite). */
export interface TransferHarness {
  server: RunningServer;
  /** Every product, card on file; owner, viewer. */
  A: Bootstrapped;
  /** Another organization. */
  B: Bootstrapped;
  /** Key write credentials of A's owner. */
  writer: Record<string, string>;
  viewerId: string;
  ownerToken: string;
}

const h = {} as TransferHarness;

/** The fixture GPX's track points, in order (lon, lat, ele). */
export function gpxPoints(text: string): Position[] {
  return [...text.matchAll(/<trkpt lat="([^"]+)" lon="([^"]+)"><ele>([^<]+)<\/ele>/g)].map((m) => [
    Number(m[2]),
    Number(m[1]),
    Number(m[3]),
  ]);
}

/** The coordinates of a KML text's LineStrings, in order (lon, lat[, ele]). */
export function kmlLinePoints(text: string): Position[] {
  return [...text.matchAll(/<LineString>[\s\S]*?<coordinates>([\s\S]*?)<\/coordinates>/g)].flatMap((m) =>
    (m[1] as string)
      .trim()
      .split(/\s+/)
      .map((t) => t.split(',').map(Number)),
  );
}

/** All vertices of the chain, junctions once. */
export function chainPoints(view: View): Position[] {
  const out: Position[] = [];
  for (const s of [...view.segments].sort((a, b) => a.position - b.position)) {
    s.geometry.coordinates.forEach((p, i) => {
      if (i > 0 || out.length === 0) out.push(p);
    });
  }
  return out;
}

export async function importFile(
  body: string | Buffer,
  contentType: string,
  query = '',
  headers: Record<string, string> = h.writer,
): Promise<Response> {
  return fetch(`${h.server.url}/v1/itineraries/import${query}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType, ...headers },
    body,
  });
}

export async function imported(body: string | Buffer, contentType: string, query = ''): Promise<View> {
  const res = await importFile(body, contentType, query);
  const json = (await res.json()) as { data: View };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.data;
}

export async function exportOf(id: string, query: string, headers: Record<string, string> = { 'X-API-Key': h.A.publishableKey.key }) {
  return fetch(`${h.server.url}/v1/itineraries/${id}/export${query}`, { headers });
}

export async function errorOf(res: Response): Promise<{ status: number; code: string; message: string; path?: unknown[]; body: any }> {
  const body = (await res.json()) as any;
  return { status: res.status, code: body.errors[0].extensions.code, message: body.errors[0].message, path: body.errors[0].path, body };
}

export function expectSameCoordinates(actual: Position[], expected: Position[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((p, i) => {
    const q = expected[i] as Position;
    expect(Math.abs((p[0] as number) - (q[0] as number)), `lon ${i}`).toBeLessThanOrEqual(1e-7);
    expect(Math.abs((p[1] as number) - (q[1] as number)), `lat ${i}`).toBeLessThanOrEqual(1e-7);
    expect(p.length, `elevation present at ${i}`).toBe(q.length);
    if (q.length > 2) expect(Math.abs((p[2] as number) - (q[2] as number)), `ele ${i}`).toBeLessThanOrEqual(0.1);
  });
}

/** Raw exchange with the transfer test server (streamed and oversized uploads). */
export function rawExchange(send: (socket: Socket) => void, ms = 3000): Promise<string> {
  return rawHttp(h.server.port, send, ms);
}

export async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${h.server.url}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Publishes the draft through the publish operation. */
export async function publish(id: string) {
  const res = await fetch(`${h.server.url}/v1/itineraries/${id}/publish`, { method: 'POST', headers: h.writer });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
}

/** Starts one server per test file with organizations A and B, a viewer in A, and A's owner signed in. */
export function serveTransferSuite(): TransferHarness {
  beforeAll(async () => {
    h.server = await startServer({ SEED_DEMO: '0' });
    h.A = bootstrap(h.server);
    h.B = bootstrap(h.server);
    const viewer = admin(h.server, 'create-user', '--email', 'viewer@transfer.test', '--password', 'viewer-pass-1');
    h.viewerId = viewer.user.id;
    admin(h.server, 'add-member', '--org', h.A.organization.id, '--user', h.viewerId, '--role', 'viewer');
    h.writer = { 'X-API-Key': h.A.publishableKey.key, 'X-User-Id': h.A.owner.id };
    h.ownerToken = await login(h.A.owner.email, h.A.owner.password);
  }, 120_000);

  afterAll(async () => {
    await h.server?.stop();
  });

  return h;
}
