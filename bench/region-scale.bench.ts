// Region-scale benchmark: how the import, the region folder, the server's start and memory, routing and tiles
// grow with the region, as an operator sees them.
//
// Question: what does a region of N stitched copies of Liechtenstein (one connected network) cost to import and
// to serve, and where does it break? The bars (144 copies, ~180 MB of PBF): import ≤ 10 min with peak RSS ≤ 2 GB;
// ready ≤ 10 s; RSS ≤ 1.5 GB with 2 workers after routing and tiling across the whole region, ≤ 1.15x that with 4;
// first route ≤ 300 ms; every corner-to-corner route found, p50 ≤ 50 ms; short routes p95 ≤ 20 ms; cold z14 tiles
// p95 ≤ 20 ms; no tile over 500 KB.
// Datasets: N copies of ../shared/data/liechtenstein-latest.osm.pbf laid on a grid and joined into one network by
// bench/region-scale/stitch.mjs (written once per N into $TMPDIR/cairn-region-scale/, reused by later runs).
// Sizes: REGION_SCALE_COPIES (default 1,16,64,144; BENCH_SMOKE=1: 2, to keep the script working).
// Method, per size: the import (`node dist/data/region/import-cli.js --json`) under /usr/bin/time -v: wall time and
// peak RSS; the folder's size. Then for WORKER_THREADS=2 and 4, a fresh server on the folder: ready = spawn to its
// listening line; first route = the first `directions` answer; SHORT routes between a random network node and one 1–5 km
// from it and LONG corner-to-corner routes (the nodes nearest the region's SW and NE corners, and NW–SE), all on the
// network's largest connected part, fixed seed,
// one client, p50/p95 of the answer time (failures counted); COLD tiles = distinct z14 tiles under random nodes,
// each asked once, p50/p95; the largest tile per zoom over the tiles under the same nodes at every zoom 0–16
// (uncompressed bytes); then the server's RSS (VmRSS) with all of that done.
// REGION_SCALE_REUSE=1 serves a region folder a previous run left instead of importing again (import columns then
// show the folder as reused); REGION_SCALE_WORKERS (default 2,4) sets the servers measured, in that order.
// Run: npm run build && node --expose-gc --import tsx bench/region-scale.bench.ts
// Output: a table on stdout and bench/results/region-scale.json (region-scale.smoke.json with BENCH_SMOKE=1).

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeGraphFile } from '../data/region/graph-file.js';
import type { RegionGraph } from '../data/region/region-graph.js';
import { seededRandom } from '../data/seeded-random.js';
import { dataApiHeaders, rssMb, startCairn } from './lib/server-process.js';
import { percentile, round } from './lib/stats.js';
import { edgeTarget, latOf, lonOf, outEdges } from '../data/region/region-graph.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(ROOT, '..', 'shared', 'data');
const SOURCE = join(DATA, 'liechtenstein-latest.osm.pbf');
const WORK = join(tmpdir(), 'cairn-region-scale');
const COPIES = (process.env.REGION_SCALE_COPIES ?? (SMOKE ? '2' : '1,16,64,144')).split(',').map(Number);
const REUSE = process.env.REGION_SCALE_REUSE === '1';
const WORKER_COUNTS = (process.env.REGION_SCALE_WORKERS ?? '2,4').split(',').map(Number);
const SHORT_ROUTES = SMOKE ? 10 : 200;
const LONG_ROUTES = SMOKE ? 2 : 10;
const COLD_TILES = SMOKE ? 10 : 200;
const TILE_LIMIT = 500 * 1024;

type Json = Record<string, unknown>;

/** `fn`'s wall time and the peak RSS of the process it runs, from GNU time's report on stderr. */
function timed(command: string, args: string[]): { ok: boolean; seconds: number; peakMb: number; stdout: string; stderr: string } {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr ?? '');
  return {
    ok: run.status === 0,
    seconds,
    peakMb: peak ? Number(peak[1]) / 1024 : Number.NaN,
    stdout: run.stdout ?? '',
    stderr: run.stderr ?? '',
  };
}

const folderMb = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((s, f) => s + (f.isFile() ? statSync(join(dir, f.name)).size : 0), 0) / 2 ** 20;

/** The tile (x, y) at zoom z under a position. */
function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
  const r = (lat * Math.PI) / 180;
  const y = Math.min(n - 1, Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n));
  return [x, y];
}

