// Question: what does the GraphQL Data API cost on top of the routing it serves (DESIGN §7, §13)?
// Dataset: Liechtenstein (../shared/data/liechtenstein-latest.osm.pbf), imported once into a temp folder;
//   requests are fixed-seed `directions` between two network nodes 0.5–4 km apart (HIKING_AND_TRAIL,
//   avoiding toll and restricted ways), every one routable; the document selects every field of Route.
//
// Three measurements, each against its peer in the same run, outputs checked equal before timing:
//   1. execution  graphql-jit's compiled query against graphql-js `execute` of the same parsed, validated
//                 document, on the real schema and resolvers, in this process. The worker's answer is
//                 computed once per request beforehand and handed back by a stand-in pool, so what is
//                 timed is GraphQL's work (coercing the input, resolving and completing every field)
//                 plus the operation's checks and the resolver's mapping. Bar ≥ 10x.
//   2. http       POST /graphql against POST /_diagnostics/directions (the diagnostic server): the same
//                 resolver behind the same access rules, answered with JSON.stringify. Cairn pinned to
//                 core 0 (worker threads too), wrk to core 1, 50 connections, interleaved rounds. Bar ≥ 0.85x.
//   3. directions `directions` over HTTP with the quota lifted, a fresh Cairn on both cores (unpinned, as
//                 deployed): p50 of one client at a time against the in-process route time (the worker's
//                 own function called here, per request the median of rounds, then p50 over requests, taken
//                 again just before each round; bar: the median round's margin + 0.2 ms at most), and
//                 against the floor peer (bench/lib/directions-floor-peer.mjs: bare uWS and a bare worker
//                 running the same engine; no bar: what the hand-over to a worker costs on this machine);
//                 then throughput with 50 connections (bar ≥ 4,000 req/s) while the server's event-loop
//                 delay is sampled (GET /_diagnostics/event-loop; bar p99 < 10 ms).
// Results: bench/results/data-api.json. BENCH_SMOKE=1: a few requests, one short round (CI keeps the
// script working; timings are not judged). Without ../shared/data the bench says so and exits 0.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { execute, type GraphQLSchema, parse, validate } from 'graphql';
import { Bench } from 'tinybench';
import { importRegion } from '../data/region/import-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import type { Access } from '../server/auth/access.js';
import { loadConfig } from '../server/config.js';
import { createDataOperations } from '../server/data-api/data-operations.js';
import { QueryCache } from '../server/data-api/query-cache.js';
import type { DataContext } from '../server/data-api/resolvers.js';
import { queryResolvers } from '../server/data-api/resolvers.js';
import { buildDataSchema, readSchemaText } from '../server/data-api/schema.js';
import type { StudioOperations } from '../server/studio/studio-operations.js';
import type { WorkerPool } from '../server/pool/pool.js';
import { encodeDirections } from '../workers/positions-json.js';
import type { DirectionsInput, DirectionsOutput } from '../contracts/routing.js';
import { RouteEngine } from '../workers/route-engine.js';
import { DIRECTIONS_DOCUMENT, pickDirections, postScript } from './lib/directions-requests.js';
import { machineInfo, writeResults } from './lib/machine.js';
import { startCpuMeter } from './lib/proc-cpu.js';
import { type ServerProcess, startCairn, startServer } from './lib/server-process.js';
import { median, percentile, ratio, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { canPin, hasWrk, runWrk, type WrkResult } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_DATA_SECONDS ?? 3);
const ROUNDS = SMOKE ? 1 : 3;
const REQUESTS = SMOKE ? 10 : 200;
const CONNECTIONS = 50;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OSM = join(root, '..', 'shared', 'data', 'liechtenstein-latest.osm.pbf');

type Json = any;

/** p50 over requests of the median (over rounds) time of the worker's own task (route, positions text), in this thread. */
function inProcessP50(engine: RouteEngine, inputs: DirectionsInput[]): number {
  const times = inputs.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS + 1; r++) {
    inputs.forEach((input, i) => {
      const t0 = performance.now();
      encodeDirections(engine.directions(input));
      if (r > 0 || SMOKE) times[i]!.push(performance.now() - t0); // round 0 warms up
    });
  }
  return percentile(
    times.map((t) => median(t)),
    50,
  );
}

