// What page JavaScript on another site can read of Cairn's answers, in Chromium (playwright-core): a page on
// http://localhost:<port>, allowed by its key, calls the Tile API and the Data API with fetch and reads the quota's
// RateLimit-* headers and X-Request-Id (its own id, sent with the request, echoed), on answers, on a 401 and on a
// quota's 429.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../helpers/chromium.js';
import {
  admin,
  createPublishableKey,
  type Bootstrapped,
  bootstrap,
  mintSessionToken,
  type RunningServer,
  startServer,
} from '../helpers/server.js';

const present = chromiumPresent('CORS headers browser test');

let server: RunningServer;
let org: Bootstrapped;
let browser: Browser;
let site: Server;
let siteOrigin = '';
let page: Page;

/** What the page's script read of one answer (null: a header the script may not see, or that is not there). */
interface Seen {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  requestId: string | null;
}

/** A fetch made by the page's own script, cross-origin to Cairn. */
function fetchFromPage(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Seen> {
  return page.evaluate(
    async ({ url, init }) => {
      // Past the browser's cache: TileJSON may be kept 5 minutes (private, max-age=300), and each call here is a new question.
      const res = await fetch(url, { ...init, cache: 'no-store' } as RequestInit);
      const h = res.headers;
      return {
        status: res.status,
        limit: h.get('RateLimit-Limit'),
        remaining: h.get('RateLimit-Remaining'),
        reset: h.get('RateLimit-Reset'),
        requestId: h.get('X-Request-Id'),
      };
    },
    { url, init },
  );
}

/** A publishable key of `organizationId` for tiles and data, restricted to the page's site. */
function siteKey(organizationId: string): string {
  return createPublishableKey(server, organizationId, { name: 'site', scopes: 'tiles,data', origins: siteOrigin }).plaintext;
}

beforeAll(async () => {
  if (!present) return;
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  site = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Site</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${siteOrigin}/`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await server?.stop();
});

describe.skipIf(!present)('a page on another site reading Cairn’s headers in Chromium', () => {
  it('reads RateLimit-* and its own X-Request-Id on a Tile API answer', async () => {
    const key = siteKey(org.organization.id);
    const seen = await fetchFromPage(`${server.url}/v1/tiles/trails.json`, {
      headers: { 'X-API-Key': key, 'X-Request-Id': 'site-trace-1' },
    });
    expect(seen).toMatchObject({ status: 200, limit: '600', remaining: '599', requestId: 'site-trace-1' });
    expect(Number(seen.reset)).toBeGreaterThanOrEqual(1);
    expect(Number(seen.reset)).toBeLessThanOrEqual(60);
  });

  it('reads RateLimit-* and the request id Cairn gave a Data API answer', async () => {
    const key = siteKey(org.organization.id);
    const session = await mintSessionToken(server, org, key);
    const seen = await fetchFromPage(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-Session-Token': session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(seen).toMatchObject({ status: 200, limit: '60', remaining: '59' });
    expect(seen.requestId).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  });

  it('reads the request id of a 401, and RateLimit-* of a quota’s 429', async () => {
    const refused = await fetchFromPage(`${server.url}/v1/tiles/trails.json`, { headers: { 'X-Request-Id': 'site-trace-401' } });
    expect(refused).toEqual({ status: 401, limit: null, remaining: null, reset: null, requestId: 'site-trace-401' });

    const spent = bootstrap(server);
    admin(server, 'set', '--org', spent.organization.id, 'quota.tiles=1');
    const key = siteKey(spent.organization.id);
    const url = `${server.url}/v1/tiles/trails.json`;
    let first = await fetchFromPage(url, { headers: { 'X-API-Key': key } });
    // The two requests must fall in one quota minute: near its end, start again in the next one.
    if (Number(first.reset) <= 2) {
      await new Promise((r) => setTimeout(r, Number(first.reset) * 1000 + 500));
      first = await fetchFromPage(url, { headers: { 'X-API-Key': key } });
    }
    expect(first).toMatchObject({ status: 200, limit: '1', remaining: '0' });
    const over = await fetchFromPage(url, { headers: { 'X-API-Key': key, 'X-Request-Id': 'site-trace-429' } });
    expect(over).toMatchObject({ status: 429, limit: '1', remaining: '0', requestId: 'site-trace-429' });
    expect(Number(over.reset)).toBeGreaterThanOrEqual(1);
  });
});
