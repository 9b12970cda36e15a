// Lock lifetime in-process with a driven clock: a lock lapses after 120 s, each guarded write renews it,
// and the holder is the user, whether they act through a key (X-User-Id) or signed in.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SeedResult } from '../../../../data/seed.js';
import type { App } from '../../../../server/app.js';
import { networkPoints, type Send } from './chain-helpers.js';
import { type InProcessStudio, startInProcessStudio } from './in-process-studio.js';

const NOBODY = '00000000-0000-0000-0000-000000000000';
let studio: InProcessStudio;
let app: App;
let seeded: SeedResult;
let viaKey: Send;
let signedIn: Send;
let other: Send;
let otherId: string;

beforeAll(async () => {
  studio = await startInProcessStudio();
  ({ app, seeded, otherId } = studio);
  const client = studio.client;
  const key = seeded.publishableKey.key;
  viaKey = client({ 'X-API-Key': key, 'X-User-Id': seeded.owner.id });
  other = client({ 'X-API-Key': key, 'X-User-Id': otherId });
  const now = Math.floor(Date.now() / 1000);
  signedIn = client({ Authorization: `Bearer ${app.signer.sign('usr', { uid: seeded.owner.id, iat: now, exp: now + 3600 })}` });
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await studio?.close();
});

async function oneSegment(name: string): Promise<any> {
  const id = (await viaKey('POST', '/v1/itineraries', { name })).body.data.id;
  const r = await viaKey('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: networkPoints()[5], to: networkPoints()[7] });
  expect(r.status).toBe(201);
  return r.body.data;
}

describe('lock lifetime', () => {
  it('a lock lapses after 120 s: the write then answers 409 with the all-zero holder, and another member may take it', async () => {
    const it1 = await oneSegment('Lapsing');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 121_000 });
    const r = await viaKey('PUT', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}`, { name: 'late' });
    expect(r.status).toBe(409);
    expect(r.body.extensions.metadata.holder.id).toBe(NOBODY);
    expect((await other('POST', `/v1/itineraries/${it1.id}/locks`, { parts: 'all' })).status).toBe(200);
  });

  it('each guarded write renews the lock for another 120 s', async () => {
    const it1 = await oneSegment('Renewed');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + 100_000 });
    const path = `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}`;
    expect((await viaKey('PUT', path, { name: 'first' })).status).toBe(200);
    vi.setSystemTime(start + 200_000);
    expect((await viaKey('PUT', path, { name: 'second' })).status).toBe(200);
    const locks = (await viaKey('GET', `/v1/itineraries/${it1.id}/locks`)).body.data;
    expect(locks.find((l: any) => l.id === it1.segments[0].id).expires_at).toBe(new Date(start + 320_000).toISOString());
  });

  it('the holder is the user: a lock taken through a key serves the same user signed in', async () => {
    const it1 = await oneSegment('Same user');
    const r = await signedIn('PATCH', `/v1/itineraries/${it1.id}/segments/${it1.segments[0].id}/mode`, { engine: 'freehand' });
    expect(r.status).toBe(200);
    const locks = (await signedIn('GET', `/v1/itineraries/${it1.id}/locks`)).body.data;
    expect(new Set(locks.map((l: any) => l.holder.id))).toEqual(new Set([seeded.owner.id]));
  });
});