/** graphql-jit against graphql-js on the real schema, the worker's answers handed back by a stand-in pool. */
async function compareExecution(requests: { input: DirectionsInput; output: DirectionsOutput }[]) {
  const answers = new Map(requests.map((r) => [JSON.stringify(r.input.waypoints), encodeDirections(r.output)]));
  const pool = {
    runTask: async (_name: string, input: DirectionsInput) => answers.get(JSON.stringify(input.waypoints)),
  } as unknown as WorkerPool;
  const operations = createDataOperations({ pool, studio: { itineraries: {}, zones: {} } as unknown as StudioOperations });
  const schema: GraphQLSchema = buildDataSchema(readSchemaText(), queryResolvers(operations));
  const document = parse(DIRECTIONS_DOCUMENT);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`document invalid: ${problems.map((p) => p.message).join('; ')}`);
  // Compiled as the server compiles it (same cache, same options, the default limits).
  const config = loadConfig({});
  const { compiled } = new QueryCache(schema, {
    maxEntries: 10,
    maxDepth: config.graphqlMaxDepth,
    maxCost: config.graphqlMaxCost,
    maxTokens: 20_000,
  }).get(DIRECTIONS_DOCUMENT, undefined);
  const context: DataContext = { caller: { kind: 'none' } as unknown as Access, operation: { origin: 'http://bench', lang: 'en' } };
  const variables = requests.map((r) => ({
    input: { activity: r.input.activity, waypoints: r.input.waypoints, avoid: r.input.avoid, alternatives: 0 },
  }));
  const viaJit = (v: Json) => compiled.query(undefined, context, v);
  const viaJs = (v: Json) => execute({ schema, document, contextValue: context, variableValues: v });

  // Same answers from both, and no errors, before anything is timed.
  for (const v of variables) {
    const [a, b] = [await viaJit(v), await viaJs(v)];
    if (a.errors || b.errors) throw new Error(`execution errors: ${JSON.stringify(a.errors ?? b.errors)}`);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))))
      throw new Error('graphql-jit and graphql-js answered differently');
  }

  // Each timed iteration executes every request once, so the harness's own cost per call is spread thin.
  const runAll = async (run: (v: Json) => unknown) => {
    for (const v of variables) await run(v);
  };
  const results: Record<string, number[]> = { 'graphql-jit': [], 'graphql-js': [] };
  for (let r = 0; r < ROUNDS; r++) {
    const bench = new Bench({ time: SMOKE ? 100 : 1000, warmupTime: SMOKE ? 20 : 200 });
    const order = r % 2 === 0 ? ['graphql-jit', 'graphql-js'] : ['graphql-js', 'graphql-jit'];
    for (const name of order) bench.add(name, () => runAll(name === 'graphql-jit' ? viaJit : viaJs));
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      results[task.name]!.push(result.latency.p50 / variables.length); // ms per execution
    }
  }
  const jitMs = median(results['graphql-jit']!);
  const jsMs = median(results['graphql-js']!);
  return { jitUs: round(jitMs * 1000, 1), jsUs: round(jsMs * 1000, 1), ratio: round(ratio(jsMs, jitMs)), rounds: results };
}

