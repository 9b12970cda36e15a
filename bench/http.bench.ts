// HTTP core: what does Cairn's full HTTP stack cost against bare servers answering the same bytes?
//
// Question: the full stack (uWS adapter, router, pipeline with request budget, request id, CORS
// check, response assembly, one JSON log line per request written to a file) against a bare
// uWebSockets.js app, a bare `node:http` server and fastify, all answering the same body bytes,
// status and static headers (Content-Type, and Cache-Control/ETag where Cairn sends them).
// DESIGN §13 bars: full stack ≥ 0.8x bare uWS on the binary route, ≥ 0.7x on the JSON route.
//
// Data: two fixed routes, no datasets.
//   json    GET /healthz                        → {"status":"ok"} (15 bytes, application/json)
//   binary  GET /studio/assets/cairn-mark.png   → the 303-byte PNG from server/embed/assets (in memory)
//
// Method: `dist/server/main.js` (build it first: `npm run build:ts`) with LOG_LEVEL=info, stdout
// redirected to a log file in a temp dir (logging is paid for) and a temp DATABASE_PATH. The peers
// are bench/lib/http-peer.mjs. Every server is pinned to core 0 (`taskset -c 0`) and wrk to core 1
// (`taskset -c 1 wrk -t1 -c50 -d3s --latency`). Before anything is timed, every server is asked
// once per route and must answer status 200 with byte-identical bodies and the same static headers.
// Then a warm-up run per server and route, then 5 interleaved rounds (per route: cairn, uws, node,
// fastify, cairn, …). The server's CPU time over each run comes from /proc/<pid>/stat
// (utime+stime). BENCH_SMOKE=1: one 1-second round and no warm-up (keeps the script working).
// BENCH_HTTP_SECONDS overrides the seconds per run; BENCH_HTTP_SERVER names another built
// main.js; BENCH_HTTP_SERVER=head exports and compiles the committed tree first (+~20 s), so the
// numbers describe the recorded commit rather than uncommitted edits in a shared checkout.
//
// Reading the output: per route and server, the medians over rounds of req/s, p50/p99 latency (ms),
// server CPU% of one core, and req per CPU-second (efficiency; the steadiest figure on a noisy
// machine, since the server and wrk each own a core but share them with other work). Ratios are
// cairn median req/s over the peer's median req/s; PASS/BELOW marks the bar against bare uWS.
// A server under 100% CPU was not the bottleneck (wrk or the machine was): compare req/CPU-s then.
// Absolute numbers only compare on the same machine; the process never fails on timing.
// Raw per-round numbers go to bench/results/http.json (smoke runs: http.smoke.json; runs with
// BENCH_HTTP_SILENT=1, which add Cairn with LOG_LEVEL=silent as a diagnostic: http.silent.json).

import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { machineInfo, REPO_ROOT, writeResults, type MachineInfo } from './lib/machine.js';
import { startCpuMeter } from './lib/proc-cpu.js';
import { freePort, startServer, type ServerProcess } from './lib/server-process.js';
import { median, ratio, round } from './lib/stats.js';
import { printTable, type Cell } from './lib/table.js';
import { canPin, hasWrk, runWrk, type WrkResult } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';

/** Run settings; each field is one knob of the method above. */
const SETTINGS = {
  /** Seconds of load per timed run. */
  seconds: Number(process.env.BENCH_HTTP_SECONDS ?? (SMOKE ? 1 : 3)),
  /** Seconds of load per server and route before the first round (0 = none). */
  warmupSeconds: SMOKE ? 0 : 1,
  /** Interleaved rounds; medians are taken over them. */
  rounds: SMOKE ? 1 : 5,
  /** wrk connections and threads (-c, -t). */
  connections: 50,
  threads: 1,
  /** Cores for the servers and for wrk (taskset -c); used only on a machine with ≥ 2 cores. */
  serverCpus: '0',
  wrkCpus: '1',
};

const PEERS = ['uws', 'node', 'fastify'] as const;
/** BENCH_HTTP_SILENT=1 adds Cairn with LOG_LEVEL=silent, to separate the cost of request logging. */
const CAIRNS = process.env.BENCH_HTTP_SILENT === '1' ? (['cairn', 'cairn-silent'] as const) : (['cairn'] as const);
const SERVERS: readonly ServerName[] = [...CAIRNS, ...PEERS];
type ServerName = 'cairn' | 'cairn-silent' | (typeof PEERS)[number];

/** Bars against bare uWS (DESIGN §13). */
const ROUTES = [
  { name: 'json', path: '/healthz', bar: 0.7 },
  { name: 'binary', path: '/studio/assets/cairn-mark.png', bar: 0.8 },
] as const;
type RouteName = (typeof ROUTES)[number]['name'];

