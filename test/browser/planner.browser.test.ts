// The planner in a real browser (Debian's Chromium driven by playwright-core), two members at once: the owner signs
// in, plans three smart segments by clicking on the map, drags a waypoint, is asked about a placement through the
// toll road and declines (the shape is restored), and publishes; a contributor on the same itinerary in another
// browser context sees the edits and the owner's locks arrive live; the agent panel, driven by a scripted
// OpenAI-compatible model (a stand-in for the model endpoint only), adds a segment that both see. Screenshots land in
// test-results/. Without /usr/bin/chromium the test says why and is skipped; in CI that is a failure.

import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../helpers/chromium.js';
import { admin, callAs, type Bootstrapped, bootstrap, login, REPO_ROOT, type RunningServer, startServer } from '../helpers/server.js';

const present = chromiumPresent('Planner browser test');

// Points on the demo region's trails (lon, lat).
const START = [1.551, 42.4952];
const SECOND = [1.5603, 42.4999];
const THIRD = [1.5703, 42.5049];
const FOURTH = [1.5775, 42.5085];
const REFUGE = [1.5603, 42.4999];
const TOLL_FROM = [1.5872, 42.5028];
const TOLL_TO = [1.5964, 42.5131];

let server: RunningServer;
let org: Bootstrapped;
let editor: { id: string; email: string; password: string };
let browser: Browser;
let model: Server;
let walk: string;
let ride: string;
const modelScript: ((body: any) => unknown)[] = [];

const call = (token: string, method: string, path: string, body?: unknown) => callAs(server, token, method, path, body);

/** Signs in on the planner's own form, then opens an itinerary by its address. */
async function signIn(page: Page, who: { email: string; password: string }, itineraryId: string): Promise<void> {
  await page.goto(`${server.url}/studio`);
  await page.fill('#email', who.email);
  await page.fill('#password', who.password);
  await page.click('#sign-in-form button[type=submit]');
  await page.waitForSelector('#browse:not([hidden])');
  await page.goto(`${server.url}/studio#itinerary=${itineraryId}`);
  await page.reload();
  await page.waitForFunction((id) => {
    const s = (globalThis as any).cairnPlanner;
    return s.mapReady && s.itinerary?.id === id && s.live?.readyState === 1 && s.liveMessages.some((m: any) => m.type === 'hello');
  }, itineraryId);
}

async function idle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = (globalThis as any).cairnPlanner.map;
        map.once('idle', () => resolve());
        map.triggerRepaint();
      }),
  );
}

/** Where a position is on the page, for the mouse. */
function pixel(page: Page, at: number[]): Promise<{ x: number; y: number }> {
  return page.evaluate((lonLat) => {
    const map = (globalThis as any).cairnPlanner.map;
    const p = map.project(lonLat);
    const box = map.getCanvas().getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  }, at);
}

async function clickMap(page: Page, at: number[]): Promise<void> {
  const { x, y } = await pixel(page, at);
  await page.mouse.click(x, y);
}

/**
 * Waits for an edit to finish; when the planner asks about a restriction the new line crosses (the demo's trails
 * cross private tracks), keeps it, and counts the question.
 */
async function keepIfAsked(page: Page, count: number): Promise<boolean> {
  const outcome = await page
    .waitForFunction(
      (n) => {
        const s = (globalThis as any).cairnPlanner;
        if (s.asking) return 'asked';
        return !s.busy && s.itinerary.segments.length === n ? 'done' : false;
      },
      count,
      { timeout: 15_000 },
    )
    .catch(async (error: Error) => {
      throw new Error(`${error.message}; the planner said: ${await page.textContent('#status')}`);
    });
  if ((await outcome.jsonValue()) !== 'asked') return false;
  await page.click('#confirm-keep');
  await settled(page, count);
  return true;
}

