// Question: what does scaling out cost and buy on this machine? The same build as one process on SQLite, and as
// 1 and 3 nodes on PostgreSQL and Redis behind HAProxy (round robin, test/helpers/cluster.ts).
//
//   writes       Studio edits (PATCH /v1/itineraries/{id} {description}, 50 itineraries) through the balancer,
//                wrk with 50 connections: req/s and p50/p99, for 1 node and 3 nodes.
//   tiles        a cached trail tile (GET /v1/tiles/trails/12/x/y.mvt, metered by the tile quota) through the
//                balancer, 50 connections: req/s and p50/p99, for 1 node and 3 nodes.
//   latency      one client, one edit at a time: p50/p99 of a durable edit on PostgreSQL (one node, no balancer)
//                beside SQLite's group commit (one process) for the same edit.
//   counters     one client, one metered Data API request (`{ __typename }`) at a time on one SQLite node: with the
//                in-memory counters, and with the counters on Redis (REDIS_URL). The difference is what a shared
//                counter adds to each metered request.
// Every node shares this 2-core machine with PostgreSQL, Redis, HAProxy and wrk, so absolute figures are indicative;
// the ratios say where the time goes. No bar: the issue asks for the figures and what they predict.
// Needs wrk, HAProxy, PostgreSQL and Redis; skips (saying why) without them. Results: bench/results/scale.json (smoke runs: scale.smoke.json).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterUnavailable, REDIS_TEST_URL, startCluster } from '../test/helpers/cluster.js';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer } from '../test/helpers/server.js';
import { execFileSync } from 'node:child_process';
import { machineInfo, writeResults } from './lib/machine.js';
import { processCpuSeconds } from './lib/proc-cpu.js';
import { percentile, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { hasWrk, runWrk, type WrkResult } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_SCALE_SECONDS ?? 5);
const CONNECTIONS = 50;
const SAMPLES = SMOKE ? 20 : 400;
/** A tile of the demo region holding trails (z12 at its centre). */
const TILE = '12/2065/1512';