async function post(base: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: Json }> {
  const res = await fetch(base + path, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
  return { status: res.status, json: await res.json() };
}

interface DataServer {
  server: ServerProcess;
  base: string;
  /** Headers of a fresh session of the bootstrapped organization's publishable key. */
  session(): Promise<Record<string, string>>;
}

/** Cairn on the imported region with its database in `serverDir`, the data quota lifted. */
async function startDataServer(serverDir: string, regionDir: string, cpus: string | undefined): Promise<DataServer> {
  mkdirSync(serverDir, { recursive: true });
  const { server, boot, base } = await startCairn(serverDir, cpus, { REGION_PATH: regionDir }, { diagnostics: true });
  try {
    execFileSync(
      process.execPath,
      [join(root, 'dist', 'server', 'management', 'admin', 'admin.js'), 'set', '--org', boot.organization.id, 'quota.data=1000000'],
      {
        env: { ...process.env, DATABASE_PATH: join(serverDir, 'platform.db') },
        stdio: 'ignore',
      },
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  const session = async (): Promise<Record<string, string>> => {
    const minted = await post(
      base,
      '/v1/sessions',
      { 'X-API-Key': boot.secretKey.key },
      JSON.stringify({ publishable_key: boot.publishableKey.key }),
    );
    if (minted.status !== 201) throw new Error(`session minting answered ${minted.status}`);
    return { 'X-API-Key': boot.publishableKey.key, 'X-Session-Token': minted.json.data.token, 'Content-Type': 'application/json' };
  };
  return { server, base, session };
}

async function main(): Promise<void> {
  if (!existsSync(OSM)) {
    console.log(`data-api bench skipped: ${OSM} is absent`);
    return;
  }
  if (!hasWrk()) {
    console.log('data-api bench skipped: wrk not installed');
    process.exit(SMOKE ? 0 : 1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-data-bench-'));
  const regionDir = join(dir, 'region');
  const pinned = canPin(2);
  const results: Record<string, unknown> = { bench: 'data-api', smoke: SMOKE, ...machineInfo(['server', 'workers', 'data']) };
  let stopServer: (() => Promise<void>) | undefined;
  try {
    await importRegion({ osm: OSM, out: regionDir });
    const region = loadRegion(regionDir);
    const engine = new RouteEngine(region.graph, region.dem, { kernel: { build: 'release' } });
    const requests = pickDirections(engine, REQUESTS);
    const inProcessMs = inProcessP50(
      engine,
      requests.map((r) => r.input),
    );
    console.log(
      `in-process directions (the worker's function, this thread): p50 ${round(inProcessMs, 4)} ms over ${requests.length} requests`,
    );

    // 1. Execution engines.
    const execution = await compareExecution(requests);
    console.log(
      `execution: graphql-jit ${execution.jitUs} µs, graphql-js ${execution.jsUs} µs per directions document → ${execution.ratio}x`,
    );

    // 2 and 3 run against the built server on the imported region.
    const bodies = requests.map((r) =>
      JSON.stringify({
        query: DIRECTIONS_DOCUMENT,
        variables: { input: { activity: r.input.activity, waypoints: r.input.waypoints, avoid: r.input.avoid } },
      }),
    );
    const plainBodies = requests.map((r) =>
      JSON.stringify({ input: { activity: r.input.activity, waypoints: r.input.waypoints, avoid: r.input.avoid } }),
    );
    const pinnedCairn = await startDataServer(join(dir, 'pinned'), regionDir, pinned ? '0' : undefined);
    stopServer = () => pinnedCairn.server.stop();
    const base = pinnedCairn.base;
    // Both routes answer every request alike before anything is timed, and the quota is lifted.
    const headers = await pinnedCairn.session();
    const graphqlAnswers: Json[] = [];
    for (let i = 0; i < requests.length; i++) {
      const [g, p] = [
        await post(base, '/graphql', headers, bodies[i]!),
        await post(base, '/_diagnostics/directions', headers, plainBodies[i]!),
      ];
      if (g.status !== 200 || g.json.errors || p.status !== 200)
        throw new Error(`request ${i}: ${JSON.stringify(g.json).slice(0, 300)} / ${p.status}`);
      if (!isDeepStrictEqual(g.json, p.json)) throw new Error(`request ${i}: /graphql and the plain route answered differently`);
      graphqlAnswers.push(g.json);
    }
    const probe = await fetch(`${base}/graphql`, { method: 'POST', headers, body: bodies[0] });
    await probe.arrayBuffer();
    if (Number(probe.headers.get('ratelimit-limit')) < 1_000_000) throw new Error('the data quota was not lifted');

    const wrk = async (cairn: DataServer, name: string, path: string, b: string[], connections: number, cpus: string | undefined) => {
      const meter = startCpuMeter(cairn.server.pid);
      const r = await runWrk({
        url: `${cairn.base}${path}`,
        seconds: SECONDS,
        connections,
        threads: 1,
        cpus,
        script: postScript(dir, name, path, await cairn.session(), b),
      });
      const cpu = meter.stop();
      if (r.non2xx > 0 || r.socketErrors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors\n${r.raw}`);
      return { ...r, raw: '', cpuPercent: round(cpu.cpuPercent, 1) };
    };

    // 2. GraphQL against the plain route, same resolver, pinned.
    const httpRuns: (WrkResult & { route: string; round: number; cpuPercent: number })[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const [route, path, b] of [
        ['graphql', '/graphql', bodies],
        ['plain', '/_diagnostics/directions', plainBodies],
      ] as const) {
        const run = await wrk(pinnedCairn, route, path, b, CONNECTIONS, pinned ? '1' : undefined);
        httpRuns.push({ ...run, route, round: r });
        console.log(
          `round ${r} ${route.padEnd(7)} ${Math.round(run.reqPerSec)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms  cpu ${run.cpuPercent}%`,
        );
      }
    }
    const rate = (route: string) => median(httpRuns.filter((x) => x.route === route).map((x) => x.reqPerSec));
    const httpRatio = ratio(rate('graphql'), rate('plain'));
    await pinnedCairn.server.stop();
    stopServer = undefined;

    // 3. Directions on both cores, as deployed: a server started unpinned (the pool sizes itself, and decides
    // whether its event loop polls for a worker's answer, from the cores it may use when it starts). Latency of
    // one client, then throughput under load with the loop's delay; and one client of the floor peer.
    const cairn = await startDataServer(join(dir, 'both-cores'), regionDir, undefined);
    const floor = await startServer({
      name: 'directions floor peer',
      command: process.execPath,
      args: [join(root, 'bench', 'lib', 'directions-floor-peer.mjs'), regionDir],
      env: { PATH: process.env.PATH ?? '' },
      stdoutPath: join(dir, 'floor.log'),
      stderrPath: join(dir, 'floor.err'),
      startTimeoutMs: 30_000,
    });
    stopServer = async () => {
      await cairn.server.stop();
      await floor.stop();
    };
    const floorBase = `http://127.0.0.1:${floor.port}`;
    // The peer routes every request as Cairn does: the same distance and the same line.
    for (let i = 0; i < requests.length; i++) {
      const answer = (await post(floorBase, '/directions', {}, bodies[i]!)).json;
      const route = graphqlAnswers[i]!.data.directions.routes[0];
      if (
        answer.routes[0].distance !== route.distance ||
        !isDeepStrictEqual(JSON.parse(answer.routes[0].coordinatesJson), route.geometry.coordinates)
      )
        throw new Error(`request ${i}: the floor peer and Cairn routed differently`);
    }
    const floorScript = postScript(dir, 'floor', '/directions', { 'Content-Type': 'application/json' }, bodies);
    // Both fresh: a few seconds of load first, so that their code is compiled before anything is timed.
    await wrk(cairn, 'warm-up', '/graphql', bodies, CONNECTIONS, undefined);
    await runWrk({ url: `${floorBase}/directions`, seconds: SECONDS, connections: CONNECTIONS, threads: 1, script: floorScript });
    const loopDelay = async () => (await (await fetch(`${cairn.base}/_diagnostics/event-loop`)).json()) as Json;
    const latencyRuns: number[] = [];
    const inProcessRuns: number[] = [];
    const floorRuns: number[] = [];
    const loadRuns: { reqPerSec: number; p50Ms: number; p99Ms: number; cpuPercent: number; loopP99Ms: number; loopMaxMs: number }[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      // The host's speed drifts within minutes: each round's margin is against the in-process time taken just before.
      inProcessRuns.push(
        inProcessP50(
          engine,
          requests.map((q) => q.input),
        ),
      );
      const one = await wrk(cairn, 'one-client', '/graphql', bodies, 1, undefined);
      latencyRuns.push(one.p50Ms);
      const peer = await runWrk({ url: `${floorBase}/directions`, seconds: SECONDS, connections: 1, threads: 1, script: floorScript });
      if (peer.non2xx > 0 || peer.socketErrors > 0) throw new Error(`floor peer: ${peer.non2xx} non-2xx\n${peer.raw}`);
      floorRuns.push(peer.p50Ms);
      await loopDelay(); // resets the histogram
      const load = await wrk(cairn, 'load', '/graphql', bodies, CONNECTIONS, undefined);
      const loop = await loopDelay();
      loadRuns.push({
        reqPerSec: load.reqPerSec,
        p50Ms: load.p50Ms,
        p99Ms: load.p99Ms,
        cpuPercent: load.cpuPercent,
        loopP99Ms: loop.p99Ms,
        loopMaxMs: loop.maxMs,
      });
      console.log(
        `round ${r} directions: one client p50 ${one.p50Ms} ms (in process ${round(inProcessRuns[r - 1]!, 4)} ms, floor peer ${peer.p50Ms} ms); ${CONNECTIONS} connections ${Math.round(load.reqPerSec)} req/s p50 ${load.p50Ms} ms p99 ${load.p99Ms} ms cpu ${load.cpuPercent}%, event loop p99 ${loop.p99Ms} ms (max ${loop.maxMs})`,
      );
    }
    await stopServer();
    stopServer = undefined;

    const oneClientP50 = median(latencyRuns);
    const floorP50 = median(floorRuns);
    const roundInProcessP50 = median(inProcessRuns);
    const margin = median(latencyRuns.map((one, i) => one - inProcessRuns[i]!));
    const loadRate = median(loadRuns.map((x) => x.reqPerSec));
    const loopP99 = median(loadRuns.map((x) => x.loopP99Ms));
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW');
    const bars = {
      execution: { value: execution.ratio, bar: '≥ 10x', verdict: verdict(execution.ratio >= 10) },
      http: { value: round(httpRatio), bar: '≥ 0.85x', verdict: verdict(httpRatio >= 0.85) },
      latency: {
        value: round(margin, 3),
        bar: 'one-client p50 ≤ in-process p50 + 0.2 ms (median of the rounds)',
        verdict: verdict(margin <= 0.2),
      },
      throughput: { value: Math.round(loadRate), bar: '≥ 4,000 req/s', verdict: verdict(loadRate >= 4000) },
      eventLoop: { value: loopP99, bar: 'p99 < 10 ms', verdict: verdict(loopP99 < 10) },
    };
    printTable(
      'data-api (medians)',
      ['measure', 'Cairn', 'peer', 'ratio / margin', 'bar', 'verdict'],
      [
        ['execution µs (jit | js)', execution.jitUs, execution.jsUs, execution.ratio, bars.execution.bar, bars.execution.verdict],
        [
          'HTTP req/s (graphql | plain)',
          Math.round(rate('graphql')),
          Math.round(rate('plain')),
          bars.http.value,
          bars.http.bar,
          bars.http.verdict,
        ],
        [
          'p50 ms (one client | in-process)',
          oneClientP50,
          round(roundInProcessP50, 4),
          bars.latency.value,
          '+ 0.2 ms',
          bars.latency.verdict,
        ],
        ['p50 ms (one client | floor peer)', oneClientP50, floorP50, round(oneClientP50 - floorP50, 3), '', ''],
        ['directions req/s, 50 connections', Math.round(loadRate), '', '', bars.throughput.bar, bars.throughput.verdict],
        ['event-loop delay p99 ms under load', loopP99, '', '', bars.eventLoop.bar, bars.eventLoop.verdict],
      ],
    );
    Object.assign(results, {
      settings: { seconds: SECONDS, rounds: ROUNDS, requests: requests.length, connections: CONNECTIONS, pinned },
      inProcessP50Ms: round(inProcessMs, 4),
      execution,
      http: httpRuns,
      directions: { oneClientP50Ms: latencyRuns, inProcessP50Ms: inProcessRuns, floorPeerOneClientP50Ms: floorRuns, load: loadRuns },
      bars,
    });
    console.log(`wrote ${writeResults(SMOKE ? 'data-api.smoke' : 'data-api', results)}`);
  } finally {
    await stopServer?.(); // a failed run must not leave its server behind
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