const metres = (g: RegionGraph, a: number, b: number): number => {
  const kx = 111_320 * Math.cos((latOf(g, a) * Math.PI) / 180);
  return Math.hypot((lonOf(g, a) - lonOf(g, b)) * kx, (latOf(g, a) - latOf(g, b)) * 110_574);
};

const nearestNode = (g: RegionGraph, among: Int32Array, lon: number, lat: number): number => {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of among) {
    const d = (lonOf(g, n) - lon) ** 2 + (latOf(g, n) - lat) ** 2;
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
};

const position = (g: RegionGraph, n: number): [number, number] => [lonOf(g, n), latOf(g, n)];

/** The nodes of the largest connected part of the network (union-find over its edges), so every route can exist. */
function largestComponent(g: RegionGraph): Int32Array {
  const parent = Int32Array.from({ length: g.nodeCount }, (_, i) => i);
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  for (let n = 0; n < g.nodeCount; n++) {
    for (const e of outEdges(g, n)) {
      const [a, b] = [find(n), find(edgeTarget(g, e))];
      if (a !== b) parent[a] = b;
    }
  }
  const size = new Int32Array(g.nodeCount);
  for (let n = 0; n < g.nodeCount; n++) {
    const r = find(n);
    size[r] = size[r]! + 1;
  }
  let root = 0;
  for (let n = 0; n < g.nodeCount; n++) if (size[n]! > size[root]!) root = n;
  return Int32Array.from({ length: g.nodeCount }, (_, n) => n).filter((n) => find(n) === root);
}

/** The nodes of `among` in the cells (0.05°) around a node: the 5 columns and 3 rows of cells centred on it. */
function nodeCells(g: RegionGraph, among: Int32Array): (n: number) => number[] {
  const CELL = 0.05;
  const key = (cx: number, cy: number) => (cy + 4000) * 8000 + (cx + 4000);
  const cells = new Map<number, number[]>();
  for (const n of among) {
    const k = key(Math.floor(lonOf(g, n) / CELL), Math.floor(latOf(g, n) / CELL));
    let list = cells.get(k);
    if (!list) cells.set(k, (list = []));
    list.push(n);
  }
  return (n) => {
    const cx = Math.floor(lonOf(g, n) / CELL);
    const cy = Math.floor(latOf(g, n) / CELL);
    const out: number[] = [];
    for (let y = cy - 1; y <= cy + 1; y++) for (let x = cx - 2; x <= cx + 2; x++) for (const m of cells.get(key(x, y)) ?? []) out.push(m);
    return out;
  };
}

/** The waypoints of the run, drawn once per region (fixed seed) so that 2 and 4 workers answer the same requests. */
function workload(regionDir: string) {
  const g = decodeGraphFile(readFileSync(join(regionDir, 'graph.bin')), 'graph.bin');
  const random = seededRandom(42);
  const connected = largestComponent(g);
  const node = () => connected[Math.floor(random() * connected.length)]!;
  // Short routes: a random node and one 1–5 km from it, drawn among the nodes of the cells around it (a random node
  // of a country is almost never that close; a start with no such neighbour is drawn again).
  const near = nodeCells(g, connected);
  const short: [number, number][][] = [];
  while (short.length < SHORT_ROUTES) {
    const a = node();
    const around = near(a);
    for (let tries = 0; tries < 200; tries++) {
      const b = around[Math.floor(random() * around.length)]!;
      const d = metres(g, a, b);
      if (d >= 1000 && d <= 5000) {
        short.push([position(g, a), position(g, b)]);
        break;
      }
    }
  }
  const [w, s, e, n] = g.bbox;
  const corners = [
    [nearestNode(g, connected, w, s), nearestNode(g, connected, e, n)],
    [nearestNode(g, connected, w, n), nearestNode(g, connected, e, s)],
  ];
  const long: [number, number][][] = [];
  for (let i = 0; i < LONG_ROUTES; i++) {
    const [a, b] = corners[i % 2]!;
    long.push(i % 4 < 2 ? [position(g, a!), position(g, b!)] : [position(g, b!), position(g, a!)]);
  }
  const tileNodes = Array.from({ length: COLD_TILES }, () => position(g, node()));
  return { short, long, tileNodes, nodes: g.nodeCount, edges: g.edgeCount };
}

