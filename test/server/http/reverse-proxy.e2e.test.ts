// The normal deployment: a real nginx in front of the default (uWebSockets.js) front door, configured as
// docs/operating.md says. HTTP/1.0 clients (ab, old tools) and HTTP/1.1 clients are both served through it,
//. Needs nginx (Debian: nginx-light); outside
// CI a missing nginx skips with a printed reason, in CI (which installs it, see .ci/run) it fails.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../helpers/raw-http.js';
import { type RunningServer, startServer } from '../../helpers/server.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);
const inCI = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI);
if (!NGINX && !inCI) console.warn('Skipping "behind nginx": nginx is not installed (apt-get install nginx-light).');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(!NGINX && !inCI)('behind nginx with the documented settings', () => {
  let server: RunningServer;
  let dir: string;
  let proxyPort: number;
  let stopNginx = () => {};

  beforeAll(async () => {
    expect(NGINX, 'nginx must be installed in CI (see .ci/run)').toBeDefined();
    server = await startServer({ SEED_DEMO: '0', TRUST_PROXY: 'on' });
    dir = mkdtempSync(join(tmpdir(), 'cairn-nginx-'));
    proxyPort = await freePort();
    // The upstream block of docs/operating.md ("Behind a reverse proxy"), on loopback ports.
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream cairn { server 127.0.0.1:${server.port}; keepalive 8; keepalive_timeout 5s; }
  server {
    listen 127.0.0.1:${proxyPort};
    location / {
      proxy_pass http://cairn;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`,
    );
    const nginx = spawn(NGINX as string, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
    stopNginx = () => nginx.kill('SIGQUIT');
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`http://127.0.0.1:${proxyPort}/v1/openapi.json`).then(
        (r) => r.status,
        () => 0,
      );
      if (up === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);

  afterAll(async () => {
    stopNginx();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves an HTTP/1.0 client (as ab sends it) through the proxy', async () => {
    const text = await rawExchange(
      proxyPort,
      (s) => s.write('GET /v1/openapi.json HTTP/1.0\r\nHost: maps.test\r\nUser-Agent: ApacheBench/2.3\r\n\r\n'),
      5000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('"openapi":"3.1.0"');
  });

  it('serves HTTP/1.1 keep-alive clients and envelopes errors through it', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${proxyPort}/v1/zones`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).errors[0].extensions.code).toBe('UNAUTHORIZED');
    }
  });
});
