// What a hostile client sends the Tile API and the embed page: coordinates that are not small whole numbers
// (huge, exponents, signs, fractions, padded, percent-encoded, non-ASCII), ids that are not uuids, control
// characters in the query, HTML in the name an embed shows. Each is a 400 (or a 404 for a path that is no route)
// in the envelope, with the field and what to send, never a 5xx, and nothing leaks into the HTML page.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap, mintSessionToken, ownerCalls, type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { 'X-API-Key': org.publishableKey.key, ...headers } });

describe('hostile tile coordinates', () => {
  it.each([
    ['1e400/0/0', 'z'],
    ['99999999999999999999/0/0', 'z'],
    ['3/1e3/0', 'x'],
    ['3/0x1/0', 'x'],
    ['3/+1/0', 'x'],
    ['3/01/0', 'x'],
    ['3/1.0/0', 'x'],
    ['3/ 1/0', 'x'],
    ['3/1/%31%32', 'y'],
    ['3/1/٣', 'y'],
    ['3/1/9007199254740993', 'y'],
    ['-1/0/0', 'z'],
  ])('%s is refused at %s', async (zxy, field) => {
    const res = await get(`/v1/tiles/trails/${zxy}.mvt`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(body.errors[0].path).toEqual(['request', 'params', field]);
    expect(body.errors[0].message.length).toBeGreaterThan(10);
  });

  it('ids that are not uuids, and control characters, are refused with their field; paths that are no route are 404', async () => {
    for (const path of [
      '/v1/tiles/itineraries/not-a-uuid/1/0/0.mvt',
      '/v1/tiles/collections/%00/1/0/0.mvt',
      '/v1/tiles/overlays/itineraries/0b0e8e43-1111-4222-8333-44445555666.json',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as any).errors[0].path[2]).toMatch(/_id$/);
    }
    expect((await get('/v1/tiles/trails/1/0/0.png')).status).toBe(404);
    expect((await get('/v1/tiles/trails/1/0/0/0.mvt')).status).toBe(404);
  });
});

describe('hostile embed queries', () => {
  it('refuses bad ids and control characters with their field, as HTML for a browser', async () => {
    const session = await mintSessionToken(server, org);
    const base = `/studio/embed?publishable_key=${org.publishableKey.key}&session_token=${session}`;
    const json = await get(`${base}&collection_id=%0a${org.collection.id}`);
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).errors[0].path).toEqual(['request', 'query', 'collection_id']);
    const html = await get(`${base}&itinerary_id=<script>alert(1)</script>`, { Accept: 'text/html' });
    expect(html.status).toBe(400);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await html.text();
    expect(text).not.toContain('<script>');
    expect(html.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
  });

  it('an itinerary name with markup stays text in the page and cannot close its data block', async () => {
    const call = ownerCalls(server, org);
    const id = (await call('POST', '/v1/itineraries', { name: '</script><script>alert(1)</script>', privacy: 'public' })).data.id;
    await call('POST', `/v1/itineraries/${id}/segments`, {
      engine: 'freehand',
      coordinates: [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ],
    });
    await call('POST', `/v1/itineraries/${id}/publish`);
    const session = await mintSessionToken(server, org);
    const res = await get(`/studio/embed?publishable_key=${org.publishableKey.key}&session_token=${session}&itinerary_id=${id}`, {
      Accept: 'text/html',
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('</script><script>alert(1)');
    const block = /<script type="application\/json" id="cairn-embed">(.*?)<\/script>/.exec(text)?.[1] as string;
    expect(JSON.parse(block).name).toBe('</script><script>alert(1)</script>');
  });
});
