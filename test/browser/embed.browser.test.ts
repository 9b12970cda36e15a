// The embed page in a real browser: Debian's Chromium, driven by playwright-core, loads a page of another site that
// frames the embed (as an integrator's page would) and hands it fresh session tokens when it asks (postMessage),
// minted server-side with the secret key. Checked: the map reaches `idle` with its tile requests answered, the
// itinerary layer has rendered features, the elevation profile is drawn, and with a 10-second token lifetime the
// page renews its token before the end and keeps loading tiles after the first token has expired. A screenshot
// lands in test-results/. Without /usr/bin/chromium the test says why and is skipped; in CI that is a failure.

import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../helpers/chromium.js';
import { drawn, mapIdle, publishTraverse } from '../helpers/embed-page.js';
import { type Bootstrapped, bootstrap, mintSession, REPO_ROOT, type RunningServer, startServer } from '../helpers/server.js';

const present = chromiumPresent('Embed browser test');

const TOKEN_SECONDS = 10;
let server: RunningServer;
let org: Bootstrapped;
let site: Server;
let siteUrl = '';
let browser: Browser;
let minted = 0;

/** A fresh session token and its end, as an integrator's backend would mint it. */
async function mint(): Promise<{ token: string; expires_at: string }> {
  minted++;
  return mintSession(server, org);
}

/** The integrator's page: it frames the embed and answers its requests for a fresh token. */
function sitePage(embedUrl: string): string {
  return `<!doctype html><html><body style="margin:0">
<iframe id="map" src="${embedUrl}" style="width:900px;height:600px;border:0"></iframe>
<script>
window.addEventListener('message', function (event) {
  if (!event.data || event.data.type !== 'cairn:session-expiring') return;
  fetch('/token').then(function (r) { return r.json(); }).then(function (t) {
    document.getElementById('map').contentWindow.postMessage({ type: 'cairn:session-token', token: t.token, expires_at: t.expires_at }, '*');
  });
});
</script></body></html>`;
}

beforeAll(async () => {
  if (!present) return;
  server = await startServer({ SEED_DEMO: '0', SESSION_TTL_SECONDS: String(TOKEN_SECONDS) });
  org = bootstrap(server);
  const id = await publishTraverse(server, org);
  site = createServer((req, res) => {
    if (req.url === '/token') {
      void mint().then((t) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(t)));
      return;
    }
    void mint().then((t) => {
      const embed = `${server.url}/studio/embed?publishable_key=${org.publishableKey.key}&session_token=${t.token}&collection_id=${org.collection.id}&itinerary_id=${id}`;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(sitePage(embed));
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await server?.stop();
});

describe.skipIf(!present)('the embed page in Chromium', () => {
  it('draws the trails, the itinerary and its profile, and keeps its session fresh past the token lifetime', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const tiles: { at: number; status: number; url: string }[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/v1/tiles/')) tiles.push({ at: Date.now(), status: r.status(), url: r.url() });
    });
    const started = Date.now();
    await page.goto(siteUrl);
    const frame = page.frames().find((f) => f.url().includes('/studio/embed')) as Frame;
    expect(frame).toBeDefined();
    expect(await mapIdle(frame)).toBe('idle');

    expect(tiles.some((t) => t.url.includes('/v1/tiles/trails/'))).toBe(true);
    expect(tiles.some((t) => t.url.includes(`/v1/tiles/collections/${org.collection.id}/`))).toBe(true);
    expect(tiles.filter((t) => t.status !== 200 && t.status !== 204)).toEqual([]);
    const state = await drawn(frame);
    expect(state.errors).toEqual([]);
    expect(state.notice).toBeNull();
    expect(state.itineraryFeatures).toBeGreaterThan(0);
    expect(state.groupColours).toContain('#2b8a3e');
    expect(state.painted).toBeGreaterThan(1000);
    expect(state.stats).toMatch(/Valley traverse · \d+\.\d km · ↑ \d+ m/);
    mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'embed.png') });

    // Past the first token's life: the page asked for (and got) a new one, and new tiles load with it.
    await frame.waitForFunction(() => (globalThis as any).cairnEmbed.renewals >= 1, undefined, { timeout: 20_000 });
    const wait = started + (TOKEN_SECONDS + 2) * 1000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const before = tiles.length;
    await frame.evaluate(() =>
      (globalThis as any).cairnEmbed.map.zoomTo((globalThis as any).cairnEmbed.map.getZoom() + 1.5, { duration: 0 }),
    );
    expect(await mapIdle(frame)).toBe('idle');
    const later = tiles.slice(before);
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((t) => t.status === 401)).toEqual([]);
    expect(minted).toBeGreaterThanOrEqual(2);
    await page.close();
  }, 90_000);

  it('the embed URL `npm run admin -- bootstrap` prints works pasted into a browser', async () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'server', 'management', 'admin', 'admin.js'), 'bootstrap', '--json'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: join(server.dataDir, 'platform.db'), PUBLIC_APP_URL: server.url },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed.collection.itineraries).toHaveLength(3);
    expect(printed.embed.url).toMatch(
      new RegExp(`^${server.url}/studio/embed\\?collection_id=[0-9a-f-]{36}&share_token=share_[0-9a-f]{32}$`),
    );
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(server.url) && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(printed.embed.url);
    const frame = page.mainFrame();
    expect(await mapIdle(frame)).toBe('idle');
    const shown = await drawn(frame);
    expect(shown).toMatchObject({ errors: [], notice: null });
    expect(shown.painted).toBeGreaterThan(1000);
    expect(shown.itineraryFeatures).toBeGreaterThan(0);
    expect(failed.filter((f) => !f.endsWith('/favicon.ico'))).toEqual([]);
    await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'embed-demo.png') });
    await page.close();
  }, 60_000);
});
