// A scaled-out deployment for tests: three server nodes on one fresh PostgreSQL schema and one Redis (their keys
// and channel under a prefix of their own) behind HAProxy, round robin, exactly as docs/scaling.md describes it.
// `startCluster` answers like `startServer` (helpers/server.ts), with the balancer's URL, so an end-to-end suite
// runs through it unchanged (CAIRN_TEST_CLUSTER=1, see .ci/run).

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPgSchema, missingService, pgUnavailable } from './postgres.js';
import { type RunningServer, startServer } from './server.js';

export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const HAPROXY = process.env.HAPROXY_PATH ?? 'haproxy';

export interface RunningCluster extends RunningServer {
  /** The nodes behind the balancer, in its order. */
  nodes: RunningServer[];
  /** The environment every node and the admin command share (DATABASE_URL, REDIS_URL, REDIS_PREFIX, …). */
  env: Record<string, string>;
  /** Starts one more node on the same database and Redis (not behind the balancer): to talk to one node directly. */
  addNode(): Promise<RunningServer>;
}

/**
 * Why a cluster cannot start here (no PostgreSQL, Redis or HAProxy, or CAIRN_SCALED_OUT=0), or undefined when it can.
 * A missing service throws in CI (missingService); CAIRN_SCALED_OUT=0 is a choice, and skips there too.
 */
export async function clusterUnavailable(): Promise<string | undefined> {
  if (process.env.CAIRN_SCALED_OUT === '0') return 'CAIRN_SCALED_OUT=0';
  const pg = await pgUnavailable();
  if (pg) return pg;
  if (spawnSync(HAPROXY, ['-v'], { encoding: 'utf8' }).status !== 0)
    return missingService(`no HAProxy (${HAPROXY}): apt-get install haproxy`);
  const redis = await redisUnavailable();
  if (redis) return redis;
  return undefined;
}

async function redisUnavailable(): Promise<string | undefined> {
  const { createClient } = await import('redis');
  const client = createClient({ url: REDIS_TEST_URL, socket: { connectTimeout: 1500, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return missingService(`no Redis at ${REDIS_TEST_URL} (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await client.quit().catch(() => undefined);
  }
}

/** A port free now (the kernel's pick), for the balancer to bind. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function haproxyConfig(port: number, nodes: RunningServer[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // WebSockets (the live channel) stay open through the balancer.
    '  timeout tunnel 1h',
    // A request that never reached a node (it was down) goes to the next one; one that did is never sent twice.
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure',
    'frontend cairn',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    // HTTP/1.1 with a Host (HAProxy's default check speaks HTTP/1.0, which uWebSockets.js does not serve).
    '  option httpchk',
    '  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host cairn',
    '  http-check expect status 200',
    '  default-server inter 300ms fall 2 rise 2',
    ...nodes.map((node, i) => `  server node${i + 1} 127.0.0.1:${node.port} check`),
    '',
  ].join('\n');
}

async function waitForBalancer(url: string, proc: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`HAProxy exited (${proc.exitCode}): ${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`HAProxy did not answer on ${url}: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Three nodes (or `options.nodes`) on a fresh schema, with `env` added to each node's environment, behind a fresh
 * HAProxy (each the diagnostic server with `diagnostics`). The nodes start one after the other's listening line; the
 * first start migrates and (unless SEED_DEMO=0) one of them seeds.
 */
export async function startCluster(
  env: Record<string, string> = {},
  options: { nodes?: number; diagnostics?: boolean } = {},
): Promise<RunningCluster> {
  const node = { alone: true, diagnostics: options.diagnostics };
  const schema = await freshPgSchema();
  const shared: Record<string, string> = {
    DATABASE_URL: schema.url,
    REDIS_URL: REDIS_TEST_URL,
    REDIS_PREFIX: `cairn-test-${randomBytes(5).toString('hex')}:`,
    // Three nodes share this machine's cores: one worker thread each.
    WORKER_THREADS: '1',
    ...env,
  };
  const nodes: RunningServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cluster-'));
  let balancer: ChildProcess | undefined;
  try {
    // Started together: three nodes racing through migrations, the signing secret and seeding is the case to hold.
    nodes.push(...(await Promise.all(Array.from({ length: options.nodes ?? 3 }, () => startServer(shared, node)))));
    const port = await freePort();
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(port, nodes));
    let out = '';
    balancer = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
    balancer.stderr?.setEncoding('utf8').on('data', (c: string) => (out += c));
    const url = `http://127.0.0.1:${port}`;
    await waitForBalancer(url, balancer, () => out);
    const proc = balancer;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const all = (pick: (node: RunningServer) => string) => nodes.map(pick).join('');
    const extra: RunningServer[] = [];
    const cluster: RunningCluster = {
      url,
      port,
      proc,
      dataDir: dir,
      fetch: globalThis.fetch,
      nodes,
      env: shared,
      adminEnv: shared,
      stdout: () => all((n) => n.stdout()),
      stderr: () => all((n) => n.stderr()),
      async waitForOutput(text, timeoutMs = 10_000) {
        const until = Date.now() + timeoutMs;
        while (!cluster.stdout().includes(text)) {
          if (Date.now() > until) throw new Error(`timed out waiting for "${text}" on any node`);
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      addNode: async () => {
        const added = await startServer(shared, node);
        extra.push(added);
        return added;
      },
      async stop(signal = 'SIGTERM') {
        if (proc.exitCode === null) proc.kill('SIGTERM');
        await exited;
        const codes = await Promise.all([...nodes, ...extra].map((node) => node.stop(signal)));
        rmSync(dir, { recursive: true, force: true });
        await schema.drop();
        return codes.find((code) => code !== 0) ?? 0;
      },
    };
    return cluster;
  } catch (error) {
    balancer?.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
    await schema.drop();
    throw error;
  }
}