const segments = (page: Page) => page.evaluate(() => (globalThis as any).cairnPlanner.itinerary.segments.length as number);
const settled = (page: Page, count: number) =>
  page.waitForFunction((n) => {
    const s = (globalThis as any).cairnPlanner;
    return !s.busy && s.itinerary.segments.length === n;
  }, count);

beforeAll(async () => {
  if (!present) return;
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk));
    req.on('end', () => {
      const next = modelScript.shift();
      res.writeHead(next ? 200 : 500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(next ? next(JSON.parse(raw)) : { error: 'no script' }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  const created = admin(server, 'create-user', '--email', 'editor@planner.test', '--password', 'editor-pass-1').user;
  admin(server, 'add-member', '--org', org.organization.id, '--user', created.id, '--role', 'contributor');
  editor = { id: created.id, email: 'editor@planner.test', password: 'editor-pass-1' };
  const owner = await login(server, org.owner.email, org.owner.password);
  await call(owner, 'PATCH', '/v1/management/ai', {
    endpoint: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1/chat/completions`,
    model: 'scripted',
  });
  walk = (await call(owner, 'POST', '/v1/itineraries', { name: 'Planner walk', privacy: 'private', collection_id: org.collection.id })).data
    .id;
  ride = (
    await call(owner, 'POST', '/v1/itineraries', {
      name: 'Col ride',
      activity: 'ROAD_CYCLING',
      privacy: 'private',
      collection_id: org.collection.id,
    })
  ).data.id;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  model?.close();
  await server?.stop();
});

describe.skipIf(!present)('the planner in Chromium', () => {
  it('two members plan one itinerary together: clicks, a drag, a declined toll placement, publication and the agent', async () => {
    const a = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const b = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const pageErrors: string[] = [];
    for (const page of [a, b]) page.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(a, org.owner, walk);
    await signIn(b, editor, walk);
    await a.waitForFunction(() => (globalThis as any).cairnPlanner.presence.length === 2);
    expect(await a.textContent('#presence')).toContain('editor');

    // Three smart segments by clicking: a start, then each segment's end.
    await a.evaluate(() => (globalThis as any).cairnPlanner.map.jumpTo({ center: [1.564, 42.502], zoom: 14 }));
    await idle(a);
    await clickMap(a, START);
    await a.waitForFunction(() => (globalThis as any).cairnPlanner.pendingStart !== null);
    for (const [n, at] of [SECOND, THIRD, FOURTH].entries()) {
      await clickMap(a, at);
      await keepIfAsked(a, n + 1);
    }
    const planned = await a.evaluate(() => (globalThis as any).cairnPlanner.itinerary);
    expect(planned.segments.map((s: any) => s.engine)).toEqual(['smart', 'smart', 'smart']);
    expect(planned.distance).toBeGreaterThan(1000);
    // The other member's planner follows (the live channel's itinerary.changed, then a read).
    await b.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.segments.length === 3);

    // Drag the second waypoint a little north: the neighbours re-route, the owner's locks show up for the editor.
    const before = planned.waypoints[1].coordinates;
    const from = await pixel(a, before);
    await a.mouse.move(from.x, from.y);
    await a.mouse.down();
    for (let i = 1; i <= 5; i++) await a.mouse.move(from.x + i * 4, from.y - i * 10);
    await a.mouse.up();
    await a.waitForFunction((lon) => {
      const s = (globalThis as any).cairnPlanner;
      return !s.busy && s.itinerary.waypoints[1].coordinates[0] !== lon;
    }, before[0]);
    await keepIfAsked(a, 3);
    await b.waitForFunction(
      (owner) => (globalThis as any).cairnPlanner.lockEvents.some((e: any) => e.type === 'lock.taken' && e.holder.id === owner),
      org.owner.id,
    );
    const moved = await a.evaluate(() => (globalThis as any).cairnPlanner.itinerary.waypoints[1].coordinates);
    await b.waitForFunction((lon) => (globalThis as any).cairnPlanner.itinerary.waypoints[1].coordinates[0] === lon, moved[0]);
    // The editor cannot drag what the owner holds: the planner says who holds it.
    const held = await pixel(b, moved);
    await b.mouse.move(held.x, held.y);
    await b.mouse.down();
    await b.mouse.move(held.x + 20, held.y + 20);
    await b.mouse.up();
    await b.waitForFunction(() => /held by/.test((globalThis as any).document.getElementById('status').textContent));
    await idle(b);
    expect(await segments(b)).toBe(3);

    // Undo puts the waypoint back, Redo moves it again.
    await a.click('#undo');
    await a.waitForFunction((lon) => (globalThis as any).cairnPlanner.itinerary.waypoints[1].coordinates[0] === lon, before[0]);
    await a.click('#redo');
    await a.waitForFunction((lon) => (globalThis as any).cairnPlanner.itinerary.waypoints[1].coordinates[0] === lon, moved[0]);

    mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
    await a.screenshot({ path: join(REPO_ROOT, 'test-results', 'planner-owner.png') });
    await b.screenshot({ path: join(REPO_ROOT, 'test-results', 'planner-editor.png') });

    // The agent: the scripted model calls add_segment on the open itinerary, then says so; both planners show it.
    modelScript.push(
      (body) => ({
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: {
                    name: 'add_segment',
                    arguments: JSON.stringify({
                      itinerary_id: /itinerary ([0-9a-f-]{36})/.exec(body.messages[0].content)?.[1],
                      to: REFUGE,
                    }),
                  },
                },
              ],
            },
          },
        ],
      }),
      () => ({ choices: [{ message: { role: 'assistant', content: 'Added a segment back to the refuge.' } }] }),
    );
    await a.fill('#chat-input', 'Bring me back to the refuge.');
    await a.click('#chat-form button[type=submit]');
    await a.waitForFunction(() =>
      /Added a segment back to the refuge/.test((globalThis as any).document.getElementById('chat-log').textContent),
    );
    await a.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.segments.length === 4);
    await b.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.segments.length === 4);

    // Publish: the editor hears it.
    await a.click('#publish');
    await b.waitForFunction(() => (globalThis as any).cairnPlanner.liveMessages.some((m: any) => m.type === 'itinerary.published'));
    expect(await a.evaluate(() => (globalThis as any).cairnPlanner.itinerary.published_version)).toBeGreaterThan(0);

    // A placement through the toll road asks; Decline restores the last accepted shape (here: nothing yet).
    await a.goto(`${server.url}/studio#itinerary=${ride}`);
    await a.reload();
    await a.waitForFunction((id) => {
      const s = (globalThis as any).cairnPlanner;
      return s.mapReady && s.itinerary?.id === id;
    }, ride);
    await a.evaluate(() => (globalThis as any).cairnPlanner.map.jumpTo({ center: [1.5918, 42.508], zoom: 14 }));
    await idle(a);
    await clickMap(a, TOLL_FROM);
    await a.waitForFunction(() => (globalThis as any).cairnPlanner.pendingStart !== null);
    await clickMap(a, TOLL_TO);
    await a.waitForSelector('#confirm:not([hidden])');
    expect(await a.textContent('#confirm-text')).toContain('toll way');
    await a.screenshot({ path: join(REPO_ROOT, 'test-results', 'planner-toll.png') });
    await a.click('#confirm-decline');
    await settled(a, 0);
    expect((await a.evaluate(() => (globalThis as any).cairnPlanner.confirmations)).at(-1)).toEqual({ kinds: ['TOLLWAY'], kept: false });

    // Opening a saved itinerary that already crosses the toll road does not ask.
    const owner = await login(server, org.owner.email, org.owner.password);
    await call(owner, 'POST', `/v1/itineraries/${ride}/segments`, { engine: 'smart', from: TOLL_FROM, to: TOLL_TO });
    await a.reload();
    await a.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary?.segments.length === 1);
    await idle(a);
    expect(await a.isHidden('#confirm')).toBe(true);
    expect(await segments(a)).toBe(1);

    expect(pageErrors).toEqual([]);
    expect(await a.evaluate(() => (globalThis as any).cairnPlanner.errors)).toEqual([]);
  }, 120_000);

  it('draws a freehand line point by point, inserts a waypoint, groups segments and edits the group', async () => {
    const owner = await login(server, org.owner.email, org.owner.password);
    const id = (await call(owner, 'POST', '/v1/itineraries', { name: 'Tools', privacy: 'private', collection_id: org.collection.id })).data
      .id;
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(page, org.owner, id);
    await page.evaluate(() => (globalThis as any).cairnPlanner.map.jumpTo({ center: [1.564, 42.502], zoom: 14 }));
    await idle(page);

    // Freehand: three clicks, then Enter sends them as one drawn segment.
    await page.click('#mode-freehand');
    for (const at of [START, [1.5545, 42.4975], SECOND]) await clickMap(page, at);
    expect(await page.isVisible('#finish-line')).toBe(true);
    await page.keyboard.press('Enter');
    await keepIfAsked(page, 1);
    const drawn = await page.evaluate(() => (globalThis as any).cairnPlanner.itinerary.segments[0]);
    expect(drawn.engine).toBe('freehand');
    expect(drawn.geometry.coordinates).toHaveLength(3);

    // Smart again: one more segment.
    await page.click('#mode-smart');
    await clickMap(page, THIRD);
    await keepIfAsked(page, 2);

    // Select the second segment at its middle and insert a waypoint there.
    const middle = await page.evaluate(() => {
      const c = (globalThis as any).cairnPlanner.itinerary.segments[1].geometry.coordinates;
      return c[Math.floor(c.length / 2)];
    });
    await idle(page);
    await clickMap(page, middle);
    await page.waitForSelector('#selection button');
    await page.click('text=Insert a waypoint here');
    await keepIfAsked(page, 3);
    // Undo takes the inserted waypoint out again, Redo puts it back.
    await page.click('#undo');
    await settled(page, 2);
    await page.click('#redo');
    await settled(page, 3);

    // Drag the first segment from its middle: a new waypoint where it is dropped, the segment re-routed through it.
    const grip = await page.evaluate(() => {
      const c = (globalThis as any).cairnPlanner.itinerary.segments[0].geometry.coordinates;
      return c[1];
    });
    await idle(page);
    const from = await pixel(page, grip);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(from.x + i * 6, from.y + i * 6);
    await page.mouse.up();
    await keepIfAsked(page, 4);
    const dropped = await page.evaluate(() => (globalThis as any).cairnPlanner.itinerary.waypoints[1].coordinates);
    const target = await page.evaluate(
      (at: { x: number; y: number }) => {
        const map = (globalThis as any).cairnPlanner.map;
        const box = map.getCanvas().getBoundingClientRect();
        const p = map.unproject([at.x - box.left, at.y - box.top]);
        return [p.lng, p.lat];
      },
      { x: from.x + 30, y: from.y + 30 },
    );
    expect(Math.abs(dropped[0] - target[0])).toBeLessThan(1e-6);
    expect(Math.abs(dropped[1] - target[1])).toBeLessThan(1e-6);
    await page.click('#undo');
    await settled(page, 3);

    // Group the first two segments, then give the group another colour.
    const first = await page.evaluate(() => {
      const c = (globalThis as any).cairnPlanner.itinerary.segments[0].geometry.coordinates;
      return c[1];
    });
    await idle(page);
    await clickMap(page, first);
    await page.click('text=Group with the next segment');
    await page.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.groups.length === 1);
    await page.click('#undo');
    await page.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.groups.length === 0);
    await page.click('#redo');
    await page.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.groups.length === 1);
    await clickMap(page, first);
    await page.fill('#selection input[type=color]', '#5c940d');
    await page.click('text=Save group');
    await page.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.groups[0]?.color === '#5c940d');
    const grouped = await page.evaluate(() => (globalThis as any).cairnPlanner.itinerary.segments.map((x: any) => x.groupId !== null));
    expect(grouped).toEqual([true, true, false]);

    // A name typed into the group's form survives another edit of the itinerary arriving live, and is what is saved.
    const version = await page.evaluate(() => (globalThis as any).cairnPlanner.itinerary.version as number);
    await page.fill('#selection input[name=name]', 'Ridge walk');
    expect((await call(owner, 'PATCH', `/v1/itineraries/${id}`, { description: 'Edited elsewhere' })).data.description).toBe(
      'Edited elsewhere',
    );
    await page.waitForFunction((v) => (globalThis as any).cairnPlanner.itinerary.version > v, version);
    expect(await page.inputValue('#selection input[name=name]')).toBe('Ridge walk');
    await page.click('text=Save group');
    await page.waitForFunction(() => (globalThis as any).cairnPlanner.itinerary.groups[0]?.name === 'Ridge walk');
    await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'planner-tools.png') });
    expect(pageErrors).toEqual([]);
    expect(await page.evaluate(() => (globalThis as any).cairnPlanner.errors)).toEqual([]);
  }, 60_000);

  it('says when its live channel closes: reconnects after a drop and says it is back; says why when it is ended', async () => {
    const created = admin(server, 'create-user', '--email', 'leaver@planner.test', '--password', 'leaver-pass-1').user;
    admin(server, 'add-member', '--org', org.organization.id, '--user', created.id, '--role', 'viewer');
    const page = await (await browser.newContext()).newPage();
    await signIn(page, { email: 'leaver@planner.test', password: 'leaver-pass-1' }, walk);
    // The connection drops (closed under the planner, as a network would): it says so, reconnects and says it is back.
    const first = await page.evaluateHandle(() => (globalThis as any).cairnPlanner.live);
    // Everything the status line says from now on, however briefly.
    await page.evaluate(() => {
      const g = globalThis as any;
      const status = g.document.getElementById('status');
      g.said = [];
      new g.MutationObserver(() => g.said.push(status.textContent)).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await page.evaluate((socket: any) => socket.close(), first);
    await page.waitForFunction(() => (globalThis as any).document.getElementById('status')?.textContent === 'Live updates are back.');
    expect(await page.evaluate(() => (globalThis as any).said)).toEqual([
      expect.stringMatching(/^Live updates interrupted \(\d+\): reconnecting in 1 s\.$/),
      'Live updates are back.',
    ]);
    expect(await page.evaluate((socket) => (globalThis as any).cairnPlanner.live !== socket, first)).toBe(true);
    // The member is removed: the server ends the socket (4401) and the planner says why instead of reconnecting.
    const owner = await login(server, org.owner.email, org.owner.password);
    await call(owner, 'DELETE', `/v1/management/members/${created.id}`);
    await page.waitForFunction(() =>
      ((globalThis as any).document.getElementById('status')?.textContent ?? '').startsWith('Live updates stopped: membership ended'),
    );
    expect(await page.evaluate(() => (globalThis as any).cairnPlanner.liveCloses.at(-1))).toEqual({
      code: 4401,
      reason: 'membership ended',
    });
    expect(await page.evaluate(() => (globalThis as any).cairnPlanner.live)).toBeNull();
  }, 60_000);

  it('is readable at phone width: the map takes the width, the panel follows under it', async () => {
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(page, org.owner, walk);
    const layout = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const map = doc.getElementById('map').getBoundingClientRect();
      const panel = doc.getElementById('panel').getBoundingClientRect();
      return { mapWidth: map.width, panelTop: panel.top, mapBottom: map.bottom, scrollWidth: doc.documentElement.scrollWidth };
    });
    expect(layout.mapWidth).toBeGreaterThan(370);
    expect(layout.panelTop).toBeGreaterThanOrEqual(layout.mapBottom);
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'planner-phone.png') });
  }, 60_000);
});
