// Regions added, replaced and removed while the server runs (REGIONS_PATH, looked at every 200 ms), while a client
// routes the whole time: each change is served without a restart, and no route fails; a replacement under more load
// answers every request from the old region or the new, never an error, and the old one is dropped once drained; a half-written import is never served; a folder that cannot be
// loaded makes the node not ready, saying why. Scaled out, every node behind the load balancer sees each change (six
// answers in a row from the round-robin balancer reach all three nodes twice).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EAST_VALLEY, writeValley } from '../../helpers/demo-valleys.js';
import type { RunningServer } from '../../helpers/server.js';
import { postGraphql } from '../data-api/data-api-client.js';
import { type RegionsServer, startOnValleys } from './regions-server.js';

let at: RegionsServer;
let root = '';
let server: RunningServer;

const WEST_POINT = [1.551, 42.4952];
const EAST_POINT = [1.651, 42.4952];
/** The west valley imported again with other OSM ids: which import answered shows in every place id. */
const WEST_AGAIN = { idOffset: 2_000_000 };

beforeAll(async () => {
  at = await startOnValleys({ west: {} });
  ({ root, server } = at);
}, 120_000);
afterAll(() => at?.stop());

type Json = any;
const data = (query: string, variables: Record<string, unknown> = {}) => at.data(query, variables);

const regionNames = async (): Promise<string[]> => (await data('{ regions { name } }')).regions.map((r: Json) => r.name);

/** Waits until six answers in a row (every node, scaled out) satisfy `check`. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let inARow = 0;
  while (inARow < 6) {
    if (Date.now() > until) throw new Error(`not seen within ${timeoutMs} ms: ${what}`);
    inARow = (await check()) ? inARow + 1 : 0;
    if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PEAK_NEAR = 'query P($near: [Float!]!) { places(input: {text: "Pic de Cairn", near: $near}) { id } }';
const DIRECTIONS = 'query D($w: [[Float!]!]!) { directions(input: {activity: HIKING_AND_TRAIL, waypoints: $w}) { routes { distance } } }';

async function readiness(): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/readyz`);
  return { status: res.status, body: await res.json() };
}

/**
 * A client routing in the west valley the whole time, from the first change to the last: each answer a route, never an
 * error, whatever is added, replaced or removed meanwhile.
 */
const background = { stop: false, answered: 0, failed: [] as string[], done: Promise.resolve() };
function routeMeanwhile(): void {
  background.done = (async () => {
    while (!background.stop) {
      const r = await postGraphql(server, at.caller, { query: DIRECTIONS, variables: { w: [WEST_POINT, [1.5703, 42.5049]] } });
      if (r.status === 200 && !r.body.errors && r.body.data.directions.routes.length > 0) background.answered++;
      else background.failed.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
  })();
}

describe('regions changed while the server runs', () => {
  it('serves a region folder added to the folder, with no restart', async () => {
    routeMeanwhile();
    await writeValley(join(root, 'east'), EAST_VALLEY);
    await eventually(async () => (await regionNames()).join() === 'east,west', 'east added');
    const routed = await data(DIRECTIONS, { w: [EAST_POINT, [1.6703, 42.5049]] });
    expect(routed.directions.routes[0].distance).toBeGreaterThan(1000);
  });

  it('never serves an import still being written (its hidden staging folder)', async () => {
    const staging = join(root, '.north.tmp-1-x');
    mkdirSync(staging);
    writeFileSync(join(staging, 'meta.json'), '{"formatVersion": 2}');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await regionNames()).toEqual(['east', 'west']);
    expect((await readiness()).status).toBe(200);
    rmSync(staging, { recursive: true });
  });

  it('is not ready while a folder cannot be loaded, says why, and serves the others meanwhile', async () => {
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'meta.json'), 'not json');
    await eventually(async () => (await readiness()).status === 503, 'broken folder reported');
    const { body } = await readiness();
    expect(body.status).toBe('not_ready');
    expect(body.problems).toEqual([
      expect.objectContaining({ name: 'broken', path: broken, reason: expect.stringContaining('meta.json') }),
    ]);
    await server.waitForOutput('"msg":"region not loaded","region":"broken"');
    expect(await regionNames()).toEqual(['east', 'west']);
    rmSync(broken, { recursive: true });
    await eventually(async () => (await readiness()).status === 200, 'ready again');
  });

  it('replaces a region under load: every answer from the old import or the new, none failed, the old one dropped', async () => {
    const before = (await data(PEAK_NEAR, { near: WEST_POINT })).places[0].id;
    const seen = new Set<string>();
    let failures = 0;
    let stop = false;
    const load = async () => {
      while (!stop) {
        const [places, routed] = await Promise.all([
          postGraphql(server, at.caller, { query: PEAK_NEAR, variables: { near: WEST_POINT } }),
          postGraphql(server, at.caller, { query: DIRECTIONS, variables: { w: [WEST_POINT, [1.5703, 42.5049]] } }),
        ]);
        if (places.status !== 200 || places.body.errors || routed.status !== 200 || routed.body.errors) failures++;
        else seen.add(places.body.data.places.map((p: Json) => p.id).join());
      }
    };
    const clients = Array.from({ length: 4 }, load);
    await writeValley(join(root, 'west'), WEST_AGAIN);
    await eventually(
      async () => Number((await data(PEAK_NEAR, { near: WEST_POINT })).places[0].id.split('/')[1]) > WEST_AGAIN.idOffset,
      'west replaced',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop = true;
    await Promise.all(clients);
    expect(failures).toBe(0);
    const after = (await data(PEAK_NEAR, { near: WEST_POINT })).places[0].id;
    expect(after).not.toBe(before);
    // One place per answer, from one import or the other.
    expect([...seen].every((ids) => ids === before || ids === after)).toBe(true);
    expect(seen.has(before)).toBe(true);
    expect(seen.has(after)).toBe(true);
    await server.waitForOutput('"msg":"region replaced","region":"west"');
    await server.waitForOutput('"msg":"region dropped","region":"west"');
  });

  it('stops serving a region whose folder is removed', async () => {
    rmSync(join(root, 'east'), { recursive: true });
    await eventually(async () => (await regionNames()).join() === 'west', 'east removed');
    const r = await postGraphql(server, at.caller, { query: DIRECTIONS, variables: { w: [EAST_POINT, [1.6703, 42.5049]] } });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await readiness()).body).toMatchObject({ status: 'ready', regions: ['west'], problems: [] });
  });

  it('answered every route asked meanwhile, through every change', async () => {
    background.stop = true;
    await background.done;
    expect(background.failed).toEqual([]);
    expect(background.answered).toBeGreaterThan(10);
  });
});
