// First start on an empty database: the demo organization, its keys, and published demo itineraries.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, type RunningServer, startServer } from '../helpers/server.js';

let server: RunningServer;
let banner: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  await server.waitForOutput('listening on', 60_000);
  const out = server.stdout();
  const value = (label: string) => new RegExp(`^  ${label}\\s+(.+)$`, 'm').exec(out)?.[1] ?? '';
  banner = {
    login: value('owner login'),
    pk: value('publishable key').split(' ')[0] as string,
    sk: value('secret key'),
    collection: /\(([0-9a-f-]{36})\)/.exec(value('demo collection'))?.[1] ?? '',
  };
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

describe('the first start', () => {
  it('prints a working owner login, publishable key and secret key', async () => {
    const [email, password] = banner.login?.split(' / ') ?? [];
    expect(await login(server, email as string, password as string)).toMatch(/^usr_/);
    expect(banner.pk).toMatch(/^pk_[0-9A-Za-z]{24}$/);
    const session = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': banner.sk as string },
      body: JSON.stringify({ publishable_key: banner.pk }),
    });
    expect(session.status).toBe(201);
  });

  it('files published demo itineraries, routed on the trails, in the public demo collection', async () => {
    const res = await fetch(`${server.url}/v1/collections/${banner.collection}/itineraries`, {
      headers: { 'X-API-Key': banner.pk as string },
    });
    expect(res.status).toBe(200);
    const list = ((await res.json()) as { data: { id: string; published_version: number | null }[] }).data;
    expect(list).toHaveLength(3);
    for (const item of list) {
      expect(item.published_version).not.toBeNull();
      const one = await fetch(`${server.url}/v1/itineraries/${item.id}?version=published`, {
        headers: { 'X-API-Key': banner.pk as string },
      });
      const view = ((await one.json()) as { data: { segments: { engine: string; distance: number }[] } }).data;
      expect(view.segments.length).toBeGreaterThanOrEqual(1);
      for (const s of view.segments) {
        expect(s.engine).toBe('smart');
        expect(s.distance).toBeGreaterThan(100);
      }
    }
  });

  it('does not seed again when a server starts on the same database', async () => {
    const again = await startServer({ DATABASE_PATH: join(server.dataDir, 'platform.db') });
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(again.stdout()).not.toContain('demo organization created');
      const res = await fetch(`${again.url}/v1/collections/${banner.collection}/itineraries`, {
        headers: { 'X-API-Key': banner.pk as string },
      });
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(3);
    } finally {
      await again.stop();
    }
  });
});