/** Response headers that are the route's own (the peers send them too); the rest is per-request. */
const STATIC_HEADERS = ['content-type', 'cache-control', 'etag'];

interface RunRecord {
  round: number;
  route: RouteName;
  server: ServerName;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  requests: number;
  cpuPercent: number;
  /** Kernel share of the server's CPU time (0..1). */
  systemShare: number;
  reqPerCpuSecond: number;
  non2xx: number;
  socketErrors: number;
  /** Cairn only: bytes of request log written during the run, per request. */
  logBytesPerRequest?: number;
}

function expectedBodies(): Record<RouteName, Buffer> {
  return {
    json: Buffer.from('{"status":"ok"}'),
    binary: readFileSync(join(REPO_ROOT, 'server', 'embed', 'assets', 'cairn-mark.png')),
  };
}

/** Newest mtime of the .ts files under `dir` (to warn when dist/ is older than the sources). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Exports the committed tree (`git archive <commit>`, HEAD when the run began) to `dir` and compiles it there, so that the
 * numbers describe the recorded commit and not uncommitted edits in the shared checkout.
 * node_modules and the WASM build are linked from the checkout. Returns the built main.js.
 */
function buildHead(dir: string, commit: string): string {
  if (!/^[0-9a-f]{4,40}$/.test(commit)) throw new Error(`cannot export the committed tree: commit "${commit}"`);
  mkdirSync(dir, { recursive: true });
  execSync(`git archive ${commit} | tar -x -C ${JSON.stringify(dir)}`, { cwd: REPO_ROOT, stdio: 'inherit' });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  const wasm = join(REPO_ROOT, 'geo-wasm', 'build');
  if (existsSync(wasm)) symlinkSync(wasm, join(dir, 'geo-wasm', 'build'));
  console.log('building the committed server (git archive HEAD, tsc -p tsconfig.build.json)…');
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return join(dir, 'dist', 'server', 'main.js');
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

async function ask(port: number, path: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  const body = Buffer.from(await response.arrayBuffer());
  const headers: [string, string][] = [];
  for (const name of STATIC_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  return { status: response.status, headers, body };
}

async function main(): Promise<void> {
  if (!hasWrk()) {
    const message = 'http bench skipped: wrk not installed (Debian: apt-get install -y wrk)';
    if (SMOKE) {
      console.log(message);
      return;
    }
    throw new Error(message);
  }
  // Taken before anything is built, so the commit is the one measured even if HEAD moves meanwhile.
  const head = process.env.BENCH_HTTP_SERVER === 'head';
  const machine = { ...machineInfo(head ? [] : ['server']), server: head ? 'HEAD (git archive, compiled)' : 'entry' };
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-http-bench-'));
  try {
    await measure(tmp, machine);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function measure(tmp: string, machine: MachineInfo & { server: string }): Promise<void> {
  const entry =
    machine.server !== 'entry'
      ? buildHead(join(tmp, 'head'), machine.commit)
      : resolve(process.env.BENCH_HTTP_SERVER ?? join(REPO_ROOT, 'dist', 'server', 'main.js'));
  const serverRoot = resolve(dirname(entry), '..', '..');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build:ts\` first`);
  if (newestSource(join(serverRoot, 'server')) > statSync(entry).mtimeMs) {
    console.log('warning: server/ has sources newer than dist/server/main.js; run `npm run build:ts` for current numbers');
  }
  const pinned = canPin(2);
  if (!pinned) console.log('warning: fewer than 2 cores or no taskset: servers and wrk run unpinned');
  const serverCpus = pinned ? SETTINGS.serverCpus : undefined;
  const wrkCpus = pinned ? SETTINGS.wrkCpus : undefined;

  const servers = new Map<ServerName, ServerProcess>();
  const stopAll = () => Promise.all([...servers.values()].map((s) => s.stop()));
  try {
    // Cairn, with request logging to a file (and optionally a silent twin).
    for (const name of CAIRNS) {
      // The silent twin prints no listening line: give it a port and wait for it to accept.
      const knownPort = name === 'cairn' ? undefined : await freePort();
      servers.set(
        name,
        await startServer({
          name,
          command: process.execPath,
          args: [entry],
          cwd: serverRoot,
          env: {
            ...process.env,
            PORT: String(knownPort ?? 0),
            HOST: '127.0.0.1',
            DATABASE_PATH: join(tmp, `${name}.db`),
            LOG_LEVEL: name === 'cairn' ? 'info' : 'silent',
            NODE_ENV: 'production',
          },
          cpus: serverCpus,
          stdoutPath: join(tmp, `${name}.log`),
          stderrPath: join(tmp, `${name}.err`),
          knownPort,
        }),
      );
    }
    const cairn = servers.get('cairn') as ServerProcess;

    // Cairn must answer the expected bytes; the peers then get exactly its static headers.
    const bodies = expectedBodies();
    const reference = new Map<RouteName, Answer>();
    for (const route of ROUTES) {
      const answer = await ask(cairn.port, route.path);
      if (answer.status !== 200 || !answer.body.equals(bodies[route.name])) {
        throw new Error(`cairn ${route.path}: status ${answer.status}, body ${answer.body.length} bytes differs from the expected`);
      }
      reference.set(route.name, answer);
    }
    const fixturePath = join(tmp, 'fixture.json');
    const canonical = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    writeFileSync(
      fixturePath,
      JSON.stringify({
        routes: ROUTES.map((route) => {
          const answer = reference.get(route.name) as Answer;
          const headers = answer.headers.map(([k, v]) => [k === 'etag' ? 'ETag' : canonical(k), v]);
          return { path: route.path, headers, bodyBase64: bodies[route.name].toString('base64') };
        }),
      }),
    );
    for (const peer of PEERS) {
      servers.set(
        peer,
        await startServer({
          name: peer,
          command: process.execPath,
          args: [join(REPO_ROOT, 'bench', 'lib', 'http-peer.mjs'), peer, fixturePath],
          cwd: REPO_ROOT,
          env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
          cpus: serverCpus,
          stdoutPath: join(tmp, `${peer}.out`),
          stderrPath: join(tmp, `${peer}.err`),
        }),
      );
    }

    // Outputs equal before timing: status, body bytes, static headers.
    for (const route of ROUTES) {
      const expected = reference.get(route.name) as Answer;
      for (const peer of SERVERS.filter((s) => s !== 'cairn')) {
        const answer = await ask((servers.get(peer) as ServerProcess).port, route.path);
        const same =
          answer.status === 200 && answer.body.equals(expected.body) && JSON.stringify(answer.headers) === JSON.stringify(expected.headers);
        if (!same) {
          throw new Error(
            `${peer} ${route.path} differs from cairn: status ${answer.status}, ${answer.body.length} bytes, ` +
              `headers ${JSON.stringify(answer.headers)} vs ${JSON.stringify(expected.headers)}`,
          );
        }
      }
    }
    console.log(
      `verified: ${SERVERS.join(', ')} answer byte-identical bodies and static headers on ${ROUTES.map((r) => r.path).join(', ')}`,
    );
    console.log(
      `method: servers on cpu ${serverCpus ?? 'any'}, wrk -t${SETTINGS.threads} -c${SETTINGS.connections} -d${SETTINGS.seconds}s on cpu ${wrkCpus ?? 'any'}, ` +
        `${SETTINGS.rounds} round(s), warm-up ${SETTINGS.warmupSeconds}s`,
    );

    const load = (server: ServerProcess, path: string, seconds: number): Promise<WrkResult> =>
      runWrk({
        url: `http://127.0.0.1:${server.port}${path}`,
        seconds,
        connections: SETTINGS.connections,
        threads: SETTINGS.threads,
        cpus: wrkCpus,
      });

    if (SETTINGS.warmupSeconds > 0) {
      for (const route of ROUTES) {
        for (const name of SERVERS) await load(servers.get(name) as ServerProcess, route.path, SETTINGS.warmupSeconds);
      }
    }

    const runs: RunRecord[] = [];
    for (let roundIndex = 1; roundIndex <= SETTINGS.rounds; roundIndex++) {
      for (const route of ROUTES) {
        for (const name of SERVERS) {
          const server = servers.get(name) as ServerProcess;
          if (name === 'cairn') server.truncateStdout();
          const meter = startCpuMeter(server.pid);
          const result = await load(server, route.path, SETTINGS.seconds);
          const cpu = meter.stop();
          const record: RunRecord = {
            round: roundIndex,
            route: route.name,
            server: name,
            reqPerSec: round(result.reqPerSec, 0),
            p50Ms: result.p50Ms,
            p90Ms: result.p90Ms,
            p99Ms: result.p99Ms,
            requests: result.requests,
            cpuPercent: round(cpu.cpuPercent, 1),
            systemShare: round(cpu.systemShare, 2),
            reqPerCpuSecond: round(result.requests / cpu.cpuSeconds, 0),
            non2xx: result.non2xx,
            socketErrors: result.socketErrors,
          };
          if (name === 'cairn') {
            // The logger flushes once per event-loop turn: let the last chunk land before measuring.
            await new Promise((resolve) => setTimeout(resolve, 50));
            record.logBytesPerRequest = round(server.stdoutBytes() / Math.max(1, result.requests), 1);
          }
          runs.push(record);
          const flags = record.non2xx || record.socketErrors ? `  non2xx ${record.non2xx} socket errors ${record.socketErrors}` : '';
          console.log(
            `round ${roundIndex} ${route.name.padEnd(6)} ${name.padEnd(7)} ${String(record.reqPerSec).padStart(7)} req/s  ` +
              `p50 ${record.p50Ms.toFixed(2)} ms  p99 ${record.p99Ms.toFixed(2)} ms  cpu ${record.cpuPercent}% ` +
              `(sys ${Math.round(record.systemShare * 100)}%)  ${record.reqPerCpuSecond} req/cpu-s${flags}`,
          );
        }
      }
    }

    // Medians per route and server, then ratios of medians.
    const medians: Record<string, Record<string, Record<string, number>>> = {};
    const rows: Cell[][] = [];
    for (const route of ROUTES) {
      medians[route.name] = {};
      for (const name of SERVERS) {
        const mine = runs.filter((r) => r.route === route.name && r.server === name);
        const m = {
          reqPerSec: round(median(mine.map((r) => r.reqPerSec)), 0),
          p50Ms: round(median(mine.map((r) => r.p50Ms)), 3),
          p99Ms: round(median(mine.map((r) => r.p99Ms)), 3),
          cpuPercent: round(median(mine.map((r) => r.cpuPercent)), 1),
          systemShare: round(median(mine.map((r) => r.systemShare)), 2),
          reqPerCpuSecond: round(median(mine.map((r) => r.reqPerCpuSecond)), 0),
        };
        (medians[route.name] as Record<string, Record<string, number>>)[name] = m;
        rows.push([route.name, name, m.reqPerSec, m.p50Ms, m.p99Ms, m.cpuPercent, Math.round(m.systemShare * 100), m.reqPerCpuSecond]);
      }
    }
    printTable(
      `medians over ${SETTINGS.rounds} round(s)`,
      ['route', 'server', 'req/s', 'p50 ms', 'p99 ms', 'cpu %', 'sys %', 'req/cpu-s'],
      rows,
    );

    const ratios: Record<string, Record<string, unknown>> = {};
    const ratioRows: Cell[][] = [];
    for (const route of ROUTES) {
      const m = medians[route.name] as Record<string, Record<string, number>>;
      const cairn = m.cairn as Record<string, number>;
      const entryRatios: Record<string, unknown> = {};
      for (const peer of SERVERS.filter((s) => s !== 'cairn')) {
        const other = m[peer] as Record<string, number>;
        const throughput = round(ratio(cairn.reqPerSec as number, other.reqPerSec as number), 3);
        const efficiency = round(ratio(cairn.reqPerCpuSecond as number, other.reqPerCpuSecond as number), 3);
        // Same-round pairs (cairn and the peer ran seconds apart): the median of their ratios.
        const paired = round(
          median(
            runs
              .filter((r) => r.route === route.name && r.server === 'cairn')
              .map((c) => {
                const p = runs.find((r) => r.route === route.name && r.server === peer && r.round === c.round);
                return p ? ratio(c.reqPerSec, p.reqPerSec) : Number.NaN;
              })
              .filter(Number.isFinite),
          ),
          3,
        );
        const verdict = peer === 'uws' ? (throughput >= route.bar ? 'PASS' : 'BELOW') : '';
        entryRatios[peer] = {
          reqPerSec: throughput,
          pairedReqPerSec: paired,
          reqPerCpuSecond: efficiency,
          ...(peer === 'uws' ? { bar: route.bar, verdict } : {}),
        };
        ratioRows.push([route.name, `cairn/${peer}`, throughput, paired, efficiency, peer === 'uws' ? `≥ ${route.bar}` : '', verdict]);
      }
      ratios[route.name] = entryRatios;
    }
    printTable('ratios (cairn median / peer median)', ['route', 'ratio', 'req/s', 'paired', 'req/cpu-s', 'bar (req/s)', ''], ratioRows);

    const suspicious = runs.filter((r) => r.non2xx > 0 || r.socketErrors > 0);
    if (suspicious.length) console.log(`\nwarning: ${suspicious.length} run(s) had non-2xx answers or socket errors (see results file)`);
    const path = writeResults(SMOKE ? 'http.smoke' : CAIRNS.length > 1 ? 'http.silent' : 'http', {
      bench: 'http',
      smoke: SMOKE,
      ...machine,
      server: machine.server === 'entry' ? entry : machine.server,
      settings: { ...SETTINGS, serverCpus, wrkCpus },
      routes: ROUTES,
      runs,
      medians,
      ratios,
    });
    console.log(`\nwrote ${path}`);
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
