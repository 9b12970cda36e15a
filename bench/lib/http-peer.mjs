// A bare HTTP server answering fixed routes from a fixture file, as the peer of Cairn's HTTP stack.
// Usage: node bench/lib/http-peer.mjs <uws|node|fastify> <fixture.json>
// The fixture is {"routes":[{"path":"/healthz","headers":[["Content-Type","…"]],"bodyBase64":"…"}]}.
// Each peer does the least its library allows: look up the path, write status, headers and body.
// Prints {"msg":"listening","port":N} on stdout once it accepts connections (PORT env, 0 = any).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [kind, fixturePath] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
const routes = fixture.routes.map((r) => ({ path: r.path, headers: r.headers, body: Buffer.from(r.bodyBase64, 'base64') }));
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const listening = (p) => process.stdout.write(`${JSON.stringify({ msg: 'listening', port: p, kind })}\n`);

if (kind === 'uws') {
  const require = createRequire(import.meta.url);
  // Refuse the package's JavaScript fallback: the peer must be the native binary, as in Cairn.
  const native = require(`uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  const uws = require('uWebSockets.js');
  if (uws !== native) throw new Error('uWebSockets.js did not load its native binary');
  const app = uws.App();
  for (const route of routes) {
    // uWS copies the body when writing; keep one ArrayBuffer view per route.
    const body = route.body;
    app.get(route.path, (res) => {
      res.writeStatus('200 OK');
      for (const [k, v] of route.headers) res.writeHeader(k, v);
      res.end(body);
    });
  }
  app.listen(host, port, (socket) => {
    if (!socket) throw new Error(`uws peer could not listen on ${host}:${port}`);
    listening(uws.us_socket_local_port(socket));
  });
} else if (kind === 'node') {
  const { createServer } = await import('node:http');
  const byPath = new Map(routes.map((r) => [r.path, { headers: Object.fromEntries(r.headers), body: r.body }]));
  const server = createServer((req, res) => {
    const route = byPath.get(req.url);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, route.headers);
    res.end(route.body);
  });
  server.listen(port, host, () => listening(server.address().port));
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  for (const route of routes) {
    const headers = Object.fromEntries(route.headers);
    // A string body with a JSON content type is sent as is (already serialized); a Buffer as bytes.
    const isText = /json|text/.test(headers['Content-Type'] ?? '');
    const body = isText ? route.body.toString('utf8') : route.body;
    app.get(route.path, (_req, reply) => {
      reply.headers(headers).send(body);
    });
  }
  await app.listen({ port, host });
  listening(app.server.address().port);
} else {
  process.stderr.write(`unknown peer kind "${kind}" (uws, node, fastify)\n`);
  process.exit(2);
}

process.on('SIGTERM', () => process.exit(0));
