// What an HTTP/1.0 request (nginx's default upstream protocol) gets from the default front door: not a byte. The
// uWebSockets.js build Cairn runs on (20.30) neither serves nor refuses HTTP/1.0; docs/operating.md warns at the
// reverse-proxy section that `proxy_http_version 1.1;` is required. Shown without waiting for a timeout: the client
// ends its side after the whole request, and the server closes the connection at once, having written nothing,
// where the same request over HTTP/1.1 is answered before the close.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawSession } from '../../helpers/raw-http.js';
import { type RunningServer, startServer } from '../../helpers/server.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
});
afterAll(() => server?.stop());

/** Sends one request and ends the client's side; resolves with what came back once the server closed. */
const halfClosed = (request: string) =>
  rawSession(
    server.port,
    (socket) => {
      socket.write(request);
      socket.end();
    },
    10_000,
  );

describe('an HTTP/1.0 request to the default front door', () => {
  it('gets no answer: the connection ends without a byte once the client ends its side', async () => {
    const outcome = await halfClosed('GET /healthz HTTP/1.0\r\nHost: maps.test\r\n\r\n');
    expect(outcome.closed).toBe(true);
    expect(outcome.text).toBe('');
  });

  it('while the same request over HTTP/1.1, ended the same way, is answered before the close', async () => {
    const outcome = await halfClosed('GET /healthz HTTP/1.1\r\nHost: maps.test\r\n\r\n');
    expect(outcome.closed).toBe(true);
    expect(parseResponse(outcome.bytes)?.status).toBe(200);
  });
});
