// The embed page over real HTTP: the HTML page with its configuration and security policy (framing limited to the
// key's allowed origins), what it may show (404 for what the caller may not read or was never published), route_id
// as another name for itinerary_id, layers capped by the organization's embed settings, and errors as a small HTML
// page for navigations (the JSON envelope otherwise).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  type Bootstrapped,
  bootstrap,
  mintSessionToken,
  ownerCalls,
  type RunningServer,
  startServer,
} from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;
let published: string;
let draft: string;
let call: ReturnType<typeof ownerCalls>;

const session = (pk = org.publishableKey.key) => mintSessionToken(server, org, pk);

const page = async (query: string, headers: Record<string, string> = { Accept: 'text/html' }) => {
  const res = await fetch(`${server.url}/studio/embed?${query}`, { headers });
  const text = await res.text();
  const config = /<script type="application\/json" id="cairn-embed">(.*?)<\/script>/.exec(text)?.[1];
  return { res, text, config: config ? JSON.parse(config) : undefined };
};

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  call = ownerCalls(server, org);
  published = (await call('POST', '/v1/itineraries', { name: 'Lake loop <b>', privacy: 'public' })).data.id;
  await call('POST', `/v1/itineraries/${published}/segments`, {
    engine: 'freehand',
    coordinates: [
      [1.551, 42.4952],
      [1.5703, 42.5049],
    ],
  });
  await call('POST', `/v1/itineraries/${published}/publish`);
  await call('PUT', `/v1/collections/${org.collection.id}/itineraries/${published}`);
  draft = (await call('POST', '/v1/itineraries', { name: 'Draft' })).data.id;
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('GET /studio/embed', () => {
  it('answers the page: MapLibre from this server, its configuration, and a policy that lets any site frame it when no origin is set', async () => {
    const { res, text, config } = await page(
      `publishable_key=${org.publishableKey.key}&session_token=${await session()}&collection_id=${org.collection.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(text).toContain('<script src="/studio/assets/maplibre-gl.js"></script>');
    expect(config).toMatchObject({
      collectionId: org.collection.id,
      itineraryId: null,
      layers: ['trails', 'itineraries', 'waypoints', 'zones'],
    });
    expect(config.sessionExpiresAt).toBeGreaterThan(Date.now());
    for (const asset of ['maplibre-gl.js', 'maplibre-gl-csp-worker.js', 'maplibre-gl.css', 'embed.js', 'embed.css']) {
      expect((await fetch(`${server.url}/studio/assets/${asset}`)).status, asset).toBe(200);
    }
  });

  it('lets only the key’s allowed origins frame it', async () => {
    const key = admin(
      server,
      'create-key',
      '--org',
      org.organization.id,
      '--type',
      'pk',
      '--name',
      'site',
      '--scopes',
      'embedding',
      '--origins',
      'https://trails.example,https://*.guides.example',
    ).api_key.key;
    const { res } = await page(`publishable_key=${key}&session_token=${await session(key)}&collection_id=${org.collection.id}`, {
      Accept: 'text/html',
      Referer: 'https://trails.example/trip',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors https://trails.example https://*.guides.example');
  });

  it('focuses an itinerary by itinerary_id or route_id, escaping its name in the page', async () => {
    const q = `publishable_key=${org.publishableKey.key}&session_token=${await session()}&collection_id=${org.collection.id}`;
    const byId = await page(`${q}&itinerary_id=${published}`);
    expect(byId.config).toMatchObject({ itineraryId: published, name: 'Lake loop <b>' });
    expect(byId.text).toContain('<title>Lake loop &lt;b&gt;</title>');
    expect((await page(`${q}&route_id=${published}`)).config.itineraryId).toBe(published);
    const both = await page(`${q}&route_id=${published}&itinerary_id=${draft}`, {});
    expect(both.res.status).toBe(400);
  });

  it('answers 404 for a never-published itinerary and a collection the caller cannot read, 400 when nothing is named', async () => {
    const q = `publishable_key=${org.publishableKey.key}&session_token=${await session()}`;
    expect((await page(`${q}&itinerary_id=${draft}`)).res.status).toBe(404);
    expect((await page(`${q}&collection_id=0b0e8e43-1111-4222-8333-444455556666`)).res.status).toBe(404);
    const none = await page(q, {});
    expect(none.res.status).toBe(400);
    expect(JSON.parse(none.text).errors[0].path).toEqual(['request', 'query', 'collection_id']);
  });

  it('caps the layers by the organization’s embed settings', async () => {
    admin(server, 'set', '--org', org.organization.id, 'embed.layers=trails,itineraries');
    try {
      const { config } = await page(
        `publishable_key=${org.publishableKey.key}&session_token=${await session()}&collection_id=${org.collection.id}`,
      );
      expect(config.layers).toEqual(['trails', 'itineraries']);
    } finally {
      admin(server, 'set', '--org', org.organization.id, 'embed.layers=trails,itineraries,waypoints,zones');
    }
  });

  it('errors are a small HTML page for navigations and the JSON envelope otherwise', async () => {
    // The organization holds intelligence: the embed needs a session token.
    const html = await page(`publishable_key=${org.publishableKey.key}&collection_id=${org.collection.id}`);
    expect(html.res.status).toBe(401);
    expect(html.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toMatch(/<h1>401 <code>UNAUTHORIZED<\/code><\/h1><p>[^<]*session token/);
    const json = await page(`publishable_key=${org.publishableKey.key}&collection_id=${org.collection.id}`, { Accept: 'application/json' });
    expect(json.res.status).toBe(401);
    expect(JSON.parse(json.text).errors[0].extensions.code).toBe('UNAUTHORIZED');
  });
});
