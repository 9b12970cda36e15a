// The developer pages in a real browser (Debian's Chromium driven by playwright-core): the landing page at `/` and
// each of its links, the docs rendered from docs/*.md, the API reference rendering the operations of both OpenAPI
// documents, and the GraphQL playground running a query with a publishable key and a session token. Every request
// the pages make goes to this server: nothing comes from a CDN. Without /usr/bin/chromium the test says why and is
// skipped; in CI that is a failure.

import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../helpers/chromium.js';
import { type Bootstrapped, bootstrap, mintSessionToken, type RunningServer, startServer } from '../helpers/server.js';

const present = chromiumPresent('Developer pages browser test');

let server: RunningServer;
let org: Bootstrapped;
let browser: Browser;
let context: BrowserContext;
const requested: string[] = [];
const blocked: string[] = [];

/** A new page whose messages about refused content (Content-Security-Policy) are kept. */
async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
  });
  return page;
}

async function open(path: string): Promise<Page> {
  const page = await newPage();
  const res = await page.goto(`${server.url}${path}`);
  expect(res?.status(), path).toBe(200);
  return page;
}

/** Waits for GraphiQL's schema request to be answered with `status` (the playground is ready to run a query then). */
function schemaAnswered(page: Page, status: number) {
  return page.waitForResponse(
    (r) => r.url() === `${server.url}/graphql` && /IntrospectionQuery/.test(r.request().postData() ?? '') && r.status() === status,
  );
}

/** Runs the query in the editor; resolves with the request GraphiQL sent, once its answer is shown. */
async function runQuery(page: Page, expected: string): Promise<Request> {
  const answered = page.waitForResponse((r) => r.url() === `${server.url}/graphql` && /__typename/.test(r.request().postData() ?? ''));
  await page.click('.graphiql-execute-button');
  const response = await answered;
  await page.waitForFunction(
    (text) => ((globalThis as any).document.querySelector('.graphiql-response')?.textContent ?? '').replace(/\s+/g, ' ').includes(text),
    expected,
  );
  return response.request();
}

describe.skipIf(!present)('developer pages in a browser', () => {
  beforeAll(async () => {
    server = await startServer({ SEED_DEMO: '0' });
    org = bootstrap(server);
    browser = await launchChromium();
    context = await browser.newContext();
    context.on('request', (r) => requested.push(r.url()));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('GET / answers browsers a landing page whose every link answers 200; API clients still get the 404', async () => {
    const page = await open('/');
    expect(await page.locator('h1').textContent()).toBe('Cairn');
    const links = await page.$$eval('a[href]', (as) => as.map((a) => (a as unknown as { href: string }).href));
    for (const path of ['/docs', '/studio', '/reference', '/playground']) expect(links).toContain(`${server.url}${path}`);
    for (const link of links) {
      const res = await page.request.get(link, { headers: { Accept: 'text/html' } });
      expect(res.status(), link).toBe(200);
    }
    await page.close();

    // What the root answered before the page existed, for anything but a browser navigation.
    const res = await fetch(`${server.url}/`, { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('the docs index links every doc, rendered as HTML with working links between them', async () => {
    const page = await open('/docs');
    const docs = await page.$$eval('main a[href]', (as) => as.map((a) => (a as unknown as { href: string }).href));
    expect(docs).toContain(`${server.url}/docs/management.md`);
    expect(docs).toContain(`${server.url}/docs/api.md`);
    await page.click('a[href="/docs/api.md"]');
    await page.waitForURL(`${server.url}/docs/api.md`);
    expect(await page.locator('main h1').first().textContent()).toBe('The Studio API reference');
    await page.click('main a[href="management.md"]');
    await page.waitForURL(`${server.url}/docs/management.md`);
    expect(await page.locator('main h1').first().textContent()).toBe('The management API');
    expect(await page.locator('main table').count()).toBeGreaterThan(5);
    await page.close();
  });

  // Swagger UI and GraphiQL are large bundles: on a busy two-core machine they take a while to start.
  it('the API reference renders the operations of the Studio API and of the management API', { timeout: 120_000 }, async () => {
    const page = await open('/reference');
    await page.waitForSelector('.opblock');
    expect(await page.locator('.opblock').count()).toBe(50);
    await expect(page.locator('.opblock-summary-path', { hasText: '/v1/sessions' }).count()).resolves.toBe(1);
    await page.close();

    const management = await open('/reference?api=management');
    await management.waitForSelector('.opblock');
    expect(await management.locator('.opblock').count()).toBe(15);
    await management.close();
  });

  it('the GraphQL playground runs a query with the key and session token typed into it', { timeout: 120_000 }, async () => {
    const page = await newPage();
    const keylessSchema = schemaAnswered(page, 401);
    await page.goto(`${server.url}/playground?query=${encodeURIComponent('{ __typename }')}`);
    await keylessSchema;
    const keyless = await runQuery(page, '"code": "UNAUTHORIZED"');
    expect(keyless.headers()['x-api-key']).toBeUndefined();

    const session = await mintSessionToken(server, org);
    await page.fill('#api-key', org.publishableKey.key);
    await page.fill('#session-token', session);
    const keyedSchema = schemaAnswered(page, 200);
    await page.locator('#session-token').dispatchEvent('change');
    await keyedSchema;
    const sent = await runQuery(page, '"__typename": "Query"');
    expect(sent.headers()['x-api-key']).toBe(org.publishableKey.key);
    expect(sent.headers()['x-session-token']).toBe(session);
    await page.close();
  });

  it('every request of every page went to this server, and no policy refused anything', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((url) => new URL(url).origin !== server.url)).toEqual([]);
    expect(blocked).toEqual([]);
  });
});
