// The planner inside an organization's embeds: refused until the organization allows it (management settings
// `embed_planner`), then served with the key's own rules and framed only by the key's allowed origins; the embed
// page offers the link only then.

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Bootstrapped,
  bootstrap,
  login,
  mintSessionToken,
  ownerCalls,
  type RunningServer,
  startServer,
} from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;
let itinerary: string;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  const call = ownerCalls(server, org);
  itinerary = (await call('POST', '/v1/itineraries', { name: 'Framed', privacy: 'public', collection_id: org.collection.id })).data.id;
  await call('POST', `/v1/itineraries/${itinerary}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.4999] });
  await call('POST', `/v1/itineraries/${itinerary}/publish`);
}, 30_000);
afterAll(() => server?.stop());

const planner = async (query: string) => fetch(`${server.url}/studio/embed/planner?${query}`, { headers: { Accept: 'text/html' } });
const embedConfig = async (session: string) => {
  const html = await (
    await fetch(`${server.url}/studio/embed?publishable_key=${org.publishableKey.key}&session_token=${session}&itinerary_id=${itinerary}`)
  ).text();
  return JSON.parse(/<script type="application\/json" id="cairn-embed">(.*?)<\/script>/s.exec(html)![1]!.replaceAll('\\u003c', '<'));
};

it('is refused until the organization allows it, then framed only by the key’s origins', async () => {
  const session = await mintSessionToken(server, org);
  const refused = await planner(`publishable_key=${org.publishableKey.key}&session_token=${session}`);
  expect(refused.status).toBe(403);
  expect(await refused.text()).toContain('embed_planner');
  expect((await embedConfig(session)).plannerUrl).toBeNull();

  const owner = await login(server, org.owner.email, org.owner.password);
  const patched = await fetch(`${server.url}/v1/management/settings`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ embed_planner: true }),
  });
  expect(((await patched.json()) as any).data.embed_planner).toBe(true);

  const served = await planner(`publishable_key=${org.publishableKey.key}&session_token=${session}`);
  expect(served.status).toBe(200);
  expect(await served.text()).toContain('Cairn planner');
  expect(served.headers.get('content-security-policy')).toContain('frame-ancestors *');
  expect(served.headers.get('x-frame-options')).toBeNull();
  expect((await embedConfig(session)).plannerUrl).toBe('/studio/embed/planner');

  // The key's rules hold: without its session (this organization requires one) or with an unknown key, refused.
  expect((await planner(`publishable_key=${org.publishableKey.key}`)).status).toBe(401);
  expect((await planner('publishable_key=pk_unknown000000000000000000')).status).toBe(401);
  // The stand-alone planner is never framed.
  const alone = await fetch(`${server.url}/studio`);
  expect(alone.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
});
