// The HTTP core over real sockets, through both front doors: routing, CORS, bodies, validation,
// localization, request ids.

import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawExchange as rawHttp, rawSession } from '../../helpers/raw-http.js';
import { bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../helpers/server.js';
import { FRONT_DOORS } from './front-doors.js';

let server: RunningServer;
let org: Bootstrapped;
/** Credentials of a member allowed to write, so that requests reach body handling. */
let writer: Record<string, string>;

interface Envelope {
  errors: { message: string; path?: (string | number)[]; extensions: { code: string; metadata?: unknown } }[];
  extensions?: { metadata?: unknown };
}

async function call(path: string, init: RequestInit = {}): Promise<{ res: Response; body: Envelope & Record<string, unknown> }> {
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  return { res, body: text ? JSON.parse(text) : {} };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...writer, ...headers },
  body: JSON.stringify(body),
});

/** Raw exchange with the test server. */
const rawExchange = (send: (socket: Socket) => void, ms = 2000) => rawHttp(server.port, send, ms);

// Both front doors serve the same pipeline, so the same behaviour is checked through each.
describe.each(FRONT_DOORS)('through $name', ({ env }) => {
  beforeAll(async () => {
    server = await startServer(env, { diagnostics: true });
    org = bootstrap(server);
    writer = { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id };
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('routing', () => {
    it('an unknown path answers 404 NOT_FOUND in the error envelope', async () => {
      const { res, body } = await call('/v1/nothing-here');
      expect(res.status).toBe(404);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]?.extensions.code).toBe('NOT_FOUND');
      expect(typeof body.errors[0]?.message).toBe('string');
    });

    it('a known path with the wrong method answers 405 with an Allow header', async () => {
      const { res, body } = await call('/v1/itineraries', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(body.errors[0]?.extensions.code).toBe('METHOD_NOT_ALLOWED');
      const allow = (res.headers.get('allow') ?? '').split(', ').sort();
      expect(allow).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    });

    it('405 names every method of a parameterized path', async () => {
      const { res } = await call('/v1/itineraries/6f1c1e5e-0000-4000-8000-000000000001/share', { method: 'GET' });
      expect(res.status).toBe(405);
      expect((res.headers.get('allow') ?? '').split(', ').sort()).toEqual(['DELETE', 'OPTIONS', 'POST']);
    });

    it('removed operations (/groups, collection users) are not routes', async () => {
      const id = '6f1c1e5e-0000-4000-8000-000000000001';
      expect((await call(`/v1/itineraries/${id}/groups`, json({}))).res.status).toBe(404);
      expect((await call(`/v1/collections/${id}/users`)).res.status).toBe(404);
      expect((await call(`/v1/collections/${id}/users/${id}`, { method: 'PUT' })).res.status).toBe(404);
    });

    it('HEAD on a GET route answers the headers without a body', async () => {
      const res = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
      expect(res.headers.get('content-length')).toBe('15');
    });

    it('a kept-alive connection goes on after a HEAD answer (a proxy reuses it for the next request)', async () => {
      for (const target of ['/healthz', '/v1/collections/6f1c1e5e-0000-4000-8000-000000000001']) {
        const session = await rawSession(
          server.port,
          (socket) => {
            socket.write(`HEAD ${target} HTTP/1.1\r\nHost: cairn\r\n\r\n`);
            setTimeout(() => socket.write('GET /healthz HTTP/1.1\r\nHost: cairn\r\n\r\n'), 100);
          },
          600,
        );
        const head = parseResponse(session.bytes, { head: true });
        expect(head?.headers['content-length'], target).toMatch(/^[1-9]\d*$/);
        expect(head?.body, target).toBe('');
        const next = parseResponse(head?.rest ?? Buffer.alloc(0));
        expect(next?.status, target).toBe(200);
        expect(next?.body, target).toBe('{"status":"ok"}');
        expect(session.closed, target).toBe(false);
      }
    });

    it('a binary route answers bytes with their content type', async () => {
      const res = await fetch(`${server.url}/studio/assets/cairn-mark.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      const etag = res.headers.get('etag') as string;
      const again = await fetch(`${server.url}/studio/assets/cairn-mark.png`, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    });
  });

  /** Generated ids: a per-process random prefix and a counter. */
  const GENERATED_ID = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/;

  describe('request ids', () => {
    it('every response carries X-Request-Id, errors included', async () => {
      const ok = await fetch(`${server.url}/healthz`);
      const missing = await fetch(`${server.url}/nope`);
      expect(ok.headers.get('x-request-id')).toMatch(GENERATED_ID);
      expect(missing.headers.get('x-request-id')).toMatch(GENERATED_ID);
      expect(ok.headers.get('x-request-id')).not.toBe(missing.headers.get('x-request-id'));
    });

    it('a well-formed incoming X-Request-Id is echoed, a malformed one replaced', async () => {
      const echoed = await fetch(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'trace-42.a' } });
      expect(echoed.headers.get('x-request-id')).toBe('trace-42.a');
      const replaced = await fetch(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
      expect(replaced.headers.get('x-request-id')).toMatch(GENERATED_ID);
      const credential = await fetch(`${server.url}/healthz`, { headers: { 'X-Request-Id': 'pk_AbCdEfGhIjKlMnOpQrStUvWx' } });
      expect(credential.headers.get('x-request-id')).toMatch(GENERATED_ID);
    });
  });

  describe('CORS', () => {
    it('a preflight allows the credential headers of the spec', async () => {
      const res = await fetch(`${server.url}/v1/collections`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://maps.example.com',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'x-api-key, x-user-id, content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://maps.example.com');
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const h of [
        'x-api-key',
        'x-session-token',
        'x-user-id',
        'x-share-token',
        'content-type',
        'authorization',
        'accept-language',
        'x-request-id',
      ]) {
        expect(allowed).toContain(h);
      }
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    });

    it('a preflight on an unknown path answers 404', async () => {
      const res = await fetch(`${server.url}/v1/unknown`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(res.status).toBe(404);
    });

    it('simple requests with an Origin get Access-Control-Allow-Origin and expose X-Request-Id and RateLimit-*, errors too', async () => {
      const exposed = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate';
      const ok = await fetch(`${server.url}/healthz`, { headers: { Origin: 'https://a.example' } });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect(ok.headers.get('access-control-expose-headers')).toBe(exposed);
      const tiles = await fetch(`${server.url}/v1/tiles/trails.json`, {
        headers: { Origin: 'https://a.example', 'X-API-Key': org.publishableKey.key },
      });
      expect(tiles.headers.get('ratelimit-remaining')).not.toBeNull();
      expect(tiles.headers.get('access-control-expose-headers')).toBe(exposed);
      for (const path of ['/nope', '/v1/tiles/trails.json']) {
        const err = await fetch(`${server.url}${path}`, { headers: { Origin: 'https://a.example' } });
        expect(err.status).toBeGreaterThanOrEqual(400);
        expect(err.headers.get('access-control-allow-origin')).toBe('https://a.example');
        expect(err.headers.get('access-control-expose-headers')).toBe(exposed);
      }
    });
  });

  describe('request bodies', () => {
    it('broken JSON answers 400 BAD_REQUEST', async () => {
      const { res, body } = await call('/v1/collections', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...writer },
        body: '{"name": "x",',
      });
      expect(res.status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]?.extensions.code).toBe('BAD_REQUEST');
      expect(body.errors[0]?.path).toBeUndefined();
    });

    it('a wrong Content-Type answers 400 BAD_REQUEST', async () => {
      const { res, body } = await call('/v1/collections', {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', ...writer },
        body: '{"name":"x","privacy":"public"}',
      });
      expect(res.status).toBe(400);
      expect(body.errors[0]?.extensions.code).toBe('BAD_REQUEST');
    });

    it('each failed field gets its own VALIDATION_FAILED entry with a request.body path', async () => {
      const { res, body } = await call('/v1/collections', json({ privacy: 'secret', color: 'red', description: 7 }));
      expect(res.status).toBe(400);
      for (const e of body.errors) expect(e.extensions.code).toBe('VALIDATION_FAILED');
      const paths = body.errors.map((e) => JSON.stringify(e.path)).sort();
      expect(paths).toEqual(
        [
          ['request', 'body', 'color'],
          ['request', 'body', 'description'],
          ['request', 'body', 'name'],
          ['request', 'body', 'privacy'],
        ]
          .map((p) => JSON.stringify(p))
          .sort(),
      );
    });

    it('a body of the wrong JSON type is one entry at ["request","body"]', async () => {
      const { res, body } = await call('/v1/collections', json([1, 2, 3]));
      expect(res.status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]?.path).toEqual(['request', 'body']);
    });

    it('a valid body reaches the operation', async () => {
      const { res } = await call('/v1/collections', json({ name: 'Ridges', privacy: 'public' }));
      expect(res.status).toBe(201);
    });

    it('query parameters are validated with request.query paths', async () => {
      const { res, body } = await call('/_diagnostics/slow?ms=soon&extra=1');
      expect(res.status).toBe(400);
      const paths = body.errors.map((e) => JSON.stringify(e.path)).sort();
      expect(paths).toEqual([JSON.stringify(['request', 'query', 'extra']), JSON.stringify(['request', 'query', 'ms'])]);
    });

    it('reserved credential names in the query are never treated as parameters', async () => {
      const { res } = await call('/_diagnostics/slow?ms=1&publishable_key=pk_x&session_token=sess_y&share_token=share_z&auth_token=a');
      expect(res.status).toBe(200);
    });

    it('a declared Content-Length over the limit answers 413 without reading the body', async () => {
      const raw = await rawExchange((socket) => {
        socket.write(
          `POST /v1/collections HTTP/1.1\r\nHost: x\r\nX-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{"name":`,
        );
      });
      expect(raw.startsWith('HTTP/1.1 413')).toBe(true);
      expect(raw).toContain('"PAYLOAD_TOO_LARGE"');
    });

    it('a streamed chunked body answers 413 as soon as it passes the limit, before the client finishes', async () => {
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const raw = await rawExchange((socket) => {
        socket.write(
          `POST /v1/collections HTTP/1.1\r\nHost: x\r\nX-API-Key: ${org.publishableKey.key}\r\nX-User-Id: ${org.owner.id}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const pump = () => {
          // 1 MiB limit: stop after 4 MiB even if nothing came back, and never send the final chunk.
          if (socket.destroyed || sent > 4 * 1024 * 1024) return;
          socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
          sent += chunk.length;
          setTimeout(pump, 2);
        };
        pump();
      }, 3000);
      expect(raw.startsWith('HTTP/1.1 413')).toBe(true);
      expect(raw).toContain('"PAYLOAD_TOO_LARGE"');
      expect(sent).toBeLessThan(4 * 1024 * 1024);
    });

    it('the server keeps serving after an oversized upload', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    });
  });

  describe('localized messages', () => {
    it('the same error has the same code in every language and a localized message', async () => {
      const messages = new Map<string, string>();
      for (const lang of ['en', 'fr', 'es', 'ca', 'de']) {
        const { res, body } = await call('/v1/nothing', { headers: { 'Accept-Language': lang } });
        expect(res.status).toBe(404);
        expect(body.errors[0]?.extensions.code).toBe('NOT_FOUND');
        messages.set(lang, body.errors[0]?.message ?? '');
      }
      expect(new Set(messages.values()).size).toBe(5);
    });

    it('quality values pick the preferred supported language, region subtags fall back to the language', async () => {
      const pick = async (header: string) =>
        (await call('/v1/nothing', { headers: { 'Accept-Language': header } })).body.errors[0]?.message;
      const en = await pick('en');
      const es = await pick('es');
      const de = await pick('de');
      expect(await pick('ja, de-CH;q=0.8, es;q=0.9')).toBe(es);
      expect(await pick('de-AT')).toBe(de);
      expect(await pick('ja, zh;q=0.5')).toBe(en);
      expect(await pick('fr;q=0, de;q=0.1')).toBe(de);
    });

    it('validation messages are localized too, with the same codes and paths', async () => {
      const en = await call('/v1/collections', json({ privacy: 'public' }, { 'Accept-Language': 'en' }));
      const ca = await call('/v1/collections', json({ privacy: 'public' }, { 'Accept-Language': 'ca' }));
      expect(ca.body.errors.map((e) => [e.extensions.code, e.path])).toEqual(en.body.errors.map((e) => [e.extensions.code, e.path]));
      expect(ca.body.errors[0]?.message).not.toBe(en.body.errors[0]?.message);
    });
  });

  describe('aborted requests', () => {
    it('a client that disconnects mid-request does not crash the server', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        // Each connection goes once its bytes are on their way (TCP delivers them before the close).
        ids.push(`gone-slow-${i}`, `gone-body-${i}`);
        await rawExchange((socket) => {
          socket.write(`GET /_diagnostics/slow?ms=200 HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-slow-${i}\r\n\r\n`, () => socket.destroy());
        }, 100);
        await rawExchange((socket) => {
          socket.write(
            `POST /v1/collections HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-body-${i}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
            () => socket.destroy(),
          );
        }, 100);
      }
      // Every abandoned exchange has run to its end (each logs its line when it settles).
      for (const id of ids) await server.waitForOutput(`"requestId":"${id}"`);
      expect(server.proc.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.stderr()).not.toMatch(/Error|Invalid access/);
    });
  });
});
