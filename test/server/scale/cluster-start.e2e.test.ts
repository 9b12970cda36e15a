// Three nodes started at the same moment on an empty PostgreSQL database, as an orchestrator starts a scaled-out
// deployment: they race through the migrations, the signing secret and the first-start seeding. Exactly one of them
// seeds and prints the banner; what it prints works on every node; a token signed by one node is accepted by the
// others; the OpenAPI document is the recorded one. Skipped, saying why, where PostgreSQL, Redis or HAProxy is missing.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterUnavailable, type RunningCluster, startCluster } from '../../helpers/cluster.js';
import type { RunningServer } from '../../helpers/server.js';

const unavailable = await clusterUnavailable();
if (unavailable) console.warn(`cluster-start.e2e: skipped: ${unavailable}`);

const BANNER = 'Cairn demo organization created';
const FIXTURE = fileURLToPath(new URL('../../fixtures/openapi/openapi.json', import.meta.url));

/** One line of the banner, by its label (`publishable key`, `embed`, …): the value up to the first space. */
function bannerValue(banner: string, label: string): string {
  const line = banner.split('\n').find((l) => l.trimStart().startsWith(label));
  if (!line) throw new Error(`the banner has no "${label}" line:\n${banner}`);
  return line.trimStart().slice(label.length).trim().split(' ')[0] as string;
}

describe.skipIf(unavailable !== undefined)('three nodes started together on an empty database', () => {
  let cluster: RunningCluster;
  let nodes: RunningServer[];
  let banner: string;

  beforeAll(async () => {
    cluster = await startCluster(); // SEED_DEMO on, as `npm start` has it
    nodes = cluster.nodes;
    // Seeding plans the demo itineraries after listening: wait for the banner, then a little for a second one.
    await cluster.waitForOutput(BANNER, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    banner = cluster.stdout().slice(cluster.stdout().indexOf(BANNER));
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('one node seeds the demo organization and prints the banner; the others do not', () => {
    const printed = nodes.filter((node) => node.stdout().includes(BANNER));
    expect(printed).toHaveLength(1);
    expect(cluster.stdout().split(BANNER)).toHaveLength(2);
    expect(cluster.stderr()).not.toMatch(/failed|error/i);
  });

  it('the banner’s key, collection, owner login and embed link work on every node', async () => {
    const key = bannerValue(banner, 'publishable key');
    const collection = banner.match(/demo collection .*\(([0-9a-f-]{36})\)/)?.[1] as string;
    const [, email, password] = banner.match(/owner login\s+(\S+) \/ (\S+)/) as RegExpMatchArray as [string, string, string];
    const embed = new URL(bannerValue(banner, 'embed'));
    const listed = await fetch(`${cluster.url}/v1/collections/${collection}`, { headers: { 'X-API-Key': key } });
    expect(listed.status).toBe(200);
    for (const node of nodes) {
      const read = await fetch(`${node.url}/v1/collections/${collection}/itineraries`, { headers: { 'X-API-Key': key } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      const signedIn = await fetch(`${node.url}/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(signedIn.status).toBe(200);
      const page = await fetch(`${node.url}${embed.pathname}${embed.search}`, { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    }
  });

  it('one signing secret: a session minted on one node is accepted by the others', async () => {
    const key = bannerValue(banner, 'publishable key');
    const secret = bannerValue(banner, 'secret key');
    const minted = await fetch(`${(nodes[0] as RunningServer).url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': secret },
      body: JSON.stringify({ publishable_key: key }),
    });
    expect(minted.status).toBe(201);
    const token = ((await minted.json()) as { data: { token: string } }).data.token;
    for (const node of nodes.slice(1)) {
      const res = await fetch(`${node.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key, 'X-Session-Token': token },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status).toBe(200);
    }
  });

  it('serves the recorded OpenAPI document on PostgreSQL', async () => {
    const served = (await (await fetch(`${cluster.url}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { paths: Record<string, unknown> };
    expect(served.paths).toEqual(recorded.paths);
  });
});
