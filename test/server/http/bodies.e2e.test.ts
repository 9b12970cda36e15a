// Bodies at the edges, through both front doors: request bodies sent compressed (gzip, deflate, refused
// encodings, bombs, corrupt streams), and answers that carry no content (204, 304) framed without
// Content-Type or Content-Length.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawSession } from '../../helpers/raw-http.js';
import { bootstrap, type Bootstrapped, mintSessionToken, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';
import { FRONT_DOORS } from './front-doors.js';

const GPX = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'ridge-walk.gpx'));

interface Envelope {
  data?: { id: string; name: string };
  errors?: { message: string; extensions: { code: string } }[];
}

describe.each(FRONT_DOORS)('through $name', ({ env }) => {
  let server: RunningServer;
  let org: Bootstrapped;
  let writer: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({ ...env, SEED_DEMO: '0' });
    org = bootstrap(server);
    writer = { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id };
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function post(path: string, body: Buffer, headers: Record<string, string>) {
    const res = await fetch(server.url + path, { method: 'POST', headers: { ...writer, ...headers }, body });
    return { status: res.status, body: (await res.json()) as Envelope };
  }
  const collection = (name: string) => Buffer.from(JSON.stringify({ name, privacy: 'public' }));
  const json = (encoding: string) => ({ 'Content-Type': 'application/json', 'Content-Encoding': encoding });

  describe('compressed request bodies', () => {
    it('a gzip JSON body is read as the JSON it holds', async () => {
      const { status, body } = await post('/v1/collections', gzipSync(collection('Gzipped ridge')), json('gzip'));
      expect(status).toBe(201);
      expect(body.data?.name).toBe('Gzipped ridge');
    });

    it('deflate bodies are read whether zlib-wrapped or raw, and identity means no compression', async () => {
      expect((await post('/v1/collections', deflateSync(collection('Wrapped')), json('deflate'))).body.data?.name).toBe('Wrapped');
      expect((await post('/v1/collections', deflateRawSync(collection('Raw')), json('Deflate'))).body.data?.name).toBe('Raw');
      expect((await post('/v1/collections', collection('Plain'), json('identity'))).body.data?.name).toBe('Plain');
    });

    it('a gzip GPX file imports like the plain file', async () => {
      const plain = await post('/v1/itineraries/import?name=Plain', GPX, { 'Content-Type': 'application/gpx+xml' });
      const zipped = await post('/v1/itineraries/import?name=Zipped', gzipSync(GPX), {
        'Content-Type': 'application/gpx+xml',
        'Content-Encoding': 'gzip',
      });
      expect(plain.status).toBe(201);
      expect(zipped.status).toBe(201);
      expect(zipped.body.data?.name).toBe('Zipped');
    });

    it('a small body that inflates past the limit answers 413 PAYLOAD_TOO_LARGE', async () => {
      // 64 MiB of spaces compresses to about 64 KiB: far under the 1 MiB limit as sent, far over it inflated.
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
      expect(bomb.byteLength).toBeLessThan(1024 * 1024);
      const { status, body } = await post('/v1/collections', bomb, json('gzip'));
      expect(status).toBe(413);
      expect(body.errors?.[0]?.extensions.code).toBe('PAYLOAD_TOO_LARGE');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });

    it('an encoding other than gzip or deflate answers 400 naming the accepted ones', async () => {
      for (const encoding of ['br', 'compress', 'gzip, gzip']) {
        const { status, body } = await post('/v1/collections', gzipSync(collection('Refused')), json(encoding));
        expect(status, encoding).toBe(400);
        expect(body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
        expect(body.errors?.[0]?.message).toMatch(/gzip, deflate/);
      }
    });

    it('a body that does not inflate answers 400 without repeating any of its bytes', async () => {
      const { status, body } = await post('/v1/collections', Buffer.from('plainly-not-gzip {"name":"Leak"}'), json('gzip'));
      expect(status).toBe(400);
      expect(body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
      expect(body.errors?.[0]?.message).not.toMatch(/plainly|Leak/);
    });
  });

  describe('answers without content', () => {
    it('a DELETE answers 204 with neither Content-Type nor Content-Length, and the connection serves the next request', async () => {
      const created = await post('/v1/collections', collection('Short-lived'), { 'Content-Type': 'application/json' });
      const id = created.body.data?.id as string;
      const credentials = `X-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\n`;
      const outcome = await rawSession(
        server.port,
        (socket) => {
          socket.write(`DELETE /v1/collections/${id} HTTP/1.1\r\nHost: x\r\n${credentials}\r\n`);
          // The next request once the 204 is in: a body-less answer must not leave the connection waiting.
          socket.once('data', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
        },
        1000,
      );
      const deleted = parseResponse(outcome.bytes);
      expect(deleted?.status).toBe(204);
      expect(deleted?.headers['content-type']).toBeUndefined();
      expect(deleted?.headers['content-length']).toBeUndefined();
      expect(deleted?.headers['x-request-id']).toBeTruthy();
      const next = parseResponse(deleted?.rest ?? Buffer.alloc(0));
      expect(next?.status).toBe(200);
      expect(next?.body).toBe('{"status":"ok"}');
    });

    it('a CORS preflight answers 204 with neither Content-Type nor Content-Length', async () => {
      const outcome = await rawSession(
        server.port,
        (socket) => {
          socket.write(
            'OPTIONS /v1/collections HTTP/1.1\r\nHost: x\r\nOrigin: https://maps.example.com\r\nAccess-Control-Request-Method: POST\r\n\r\n',
          );
        },
        1000,
      );
      const res = parseResponse(outcome.bytes);
      expect(res?.status).toBe(204);
      expect(res?.headers['access-control-allow-origin']).toBe('https://maps.example.com');
      expect(res?.headers['content-type']).toBeUndefined();
      expect(res?.headers['content-length']).toBeUndefined();
    });

    it('a 304 Not Modified carries its ETag and neither Content-Type nor Content-Length', async () => {
      const etag = (await fetch(`${server.url}/studio/assets/cairn-mark.png`)).headers.get('etag') as string;
      const outcome = await rawSession(
        server.port,
        (socket) => {
          socket.write(`GET /studio/assets/cairn-mark.png HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\n\r\n`);
        },
        1000,
      );
      const res = parseResponse(outcome.bytes);
      expect(res?.status).toBe(304);
      expect(res?.headers.etag).toBe(etag);
      expect(res?.headers['content-type']).toBeUndefined();
      expect(res?.headers['content-length']).toBeUndefined();
    });
  });
  describe('deeply nested JSON', () => {
    // Past a few thousand levels, copying a parsed document to a worker or walking it overflows the stack: such
    // bodies used to answer 500 INTERNAL_ERROR.
    const deepArray = Buffer.from(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    const deepObject = Buffer.from(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`);
    const expectTooDeep = (status: number, body: Envelope, what: string) => {
      expect(status, what).toBe(400);
      expect(body.errors?.[0]?.extensions.code, what).toBe('BAD_REQUEST');
      expect(body.errors?.[0]?.message, what).toMatch(/more than 64 levels deep: send a flatter document/);
    };

    it('a 20,000-deep array or a 5,000-deep object answers 400 on the import and on a JSON write', async () => {
      for (const [name, body] of [
        ['array', deepArray],
        ['object', deepObject],
      ] as const) {
        const imported = await post('/v1/itineraries/import', body, { 'Content-Type': 'application/json' });
        expectTooDeep(imported.status, imported.body, `import, deep ${name}`);
        const created = await post('/v1/collections', body, { 'Content-Type': 'application/json' });
        expectTooDeep(created.status, created.body, `collection, deep ${name}`);
        // The same file sent as GeoJSON is read by the import's worker: the same bound, the same answer.
        const geojson = await post('/v1/itineraries/import', body, { 'Content-Type': 'application/geo+json' });
        expect([geojson.status, geojson.body.errors?.[0]?.extensions.code], `GeoJSON, deep ${name}`).toEqual([400, 'BAD_REQUEST']);
        expect(geojson.body.errors?.[0]?.message).toMatch(/more than 64 levels deep/);
      }
      // Deep where a valid Feature's properties are: refused too, not parsed and half read.
      const feature = `{"type":"Feature","properties":${deepArray},"geometry":{"type":"LineString","coordinates":[[1.5,42.5],[1.51,42.51]]}}`;
      const deepFeature = await post('/v1/itineraries/import', Buffer.from(feature), { 'Content-Type': 'application/geo+json' });
      expect(deepFeature.status).toBe(400);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });

    it('deep GraphQL variables answer 400, in a POST body and in a GET query', async () => {
      const headers = { 'X-API-Key': org.publishableKey.key, 'X-Session-Token': await mintSessionToken(server, org) };
      const query = 'query ($w: [[Float!]!]!) { directions(input: {activity: HIKING_AND_TRAIL, waypoints: $w}) { routes { distance } } }';
      const variables = `{"w":${deepArray.toString()}}`;
      const posted = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: `{"query":${JSON.stringify(query)},"variables":${variables}}`,
      });
      expectTooDeep(posted.status, (await posted.json()) as Envelope, 'POST /graphql');
      const got = await fetch(
        `${server.url}/graphql?${new URLSearchParams({ query, variables: `{"w":${'['.repeat(2_000)}${']'.repeat(2_000)}}` })}`,
        { headers },
      );
      expectTooDeep(got.status, (await got.json()) as Envelope, 'GET /graphql');
    });

    it('nesting up to the limit is read, and brackets inside strings do not count', async () => {
      const name = `Brackets ${'[{'.repeat(40)}`;
      const { status, body } = await post('/v1/collections', Buffer.from(JSON.stringify({ name, privacy: 'public' })), {
        'Content-Type': 'application/json',
      });
      expect(status).toBe(201);
      expect(body.data?.name).toBe(name);
      // 64 levels: the body's own object and 63 nested arrays in a field the schema refuses by type, not by depth.
      const nested = await post('/v1/collections', Buffer.from(`{"name":${'['.repeat(63)}${']'.repeat(63)}}`), {
        'Content-Type': 'application/json',
      });
      expect(nested.status).toBe(400);
      expect(nested.body.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
    });
  });
});