interface Served {
  workers: number;
  readySeconds: number;
  firstRouteMs: number;
  short: { p50: number; p95: number; failed: Record<string, number> };
  long: { p50: number; p95: number; failed: Record<string, number>; km: number };
  coldZ14: { count: number; p50: number; p95: number };
  largestTileKb: Record<string, number>;
  tilesOver500Kb: number;
  rssMb: number;
}

async function serve(regionDir: string, workers: number, load: ReturnType<typeof workload>): Promise<Served> {
  const dir = join(WORK, `server-${workers}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spawned = performance.now();
  // A large region takes its time to load: the bench waits up to 10 minutes and reports how long it took.
  const { server, boot, base } = await startCairn(
    dir,
    undefined,
    { REGION_PATH: regionDir, WORKER_THREADS: String(workers) },
    { startTimeoutMs: 600_000 },
  );
  const readySeconds = (performance.now() - spawned) / 1000;
  try {
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'dist', 'server', 'management', 'admin', 'admin.js'),
        'set',
        '--org',
        boot.organization.id,
        'quota.data=100000000',
        'quota.tiles=100000000',
      ],
      { env: { ...process.env, DATABASE_PATH: join(dir, 'platform.db') }, stdio: 'ignore' },
    );
    const headers = await dataApiHeaders(base, boot);
    const query = 'query D($w: [[Float!]!]!) { directions(input: {activity: HIKING_AND_TRAIL, waypoints: $w}) { routes { distance } } }';
    const route = async (waypoints: [number, number][]): Promise<{ ms: number; km: number | null; error?: string }> => {
      const t0 = performance.now();
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: { w: waypoints } }) });
      const body = (await res.json()) as {
        data?: { directions?: { routes: { distance: number }[] } };
        errors?: { extensions?: { code?: string } }[];
      };
      const ms = performance.now() - t0;
      const best = body.data?.directions?.routes[0];
      if (best) return { ms, km: best.distance / 1000 };
      return { ms, km: null, error: `${res.status} ${body.errors?.[0]?.extensions?.code ?? 'no route'}` };
    };
    /** How many answers failed, by status and code. */
    const failures = (rs: { error?: string }[]): Record<string, number> => {
      const by: Record<string, number> = {};
      for (const r of rs) if (r.error) by[r.error] = (by[r.error] ?? 0) + 1;
      return by;
    };
    const first = await route(load.short[0]!);
    const short = [];
    for (const w of load.short.slice(1)) short.push(await route(w));
    const long = [];
    for (const w of load.long) long.push(await route(w));

    const tile = async (z: number, x: number, y: number): Promise<{ ms: number; bytes: number; status: number }> => {
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/tiles/trails/${z}/${x}/${y}.mvt`, { headers: { 'X-API-Key': boot.publishableKey.key } });
      const bytes = (await res.arrayBuffer()).byteLength;
      return { ms: performance.now() - t0, bytes, status: res.status };
    };
    const cold: number[] = [];
    const seen = new Set<string>();
    for (const [lon, lat] of load.tileNodes) {
      const [x, y] = tileOf(lon, lat, 14);
      if (seen.has(`${x}/${y}`)) continue;
      seen.add(`${x}/${y}`);
      cold.push((await tile(14, x, y)).ms);
    }
    const largest: Record<number, number> = {};
    let over = 0;
    for (let z = 0; z <= 16; z++) {
      const tiles = new Set(load.tileNodes.map(([lon, lat]) => tileOf(lon, lat, z).join('/')));
      for (const key of tiles) {
        const [x, y] = key.split('/').map(Number) as [number, number];
        const { bytes } = await tile(z, x, y);
        largest[z] = Math.max(largest[z] ?? 0, bytes);
        if (bytes > TILE_LIMIT) over++;
      }
    }
    const ms = (xs: { ms: number }[]) => xs.map((r) => r.ms);
    return {
      workers,
      readySeconds: round(readySeconds, 2),
      firstRouteMs: round(first.ms, 1),
      short: {
        p50: round(percentile(ms(short), 50), 1),
        p95: round(percentile(ms(short), 95), 1),
        failed: failures(short),
      },
      long: {
        p50: round(percentile(ms(long), 50), 1),
        p95: round(percentile(ms(long), 95), 1),
        failed: failures(long),
        km: round(Math.max(...long.map((r) => r.km ?? 0)), 1),
      },
      coldZ14: { count: cold.length, p50: round(percentile(cold, 50), 1), p95: round(percentile(cold, 95), 1) },
      largestTileKb: Object.fromEntries(Object.entries(largest).map(([z, b]) => [z, round(b / 1024, 1)])),
      tilesOver500Kb: over,
      rssMb: round(rssMb(server.pid), 0),
    };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (!existsSync(SOURCE)) {
    console.log(`region-scale: ${SOURCE} is missing; nothing to measure (the bench needs ../shared/data)`);
    return;
  }
  mkdirSync(WORK, { recursive: true });
  const rows: Json[] = [];
  for (const copies of COPIES) {
    const pbf = join(WORK, `stitch-${copies}.osm.pbf`);
    if (!existsSync(pbf)) {
      execFileSync(
        process.execPath,
        [join(ROOT, 'bench', 'region-scale', 'stitch.mjs'), '--copies', String(copies), '--out', pbf, '--src', SOURCE],
        {
          stdio: 'inherit',
        },
      );
    }
    const regionDir = join(WORK, `region-${copies}`);
    const reused = REUSE && existsSync(join(regionDir, 'meta.json'));
    if (!reused) rmSync(regionDir, { recursive: true, force: true });
    const imported = reused
      ? { ok: true, seconds: Number.NaN, peakMb: Number.NaN, stdout: '', stderr: '' }
      : timed(process.execPath, [join(ROOT, 'dist', 'data', 'region', 'import-cli.js'), '--osm', pbf, '--out', regionDir, '--json']);
    const row: Json = {
      copies,
      pbfMb: round(statSync(pbf).size / 2 ** 20, 1),
      import: reused
        ? { ok: true, reused: true }
        : { ok: imported.ok, seconds: round(imported.seconds, 1), peakRssMb: round(imported.peakMb, 0) },
    };
    rows.push(row);
    if (!imported.ok) {
      row.import = { ...(row.import as Json), error: imported.stderr.split('\n').find((l) => l.startsWith('error')) ?? 'failed' };
      console.log(JSON.stringify(row));
      continue;
    }
    row.folderMb = round(folderMb(regionDir), 1);
    const load = workload(regionDir);
    row.graph = { nodes: load.nodes, edges: load.edges };
    const served: Served[] = [];
    for (const workers of WORKER_COUNTS) served.push(await serve(regionDir, workers, load));
    row.served = served;
    const two = served.find((s) => s.workers === 2);
    const four = served.find((s) => s.workers === 4);
    if (two && four) row.rss4over2 = round(four.rssMb / two.rssMb, 2);
    console.log(JSON.stringify(row));
  }

  console.log(
    '\ncopies | PBF MB | import s | import peak MB | folder MB | ready s (2w) | RSS MB 2w / 4w | first route ms | short p50/p95 | long p50/p95 (km) | cold z14 p50/p95 | largest tile KB (zoom)',
  );
  for (const r of rows) {
    const imp = r.import as Json;
    if (!imp.ok) {
      console.log(`${r.copies} | ${r.pbfMb} | fails after ${imp.seconds} s at ${imp.peakRssMb} MB: ${imp.error}`);
      continue;
    }
    const served = r.served as Served[];
    const two = served.find((s) => s.workers === 2) ?? served[0];
    const four = served.find((s) => s.workers === 4) ?? served[0];
    const { short: s, long: l, coldZ14: c } = two!;
    const sizes = Object.entries(two!.largestTileKb);
    const [zMax, kbMax] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(
      `${r.copies} | ${r.pbfMb} | ${imp.reused ? 'reused' : imp.seconds} | ${imp.reused ? '' : imp.peakRssMb} | ${r.folderMb} | ${two!.readySeconds} | ${two!.rssMb} / ${four!.rssMb} | ${two!.firstRouteMs} | ${s.p50} / ${s.p95} | ${l.p50} / ${l.p95} (${l.km}) | ${c.p50} / ${c.p95} | ${kbMax} (z${zMax})`,
    );
  }
  const out = join(ROOT, 'bench', 'results', SMOKE ? 'region-scale.smoke.json' : 'region-scale.json');
  writeFileSync(out, `${JSON.stringify({ smoke: SMOKE, node: process.version, date: new Date().toISOString(), rows }, null, 2)}\n`);
  console.log(`\nwritten ${out}`);
}

await main();
