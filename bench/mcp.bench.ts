// Question: what does the MCP transport cost on top of the Data API for the same route?
// Dataset: Liechtenstein, imported once; 200 fixed-seed directions (bench/lib/directions-requests.ts).
// Peers in the same run: `directions` over GraphQL (POST /graphql, publishable key + session token) against
// `plan_route` through MCP (POST /mcp, a JSON-RPC tools/call, the header pair), both answering the same routes
// (checked before timing: distance, duration and geometry equal for every request). Cairn runs on both cores; wrk
// asks one request at a time (latency: p50 of one client) and then with 50 connections (throughput), interleaved
// rounds. Bar: MCP p50 within 1 ms of GraphQL's. Results: bench/results/mcp.json.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importRegion } from '../data/region/import-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import { RouteEngine } from '../workers/route-engine.js';
import { DIRECTIONS_DOCUMENT, pickDirections, postScript } from './lib/directions-requests.js';
import { machineInfo, writeResults } from './lib/machine.js';
import { startCairn } from './lib/server-process.js';
import { median, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { hasWrk, runWrk } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_MCP_SECONDS ?? 3);
const ROUNDS = SMOKE ? 1 : 3;
const REQUESTS = SMOKE ? 10 : 200;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OSM = join(root, '..', 'shared', 'data', 'liechtenstein-latest.osm.pbf');

type Json = any;

async function post(url: string, headers: Record<string, string>, body: string): Promise<Json> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  if (!existsSync(OSM)) {
    console.log(`mcp bench skipped: ${OSM} is absent`);
    return;
  }
  if (!hasWrk()) {
    console.log('mcp bench skipped: wrk not installed');
    process.exit(SMOKE ? 0 : 1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-mcp-bench-'));
  const results: Record<string, unknown> = { bench: 'mcp', smoke: SMOKE, ...machineInfo(['server', 'workers']) };
  let stop: (() => Promise<void>) | undefined;
  try {
    const regionDir = join(dir, 'region');
    await importRegion({ osm: OSM, out: regionDir });
    const region = loadRegion(regionDir);
    const requests = pickDirections(new RouteEngine(region.graph, region.dem, { kernel: { build: 'release' } }), REQUESTS);
    const { server, boot, base } = await startCairn(dir, undefined, { REGION_PATH: regionDir });
    stop = () => server.stop();
    execFileSync(
      process.execPath,
      [join(root, 'dist', 'server', 'management', 'admin', 'admin.js'), 'set', '--org', boot.organization.id, 'quota.data=1000000'],
      {
        env: { ...process.env, DATABASE_PATH: join(dir, 'platform.db') },
        stdio: 'ignore',
      },
    );
    const session = async () => {
      const minted = await post(
        `${base}/v1/sessions`,
        { 'X-API-Key': boot.secretKey.key },
        JSON.stringify({ publishable_key: boot.publishableKey.key }),
      );
      return { 'X-API-Key': boot.publishableKey.key, 'X-Session-Token': minted.data.token as string };
    };
    const mcpHeaders = {
      'X-API-Key': boot.publishableKey.key,
      'X-Secret-Key': boot.secretKey.key,
      Accept: 'application/json, text/event-stream',
    };
    const args = requests.map((r) => ({ activity: r.input.activity, waypoints: r.input.waypoints, avoid: r.input.avoid }));
    const graphqlBodies = args.map((input) => JSON.stringify({ query: DIRECTIONS_DOCUMENT, variables: { input } }));
    const mcpBodies = args.map((a, i) =>
      JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'plan_route', arguments: a } }),
    );

    // The same routes from both, before timing.
    const headers = await session();
    for (let i = 0; i < requests.length; i++) {
      const g = (await post(`${base}/graphql`, headers, graphqlBodies[i]!)).data.directions.routes[0];
      const m = (await post(`${base}/mcp`, mcpHeaders, mcpBodies[i]!)).result.structuredContent.routes[0];
      const same =
        g.distance === m.distance &&
        g.duration === m.duration &&
        JSON.stringify(g.geometry.coordinates) === JSON.stringify(m.geometry.coordinates);
      if (!same) throw new Error(`request ${i}: GraphQL and MCP answered different routes`);
    }

    const runs: { who: string; round: number; connections: number; reqPerSec: number; p50Ms: number; p99Ms: number }[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const connections of [1, 50]) {
        for (const [who, path, bodies, h] of [
          ['graphql', '/graphql', graphqlBodies, await session()],
          ['mcp', '/mcp', mcpBodies, mcpHeaders],
        ] as const) {
          const run = await runWrk({
            url: `${base}${path}`,
            seconds: SECONDS,
            connections,
            threads: 1,
            script: postScript(dir, `${who}-${connections}`, path, { ...h, 'Content-Type': 'application/json' }, [...bodies]),
          });
          if (run.non2xx > 0 || run.socketErrors > 0) throw new Error(`${who}: ${run.non2xx} non-2xx, ${run.socketErrors} socket errors`);
          runs.push({ who, round: r, connections, reqPerSec: run.reqPerSec, p50Ms: run.p50Ms, p99Ms: run.p99Ms });
          console.log(
            `round ${r} ${who.padEnd(7)} c${connections}: ${Math.round(run.reqPerSec)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms`,
          );
        }
      }
    }
    await server.stop();
    stop = undefined;

    const med = (who: string, connections: number, key: 'p50Ms' | 'reqPerSec') =>
      median(runs.filter((x) => x.who === who && x.connections === connections).map((x) => x[key]));
    const gap = round(med('mcp', 1, 'p50Ms') - med('graphql', 1, 'p50Ms'), 3);
    printTable(
      'mcp (medians)',
      ['measure', 'MCP plan_route', 'GraphQL directions', 'difference', 'bar', 'verdict'],
      [
        ['p50, one client (ms)', med('mcp', 1, 'p50Ms'), med('graphql', 1, 'p50Ms'), gap, '≤ 1 ms', gap <= 1 ? 'PASS' : 'BELOW'],
        ['req/s, 50 connections', Math.round(med('mcp', 50, 'reqPerSec')), Math.round(med('graphql', 50, 'reqPerSec')), '', '', ''],
      ],
    );
    Object.assign(results, { settings: { seconds: SECONDS, rounds: ROUNDS, requests: requests.length }, runs, p50GapMs: gap });
    console.log(`wrote ${writeResults(SMOKE ? 'mcp.smoke' : 'mcp', results)}`);
  } finally {
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