function wrkScript(dir: string, name: string, method: string, headers: Record<string, string>, paths: string[], body?: string): string {
  const lua = (v: string) => JSON.stringify(v);
  const lines = [`wrk.method = ${lua(method)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`);
  if (body) lines.push(`wrk.body = ${lua(body)}`);
  lines.push(`local paths = { ${paths.map(lua).join(', ')} }`);
  lines.push('local i = 0');
  lines.push('request = function() i = i + 1; return wrk.format(nil, paths[(i % #paths) + 1]) end');
  const path = join(dir, `${name}.lua`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Where the load goes, and who may send it. */
interface Target {
  base: string;
  org: Bootstrapped;
  writer: Record<string, string>;
  itineraries: string[];
}

async function prepare(server: RunningServer): Promise<Target> {
  const org = bootstrap(server);
  admin(server, 'set', '--org', org.organization.id, 'quota.tiles=100000000', 'quota.data=100000000');
  const writer = { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id };
  const itineraries: string[] = [];
  for (let k = 0; k < CONNECTIONS; k++) {
    itineraries.push((await call(server.url, 'POST', '/v1/itineraries', writer, { name: `Edited ${k}` })).data.id);
  }
  return { base: server.url, org, writer, itineraries };
}

/** Pids of every process named `name` (PostgreSQL runs one per connection). */
function pidsOf(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The processes of a scaled-out deployment, by role: where each request's CPU goes. */
type Roles = Record<'nodes' | 'postgresql' | 'redis' | 'haproxy', () => number[]>;

function cpuOf(roles: Roles): () => Record<string, number> {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + (processCpuSeconds(pid) || 0), 0);
  const before = Object.fromEntries(Object.entries(roles).map(([role, pids]) => [role, sum(pids())]));
  // PostgreSQL's backends come and go with connections: count the ones alive at both ends (the pools keep theirs).
  return () => Object.fromEntries(Object.entries(roles).map(([role, pids]) => [role, sum(pids()) - (before[role] as number)]));
}

interface Load extends WrkResult {
  /** CPU milliseconds per request, by role. */
  cpuMsPerRequest: Record<string, number>;
}

async function loads(dir: string, label: string, t: Target, roles: Roles): Promise<{ writes: Load; tiles: Load }> {
  const json = { ...t.writer, 'Content-Type': 'application/json' };
  const edit = wrkScript(
    dir,
    `${label}-edit`,
    'PATCH',
    json,
    t.itineraries.map((id) => `/v1/itineraries/${id}`),
    '{"description":"x"}',
  );
  const tile = wrkScript(dir, `${label}-tile`, 'GET', { 'X-API-Key': t.org.publishableKey.key }, [`/v1/tiles/trails/${TILE}.mvt`]);
  // The tile is built once here (and checked to hold something): the load reads it from the cache.
  const first = await fetch(`${t.base}/v1/tiles/trails/${TILE}.mvt`, { headers: { 'X-API-Key': t.org.publishableKey.key } });
  if (first.status !== 200 || (await first.arrayBuffer()).byteLength === 0) throw new Error(`tile ${TILE} answered ${first.status}`);
  const run = async (name: string, script: string): Promise<Load> => {
    const cpu = cpuOf(roles);
    const r = await runWrk({ url: `${t.base}/`, seconds: SECONDS, connections: CONNECTIONS, threads: 1, script });
    const used = cpu();
    if (r.non2xx > 0 || r.socketErrors > 0)
      throw new Error(`${label} ${name}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors\n${r.raw}`);
    const perRequest = Object.entries(used).map(([role, seconds]) => [role, round((1000 * seconds) / r.requests, 3)]);
    return { ...r, cpuMsPerRequest: Object.fromEntries(perRequest) };
  };
  return { writes: await run('writes', edit), tiles: await run('tiles', tile) };
}

/** p50/p99 of `samples` requests sent one at a time. */
async function sequential(samples: number, send: () => Promise<Response>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples + 10; i++) {
    const started = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`answered ${res.status}`);
    if (i >= 10) times.push(performance.now() - started); // the first ones warm the connection and the caches
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 3), p99: round(percentile(times, 99), 3) };
}

const editOnce = (t: Target, i: number) =>
  fetch(`${t.base}/v1/itineraries/${t.itineraries[i % t.itineraries.length]}`, {
    method: 'PATCH',
    headers: { ...t.writer, 'Content-Type': 'application/json' },
    body: JSON.stringify({ description: `edit ${i}` }),
  });

