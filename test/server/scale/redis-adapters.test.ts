// The Redis adapters of the shared seams against a real Redis (REDIS_URL, or 127.0.0.1:6379): two "nodes" (two
// connections) share one fixed-window count, and a change event published on one reaches the other's listeners once,
// and its own at once. Skipped, saying why, where no Redis answers.

import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../server/core/change-events.js';
import { connectRedis, RedisChangeEventBus, type RedisConnection, RedisWindowCounter } from '../../../server/scale/redis-adapters.js';
import { missingService } from '../../helpers/postgres.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

const URL_ = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const present = await reachable(URL_);
if (!present) console.log(`Redis adapter tests skipped: ${missingService(`no Redis answers at ${URL_}`)}`);

let a: RedisConnection;
let b: RedisConnection;
const errors: unknown[] = [];

beforeAll(async () => {
  if (!present) return;
  a = await connectRedis(URL_, (e) => errors.push(e));
  b = await connectRedis(URL_, (e) => errors.push(e));
});
afterAll(async () => {
  await a?.quit().catch(() => undefined);
  await b?.quit().catch(() => undefined);
});

describe.skipIf(!present)('Redis adapters', () => {
  it('two nodes count in one fixed window, which refills on the next', async () => {
    const name = `test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const onA = new RedisWindowCounter(a, name);
    const onB = new RedisWindowCounter(b, name);
    const t = Math.floor(Date.now() / 60_000) * 60_000 + 1000;
    expect(await onA.increment('org-1:data', t)).toBe(1);
    expect(await onB.increment('org-1:data', t + 10)).toBe(2);
    expect(await onA.increment('org-1:data', t + 20)).toBe(3);
    expect(await onB.peek('org-1:data', t + 30)).toBe(3);
    expect(await onA.peek('org-2:data', t)).toBe(0);
    // The next minute starts again from one.
    expect(await onB.increment('org-1:data', t + 60_000)).toBe(1);
    // The key expires with its window.
    const ttl = await a.pTTL(`cairn:window:${name}:${Math.floor(t / 60_000)}:org-1:data`);
    expect(ttl).toBeGreaterThan(0);
  });

  it('a change event reaches the other node’s listeners once, and its own at once', async () => {
    const busA = await RedisChangeEventBus.create(a, (e) => errors.push(e));
    const busB = await RedisChangeEventBus.create(b, (e) => errors.push(e));
    const heardA: ChangeEvent[] = [];
    const heardB: ChangeEvent[] = [];
    busA.subscribe((e) => heardA.push(e));
    busB.subscribe((e) => heardB.push(e));
    const event: ChangeEvent = { type: 'itinerary.published', organizationId: 'o', itineraryId: `i-${Date.now()}`, version: 3 };
    busA.publish([event]);
    expect(heardA).toEqual([event]); // synchronously, as in one process
    const until = Date.now() + 3000;
    while (heardB.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(heardB).toEqual([event]);
    // Never twice on the publishing node: a marker published by B reaches A through the same channel after any
    // echo of A's own event would have (Redis delivers a channel's messages in order), so wait for the marker.
    const marker: ChangeEvent = { ...event, itineraryId: `${event.itineraryId}-marker` };
    busB.publish([marker]);
    while (heardA.length < 2 && Date.now() < until + 3000) await new Promise((r) => setTimeout(r, 10));
    expect(heardA).toEqual([event, marker]);
    await busA.close();
    await busB.close();
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!present)('a node started with REDIS_URL', () => {
  it('counts its quota in Redis', async () => {
    const { admin, bootstrap, mintSessionToken, startServer } = await import('../../helpers/server.js');
    const server = await startServer({ SEED_DEMO: '0', REDIS_URL: URL_ });
    try {
      const org = bootstrap(server);
      admin(server, 'set', '--org', org.organization.id, 'quota.data=2');
      const session = await mintSessionToken(server, org);
      const ask = () =>
        fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': org.publishableKey.key, 'X-Session-Token': session },
          body: '{"query":"{ __typename }"}',
        }).then((r) => r.status);
      await insideOneMinute();
      expect([await ask(), await ask(), await ask()]).toEqual([200, 200, 429]);
      const keys = await a.keys(`cairn:window:quota:*:${org.organization.id}:data`);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

it('a Redis that does not answer stops the start instead of waiting for ever', async () => {
  await expect(connectRedis('redis://127.0.0.1:1', () => undefined)).rejects.toThrow(/does not answer/);
});
