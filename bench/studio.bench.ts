// Question: how many durable Studio edits per second does Cairn answer through its HTTP API, against
// what SQLite itself does on the same disk, and how fast are itinerary reads?
//
// Peers in the same run (DESIGN §13): raw better-sqlite3 inserts with synchronous=FULL, one row per
// autocommit transaction (what one-commit-per-request would cap at), and 1,000 rows per transaction; and
// the edit floor (bench/lib/edit-floor-peer.mjs): bare uWebSockets.js + better-sqlite3 answering the same
// PATCH with Cairn's group commit and nothing else, the most this machine gives a durable edit over HTTP.
// Cairn runs with its defaults (WAL, synchronous=FULL, group commit: one transaction per event-loop
// turn, each response sent after its commit), pinned to core 0; wrk runs on core 1 with 50 connections.
//
// Scenarios (demo region, a fresh database):
//   edit      PATCH /v1/itineraries/{id} {description}: a durable write that needs no routing
//   move      PUT …/waypoints/{id} {coordinates}: moves a waypoint of a smart itinerary, re-routing both
//             neighbouring segments through the worker pool (the caller holds the locks)
//   read      GET /v1/itineraries/{id} of a 50-segment itinerary
// Every scenario is checked before timing (one request answers 2xx with the expected body), and every
// wrk run must finish with no non-2xx answer. Read: req/s and p50/p99; the edit goal is ≥ 5x the
// durable autocommit rate with p99 ≤ 10 ms. Results: bench/results/studio.json.
// BENCH_SMOKE=1: one short round (CI keeps the script working; timings are not judged).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildDemoRegion } from '../data/region/demo-region.js';
import { machineInfo, REPO_ROOT, writeResults } from './lib/machine.js';
import { startCpuMeter } from './lib/proc-cpu.js';
import { startCairn, startServer } from './lib/server-process.js';
import { median, ratio, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { canPin, hasWrk, runWrk, type WrkResult } from './lib/wrk.js';
import { edgeTarget, latOf, lonOf, outEdges } from '../data/region/region-graph.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_STUDIO_SECONDS ?? 4);
const ROUNDS = SMOKE ? 1 : 3;
const CONNECTIONS = 50;

/** Rows per second of raw inserts into a WAL database with synchronous=FULL. */
function sqliteRate(dir: string, rowsPerTransaction: number, seconds: number): number {
  const db = new Database(join(dir, `raw-${rowsPerTransaction}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE edits (id INTEGER PRIMARY KEY, itinerary TEXT NOT NULL, description TEXT NOT NULL, at TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO edits (itinerary, description, at) VALUES (?, ?, ?)');
  const batch = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run('itinerary', 'edit', new Date().toISOString());
  });
  let rows = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    if (rowsPerTransaction === 1) insert.run('itinerary', 'edit', new Date().toISOString());
    else batch(rowsPerTransaction);
    rows += rowsPerTransaction;
  }
  const rate = rows / ((performance.now() - started) / 1000);
  db.close();
  return rate;
}

function luaString(value: string): string {
  return JSON.stringify(value); // a JSON string literal is a valid Lua string literal here (ASCII only)
}

/**
 * A wrk script with Cairn's credential headers that cycles through `paths` (one request per path in turn)
 * and `bodies` (if any).
 */
function script(dir: string, name: string, method: string, headers: Record<string, string>, paths: string[], bodies?: string[]): string {
  const lines = [`wrk.method = ${luaString(method)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  lines.push(`local paths = { ${paths.map(luaString).join(', ')} }`);
  lines.push(`local bodies = { ${(bodies ?? []).map(luaString).join(', ')} }`);
  lines.push('local i = 0');
  lines.push(
    'request = function() i = i + 1; return wrk.format(nil, paths[(i % #paths) + 1], nil, #bodies > 0 and bodies[(i % #bodies) + 1] or nil) end',
  );
  const path = join(dir, `${name}.lua`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => undefined)) as any;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function main(): Promise<void> {
  if (!hasWrk()) {
    console.log('studio bench skipped: wrk not installed');
    process.exit(SMOKE ? 0 : 1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-studio-bench-'));
  const pinned = canPin(2);
  const results: Record<string, unknown> = { bench: 'studio', smoke: SMOKE, ...machineInfo(['server', 'data']) };
  let stopServer: (() => Promise<void>) | undefined;
  try {
    // Raw SQLite peers on the same disk, before the server starts (nothing else writing).
    const autocommit = sqliteRate(dir, 1, SMOKE ? 0.5 : 2);
    const batched = sqliteRate(dir, 1000, SMOKE ? 0.5 : 1);

    const { server, boot } = await startCairn(dir, pinned ? '0' : undefined);
    const floor = await startServer({
      name: 'edit floor peer',
      command: process.execPath,
      args: [join(REPO_ROOT, 'bench', 'lib', 'edit-floor-peer.mjs'), join(dir, 'floor.db'), String(CONNECTIONS)],
      cpus: pinned ? '0' : undefined,
      stdoutPath: join(dir, 'floor.log'),
      stderrPath: join(dir, 'floor.err'),
    });
    stopServer = () => Promise.all([server.stop(), floor.stop()]).then(() => undefined);
    const base = `http://127.0.0.1:${server.port}`;
    const writer = { 'X-API-Key': boot.publishableKey.key, 'X-User-Id': boot.owner.id };
    const reader = { 'X-API-Key': boot.publishableKey.key };

    // Points on the demo network: consecutive nodes of one long way are routable neighbours.
    const region = buildDemoRegion();
    const g = region.graph;
    const point = (n: number): [number, number] => [lonOf(g, n) as number, latOf(g, n) as number];
    const walk: number[] = [0];
    for (let i = 0; walk.length < 400 && i < 10_000; i++) {
      const at = walk[walk.length - 1] as number;
      const out = outEdges(g, at);
      const next = edgeTarget(g, out[i % Math.max(1, out.length)] as number);
      if (!walk.includes(next)) walk.push(next);
    }

    // The itineraries each scenario works on. Cairn runs the edits of one itinerary one at a time (each
    // plans on the committed chain), so, as with real traffic, the load is spread over many itineraries.
    const pick = (k: number) => point(walk[Math.min(walk.length - 1, k)] as number);
    const edited: string[] = [];
    for (let k = 0; k < CONNECTIONS; k++) {
      edited.push((await call(base, 'POST', '/v1/itineraries', writer, { name: `Edited ${k}` })).data.id as string);
    }
    const moved: { itinerary: string; waypoint: string }[] = [];
    for (let k = 0; k < (SMOKE ? 2 : 10); k++) {
      const smart = (await call(base, 'POST', '/v1/itineraries', writer, { name: `Smart ${k}` })).data.id as string;
      await call(base, 'POST', `/v1/itineraries/${smart}/segments`, writer, { engine: 'smart', from: pick(k), to: pick(k + 40) });
      await call(base, 'POST', `/v1/itineraries/${smart}/segments`, writer, { engine: 'smart', to: pick(k + 80) });
      await call(base, 'POST', `/v1/itineraries/${smart}/locks`, writer, { parts: 'all' });
      const view = (await call(base, 'GET', `/v1/itineraries/${smart}`, reader)).data;
      moved.push({ itinerary: smart, waypoint: view.waypoints[1].id as string });
    }
    const long = (await call(base, 'POST', '/v1/itineraries', writer, { name: 'Fifty segments' })).data.id as string;
    for (let s = 0; s < 50; s++) {
      const a = pick(s * 6);
      const b = pick(s * 6 + 3);
      const c = pick(s * 6 + 6);
      await call(base, 'POST', `/v1/itineraries/${long}/segments`, writer, {
        engine: 'freehand',
        coordinates: s === 0 ? [a, b, c] : [b, c],
      });
    }
    const longView = (await call(base, 'GET', `/v1/itineraries/${long}`, reader)).data;
    if (longView.segments.length !== 50) throw new Error(`expected 50 segments, got ${longView.segments.length}`);

    const moves = Array.from({ length: 16 }, (_, k) => JSON.stringify({ coordinates: pick(30 + k * 3) }));
    const movePaths = moved.map((m) => `/v1/itineraries/${m.itinerary}/waypoints/${m.waypoint}`);
    // Check each scenario before timing: every move body on every itinerary it will be sent to.
    await call(base, 'PATCH', `/v1/itineraries/${edited[0]}`, writer, { description: 'edit' });
    for (const [k, path] of movePaths.entries()) {
      for (const body of moves.slice(0, 3)) {
        try {
          await call(base, 'PUT', path, writer, JSON.parse(body));
        } catch (error) {
          throw new Error(`move check failed on itinerary ${k} with ${body}: ${(error as Error).message}`);
        }
      }
    }

    const json = { ...writer, 'Content-Type': 'application/json' };
    const scenarios = [
      {
        name: 'edit',
        url: `${base}/v1/itineraries/${edited[0]}`,
        script: script(
          dir,
          'edit',
          'PATCH',
          json,
          edited.map((id) => `/v1/itineraries/${id}`),
          ['{"description":"edited under load"}'],
        ),
      },
      { name: 'move', url: `${base}${movePaths[0]}`, script: script(dir, 'move', 'PUT', json, movePaths, moves) },
      { name: 'read', url: `${base}/v1/itineraries/${long}`, script: script(dir, 'read', 'GET', reader, [`/v1/itineraries/${long}`]) },
      {
        name: 'edit floor',
        server: floor,
        url: `http://127.0.0.1:${floor.port}/v1/itineraries/it0`,
        script: script(
          dir,
          'floor',
          'PATCH',
          { 'Content-Type': 'application/json' },
          edited.map((_, k) => `/v1/itineraries/it${k}`),
          ['{"description":"edited under load"}'],
        ),
      },
    ];
    const floorCheck = await fetch(`http://127.0.0.1:${floor.port}/v1/itineraries/it0`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: '{"description":"edit"}',
    });
    if (floorCheck.status !== 200) throw new Error(`edit floor peer answered ${floorCheck.status}`);
    const runs: (WrkResult & { scenario: string; round: number; cpuPercent: number; reqPerCpuSecond: number })[] = [];
    for (let roundNo = 1; roundNo <= ROUNDS; roundNo++) {
      for (const s of scenarios) {
        const meter = startCpuMeter((s.server ?? server).pid);
        const r = await runWrk({
          url: s.url,
          seconds: SECONDS,
          connections: CONNECTIONS,
          threads: 1,
          cpus: pinned ? '1' : undefined,
          script: s.script,
        });
        const cpu = meter.stop();
        if (r.non2xx > 0 || r.socketErrors > 0)
          throw new Error(`${s.name}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors\n${r.raw}`);
        // Requests per CPU-second of the server (worker threads included): its cost, whatever the machine's load.
        const reqPerCpuSecond = Math.round(r.requests / cpu.cpuSeconds);
        runs.push({ ...r, raw: '', scenario: s.name, round: roundNo, cpuPercent: round(cpu.cpuPercent, 1), reqPerCpuSecond });
        console.log(
          `round ${roundNo} ${s.name.padEnd(5)} ${Math.round(r.reqPerSec)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu ${round(cpu.cpuPercent, 1)}%  ${reqPerCpuSecond} req/cpu-s`,
        );
      }
    }
    await stopServer();
    stopServer = undefined;

    const summary = scenarios.map((s) => {
      const mine = runs.filter((r) => r.scenario === s.name);
      return {
        scenario: s.name,
        reqPerSec: round(median(mine.map((r) => r.reqPerSec)), 0),
        p50Ms: round(median(mine.map((r) => r.p50Ms))),
        p99Ms: round(median(mine.map((r) => r.p99Ms))),
        cpuPercent: round(median(mine.map((r) => r.cpuPercent)), 1),
        reqPerCpuSecond: round(median(mine.map((r) => r.reqPerCpuSecond)), 0),
      };
    });
    const edit = summary[0] as (typeof summary)[number];
    printTable(
      'studio (medians)',
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'cpu %', 'req/cpu-s'],
      summary.map((r) => [r.scenario, r.reqPerSec, r.p50Ms, r.p99Ms, r.cpuPercent, r.reqPerCpuSecond]),
    );
    const floorEdit = summary.find((r) => r.scenario === 'edit floor') as (typeof summary)[number];
    const editRatio = ratio(edit.reqPerSec, autocommit);
    printTable(
      'peers, same disk (rows/s or req/s)',
      ['peer', 'rate', 'edit req/s ÷ peer', 'peer ÷ autocommit'],
      [
        ['SQLite autocommit, synchronous=FULL', Math.round(autocommit), round(editRatio), 1],
        [
          'SQLite, 1,000 rows per transaction',
          Math.round(batched),
          round(ratio(edit.reqPerSec, batched), 3),
          round(ratio(batched, autocommit)),
        ],
        [
          'edit floor (bare uWS + SQLite group commit)',
          floorEdit.reqPerSec,
          round(ratio(edit.reqPerSec, floorEdit.reqPerSec)),
          round(ratio(floorEdit.reqPerSec, autocommit)),
        ],
      ],
    );
    const verdict = editRatio >= 5 && edit.p99Ms <= 10 ? 'PASS' : 'BELOW';
    console.log(`edit goal (≥ 5x durable autocommit, p99 ≤ 10 ms): ${round(editRatio)}x, p99 ${edit.p99Ms} ms → ${verdict}`);
    console.log(
      `the edit floor reaches ${round(ratio(floorEdit.reqPerSec, autocommit))}x of durable autocommit (p99 ${floorEdit.p99Ms} ms); Cairn's edits run at ${round(ratio(edit.reqPerSec, floorEdit.reqPerSec))}x of the floor`,
    );
    Object.assign(results, {
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, pinned },
      sqlite: { autocommitRowsPerSec: Math.round(autocommit), batchedRowsPerSec: Math.round(batched) },
      editFloorVsAutocommit: round(ratio(floorEdit.reqPerSec, autocommit)),
      editVsFloor: round(ratio(edit.reqPerSec, floorEdit.reqPerSec)),
      runs,
      summary,
      editVsAutocommit: round(editRatio),
      verdict,
    });
    console.log(`wrote ${writeResults(SMOKE ? 'studio.smoke' : 'studio', results)}`);
  } finally {
    await stopServer?.(); // a failed run must not leave its server behind
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