async function main(): Promise<void> {
  const missing = !hasWrk() ? 'wrk not installed' : await clusterUnavailable();
  if (missing) {
    console.log(`scale bench skipped: ${missing}`);
    process.exit(SMOKE ? 0 : 1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-scale-bench-'));
  const results: Record<string, unknown> = { bench: 'scale', smoke: SMOKE, ...machineInfo([]) };
  try {
    const through: Record<string, { writes: Load; tiles: Load }> = {};
    for (const nodes of [1, 3]) {
      // Each node gets the machine's two worker threads' worth of cores divided among them.
      const cluster = await startCluster({ SEED_DEMO: '0', WORKER_THREADS: nodes === 1 ? '2' : '1' }, { nodes });
      try {
        const roles: Roles = {
          nodes: () => cluster.nodes.map((node) => node.proc.pid as number),
          postgresql: () => pidsOf('postgres'),
          redis: () => pidsOf('redis-server'),
          haproxy: () => [cluster.proc.pid as number],
        };
        through[`${nodes} node${nodes > 1 ? 's' : ''}`] = await loads(dir, `n${nodes}`, await prepare(cluster), roles);
      } finally {
        await cluster.stop();
      }
    }

    // Write latency, one client: PostgreSQL (one node, asked directly) beside SQLite's group commit.
    const pgCluster = await startCluster({ SEED_DEMO: '0' }, { nodes: 1 });
    let pgLatency: { p50: number; p99: number };
    try {
      const node = pgCluster.nodes[0] as RunningServer;
      const t = { ...(await prepare(pgCluster)), base: node.url };
      pgLatency = await sequential(
        SAMPLES,
        (() => {
          let i = 0;
          return () => editOnce(t, i++);
        })(),
      );
    } finally {
      await pgCluster.stop();
    }
    const sqlite = await startServer({ SEED_DEMO: '0' }, { alone: true });
    let sqliteLatency: { p50: number; p99: number };
    let memoryCounter: { p50: number; p99: number };
    try {
      const t = await prepare(sqlite);
      sqliteLatency = await sequential(
        SAMPLES,
        (() => {
          let i = 0;
          return () => editOnce(t, i++);
        })(),
      );
      memoryCounter = await sequential(SAMPLES, await metered(t));
    } finally {
      await sqlite.stop();
    }
    const redisNode = await startServer(
      { SEED_DEMO: '0', REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: `cairn-bench-${process.pid}:` },
      { alone: true },
    );
    let redisCounter: { p50: number; p99: number };
    try {
      const t = await prepare(redisNode);
      redisCounter = await sequential(SAMPLES, await metered(t));
    } finally {
      await redisNode.stop();
    }

    printTable(
      'Through HAProxy, wrk with 50 connections (PostgreSQL and Redis)',
      ['nodes', 'writes req/s', 'writes p50 ms', 'writes p99 ms', 'tiles req/s', 'tiles p50 ms', 'tiles p99 ms'],
      Object.entries(through).map(([name, r]) => [
        name,
        Math.round(r.writes.reqPerSec),
        r.writes.p50Ms,
        r.writes.p99Ms,
        Math.round(r.tiles.reqPerSec),
        r.tiles.p50Ms,
        r.tiles.p99Ms,
      ]),
    );
    printTable(
      'CPU milliseconds per request, by process (all nodes together)',
      ['load', 'nodes', 'postgresql', 'redis', 'haproxy'],
      Object.entries(through).flatMap(([name, r]) =>
        (['writes', 'tiles'] as const).map((kind) => [
          `${kind}, ${name}`,
          r[kind].cpuMsPerRequest.nodes ?? 0,
          r[kind].cpuMsPerRequest.postgresql ?? 0,
          r[kind].cpuMsPerRequest.redis ?? 0,
          r[kind].cpuMsPerRequest.haproxy ?? 0,
        ]),
      ),
    );
    printTable(
      'One client, one request at a time',
      ['request', 'p50 ms', 'p99 ms'],
      [
        ['edit on PostgreSQL (one node)', pgLatency.p50, pgLatency.p99],
        ['edit on SQLite (group commit)', sqliteLatency.p50, sqliteLatency.p99],
        ['metered request, counters in memory', memoryCounter.p50, memoryCounter.p99],
        ['metered request, counters on Redis', redisCounter.p50, redisCounter.p99],
      ],
    );
    Object.assign(results, {
      through,
      latency: { postgresql: pgLatency, sqlite: sqliteLatency },
      counters: { memory: memoryCounter, redis: redisCounter, addedP50Ms: round(redisCounter.p50 - memoryCounter.p50, 3) },
    });
    writeResults(SMOKE ? 'scale.smoke' : 'scale', results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends one request the Data API quota meters, again and again (with a session token minted first). */
async function metered(t: Target): Promise<() => Promise<Response>> {
  const minted = await call(
    t.base,
    'POST',
    '/v1/sessions',
    { 'X-API-Key': t.org.secretKey.key },
    { publishable_key: t.org.publishableKey.key },
  );
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': t.org.publishableKey.key, 'X-Session-Token': minted.data.token };
  const body = JSON.stringify({ query: '{ __typename }' });
  return () => fetch(`${t.base}/graphql`, { method: 'POST', headers, body });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
