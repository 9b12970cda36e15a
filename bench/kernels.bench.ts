// Geometry WASM kernels vs their plain-TS twins vs @turf/turf.
//
// Question: is each geometry kernel (geo-wasm/src/geometry.ts, called the way the workers call it: the
// same wrapper, stride and options, from a Float64Array, copies in and out included) at least as fast as
// its plain-TS twin (geo-wasm/reference/geometry.ts, same algorithm and arithmetic, no copies) and at
// least 5x faster than @turf/turf doing the same job on the equivalent GeoJSON (DESIGN §13)? Each row
// names the worker code that makes that call ("run by"); along, slice and simplify have no caller yet
// (tiles will simplify) and are measured so that they stay ready.
// Datasets: seeded hiking tracks of 100, 1,000 and 10,000 vertices (about 10 m apart, wandering heading,
// elevation from smooth hills plus noise, around 42.5°N 1.5°E), and a seeded SRTM3-like 1201x1201 grid
// for DEM sampling. turf gets a prebuilt GeoJSON Feature<LineString> (its natural input, not timed).
// Method: for every kernel and size, one tinybench run per round with the contenders in rotating order;
// ROUNDS interleaved rounds; per round the ratio of median latencies (p50); the table shows the median
// p50 per contender and the median of the per-round ratios. Before timing, WASM and twin outputs must be
// bit-equal, and turf's answer must agree within 0.1% (length, nearest distance) or 1 m (along, slice ends).
// turf has no peer for cumulative distances, DEM sampling or ascent: shown as "-".
// How to read: "x twin" > 1 means the WASM path (with its copies) is faster than the twin; "x turf" is how
// many times faster than turf; "run by" is where the product makes the call (workers/). Numbers compare only within one run on one machine; the bars are ≥ 1.0x
// twin and ≥ 5x turf. Memory: heap + external (WASM memory is external) after GC, before and after.
// Run: node --expose-gc --import tsx bench/kernels.bench.ts [kernel…]   (BENCH_SMOKE=1: one short round, ~3 s)
// Output: a table on stdout and bench/results/kernels.json (kernels.smoke.json in smoke mode).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as turf from '@turf/turf';
import type { Feature, LineString } from 'geojson';
import { Bench } from 'tinybench';
import type { DemGrid } from '../data/region/dem-grid.js';
import * as wasm from '../geo-wasm/src/geometry.js';
import * as twin from '../geo-wasm/reference/geometry.js';
import { RECORDED_GAIN } from '../workers/line-geometry.js';
import { seededRandom as rng } from '../data/seeded-random.js';

const SMOKE = process.env['BENCH_SMOKE'] === '1';
const ROUNDS = SMOKE ? 1 : 5;
const TIME_MS = SMOKE ? 4 : 30;
const SIZES = [100, 1_000, 10_000];
const ONLY = process.argv.slice(2); // kernel names to run (default: all), e.g. `along simplify`
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

/** A hiking track: n vertices ~10 m apart, stride 3 (lon, lat, ele). */
function hikingTrack(n: number, seed: number): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(n * 3);
  let lon = 1.5;
  let lat = 42.5;
  let heading = r() * 2 * Math.PI;
  const mPerDegLat = 111_195;
  const mPerDegLon = mPerDegLat * Math.cos(lat * (Math.PI / 180));
  for (let i = 0; i < n; i++) {
    heading += (r() - 0.5) * 0.6;
    const step = 6 + r() * 8;
    lon += (Math.cos(heading) * step) / mPerDegLon;
    lat += (Math.sin(heading) * step) / mPerDegLat;
    out[i * 3] = lon;
    out[i * 3 + 1] = lat;
    out[i * 3 + 2] = 1500 + 300 * Math.sin(lon * 400) * Math.cos(lat * 300) + (r() - 0.5) * 4;
  }
  return out;
}

function stride2(c3: Float64Array): Float64Array {
  const n = c3.length / 3;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = c3[i * 3] as number;
    out[i * 2 + 1] = c3[i * 3 + 1] as number;
  }
  return out;
}

function feature(c2: Float64Array): Feature<LineString> {
  const coords: number[][] = [];
  for (let i = 0; i < c2.length; i += 2) coords.push([c2[i] as number, c2[i + 1] as number]);
  return turf.lineString(coords);
}

function demGrid(seed: number): DemGrid {
  const r = rng(seed);
  const cols = 1201;
  const rows = 1201;
  const samples = new Int16Array(cols * rows);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      samples[y * cols + x] = Math.round(1500 + 600 * Math.sin(x / 70) * Math.cos(y / 90) + (r() - 0.5) * 10);
    }
  }
  return { west: 1, north: 43, cellDeg: 1 / 1200, cols, rows, samples };
}

type Run = () => unknown;
interface Case {
  kernel: string;
  /** The worker code making this call with these arguments ('-' when nothing calls it yet). */
  runBy: string;
  size: number;
  wasm: Run;
  twin: Run;
  turf?: Run;
}

function assert(ok: boolean, what: string): void {
  if (!ok) throw new Error(`outputs differ before timing: ${what}`);
}
function same(a: unknown, b: unknown): boolean {
  return (
    JSON.stringify(a, (_k, v: unknown) => (v instanceof Float64Array ? Array.from(v) : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (v instanceof Float64Array ? Array.from(v) : v))
  );
}
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-9);
const metresApart = (a: number[], b: number[]): number => turf.distance(turf.point(a), turf.point(b), { units: 'meters' });
function ok<T>(v: T | wasm.GeometryFailure): T {
  if (wasm.isGeometryFailure(v)) throw new Error(`kernel failed: ${v.reason}`);
  return v;
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  const grid = demGrid(7);
  for (const size of SIZES) {
    const c3 = hikingTrack(size, size);
    const c2 = stride2(c3);
    const line = feature(c2);
    const length = ok(twin.lineLength(c2));
    const ele = Float64Array.from({ length: size }, (_, i) => c3[i * 3 + 2] as number);
    const cum = ok(twin.cumulativeDistances(c2));
    const at = length * 0.6;
    const [d0, d1] = [length * 0.25, length * 0.75];
    const mid = Math.floor(size / 2) * 2;
    const plon = (c2[mid] as number) + 0.0004;
    const plat = (c2[mid + 1] as number) + 0.0003;
    const pt = turf.point([plon, plat]);
    const tolM = 5;
    const tolDeg = tolM / 111_195;

    // Outputs checked before any timing.
    assert(same(wasm.lineLength(c3, 3), twin.lineLength(c3, 3)), `length ${size}`);
    assert(rel(length, turf.length(line, { units: 'meters' })) < 1e-3, `turf length ${size}`);
    assert(same(wasm.cumulativeDistances(c2), twin.cumulativeDistances(c2)), `cumulative ${size}`);
    assert(same(wasm.along(c2, at), twin.along(c2, at)), `along ${size}`);
    const a = ok(wasm.along(c2, at));
    const ta = turf.along(line, at, { units: 'meters' }).geometry.coordinates;
    assert(metresApart([a.lon, a.lat], ta) < 1, `turf along ${size}`);
    assert(same(wasm.sliceLine(c2, d0, d1), twin.sliceLine(c2, d0, d1)), `slice ${size}`);
    const s = ok(wasm.sliceLine(c2, d0, d1));
    const ts = turf.lineSliceAlong(line, d0, d1, { units: 'meters' }).geometry.coordinates;
    const tsLast = ts[ts.length - 1] ?? [];
    assert(
      metresApart([s[0] as number, s[1] as number], ts[0] ?? []) < 1 &&
        metresApart([s[s.length - 2] as number, s[s.length - 1] as number], tsLast) < 1,
      `turf slice ${size}`,
    );
    assert(same(wasm.simplifyLine(c2, tolM), twin.simplifyLine(c2, tolM)), `simplify ${size}`);
    assert(same(wasm.nearestOnLine(c3, plon, plat, 3), twin.nearestOnLine(c3, plon, plat, 3)), `nearest ${size}`);
    const near = ok(wasm.nearestOnLine(c3, plon, plat, 3));
    const tn = turf.nearestPointOnLine(line, pt, { units: 'meters' }).properties.dist;
    assert(rel(near.distance, tn) < 1e-3, `turf nearest ${size}: ${near.distance} vs ${tn}`);
    assert(same(wasm.sampleDem(grid, c2), twin.sampleDem(grid, c2)), `dem ${size}`);
    assert(same(wasm.lineGain(c3, RECORDED_GAIN), twin.lineGain(c3, RECORDED_GAIN)), `gain ${size}`);
    assert(same(wasm.elevationGain(ele, cum, RECORDED_GAIN), twin.elevationGain(ele, cum, RECORDED_GAIN)), `profile gain ${size}`);

    cases.push(
      // The calls the workers make (workers/line-geometry.ts measureOwn and splitAt, route-engine.ts analyze).
      {
        kernel: 'length',
        runBy: 'measureOwn',
        size,
        wasm: () => wasm.lineLength(c3, 3),
        twin: () => twin.lineLength(c3, 3),
        turf: () => turf.length(line, { units: 'meters' }),
      },
      { kernel: 'cumulative', runBy: 'analyze', size, wasm: () => wasm.cumulativeDistances(c2), twin: () => twin.cumulativeDistances(c2) },
      {
        kernel: 'nearest',
        runBy: 'splitAt',
        size,
        wasm: () => wasm.nearestOnLine(c3, plon, plat, 3),
        twin: () => twin.nearestOnLine(c3, plon, plat, 3),
        turf: () => turf.nearestPointOnLine(line, pt, { units: 'meters' }),
      },
      { kernel: 'dem sample', runBy: 'analyze', size, wasm: () => wasm.sampleDem(grid, c2), twin: () => twin.sampleDem(grid, c2) },
      {
        kernel: 'ascent',
        runBy: 'measureOwn',
        size,
        wasm: () => wasm.lineGain(c3, RECORDED_GAIN),
        twin: () => twin.lineGain(c3, RECORDED_GAIN),
      },
      {
        kernel: 'profile gain',
        runBy: 'analyze',
        size,
        wasm: () => wasm.elevationGain(ele, cum, RECORDED_GAIN),
        twin: () => twin.elevationGain(ele, cum, RECORDED_GAIN),
      },
      // Not called by the product yet.
      {
        kernel: 'along',
        runBy: '-',
        size,
        wasm: () => wasm.along(c2, at),
        twin: () => twin.along(c2, at),
        turf: () => turf.along(line, at, { units: 'meters' }),
      },
      {
        kernel: 'slice',
        runBy: '-',
        size,
        wasm: () => wasm.sliceLine(c2, d0, d1),
        twin: () => twin.sliceLine(c2, d0, d1),
        turf: () => turf.lineSliceAlong(line, d0, d1, { units: 'meters' }),
      },
      {
        kernel: 'simplify 5 m',
        runBy: '-',
        size,
        wasm: () => wasm.simplifyLine(c2, tolM),
        twin: () => twin.simplifyLine(c2, tolM),
        turf: () => turf.simplify(line, { tolerance: tolDeg, highQuality: true }),
      },
    );
  }
  return cases;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

async function p50s(c: Case, round: number): Promise<Record<string, number>> {
  const bench = new Bench({ time: TIME_MS, warmupTime: TIME_MS / 4, iterations: 5 });
  const entries: [string, Run][] = [
    ['wasm', c.wasm],
    ['twin', c.twin],
  ];
  if (c.turf !== undefined) entries.push(['turf', c.turf]);
  for (let i = 0; i < entries.length; i++) {
    const [name, fn] = entries[(i + round) % entries.length] as [string, Run];
    bench.add(name, fn);
  }
  gc();
  await bench.run();
  const out: Record<string, number> = {};
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed') throw new Error(`${c.kernel} ${c.size} ${task.name}: ${r.state}`);
    out[task.name] = r.latency.p50;
  }
  return out;
}

function memory(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

async function main(): Promise<void> {
  wasm.initGeometry('release');
  const memBefore = memory();
  const cases = buildCases().filter((c) => ONLY.length === 0 || ONLY.some((k) => c.kernel.startsWith(k)));
  const samples = cases.map(() => ({
    wasm: [] as number[],
    twin: [] as number[],
    turf: [] as number[],
    rTwin: [] as number[],
    rTurf: [] as number[],
  }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i] as Case;
      const s = samples[i] as (typeof samples)[number];
      const p = await p50s(c, round);
      const w = p['wasm'] as number;
      s.wasm.push(w);
      s.twin.push(p['twin'] as number);
      s.rTwin.push((p['twin'] as number) / w);
      if (p['turf'] !== undefined) {
        s.turf.push(p['turf']);
        s.rTurf.push(p['turf'] / w);
      }
    }
  }
  const memAfter = memory();
  const rows = cases.map((c, i) => {
    const s = samples[i] as (typeof samples)[number];
    return {
      kernel: c.kernel,
      runBy: c.runBy,
      vertices: c.size,
      wasmUs: median(s.wasm) * 1000,
      twinUs: median(s.twin) * 1000,
      turfUs: s.turf.length > 0 ? median(s.turf) * 1000 : null,
      xTwin: median(s.rTwin),
      xTurf: s.rTurf.length > 0 ? median(s.rTurf) : null,
    };
  });
  const fmt = (v: number | null, d = 2): string => (v === null ? '-' : v.toFixed(d));
  console.log(`kernels.bench: ${ROUNDS} round(s) x ${TIME_MS} ms per contender${SMOKE ? ' (smoke)' : ''}; p50 in µs`);
  console.log('kernel         run by       vertices    wasm µs    twin µs    turf µs   x twin   x turf');
  for (const r of rows) {
    console.log(
      `${r.kernel.padEnd(14)} ${r.runBy.padEnd(12)} ${String(r.vertices).padStart(8)} ${fmt(r.wasmUs).padStart(10)} ${fmt(r.twinUs).padStart(10)} ${fmt(r.turfUs).padStart(10)} ${fmt(r.xTwin).padStart(8)} ${fmt(r.xTurf, 1).padStart(8)}`,
    );
  }
  console.log(`memory (heap + external) after GC: ${(memBefore / 1e6).toFixed(1)} MB before, ${(memAfter / 1e6).toFixed(1)} MB after`);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: keep 'unknown'
  }
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL(`./results/kernels${SMOKE ? '.smoke' : ''}.json`, import.meta.url),
    `${JSON.stringify({ date: new Date().toISOString(), commit, node: process.version, cpu: cpus()[0]?.model ?? 'unknown', smoke: SMOKE, rounds: ROUNDS, timeMs: TIME_MS, memory: { before: memBefore, after: memAfter }, rows }, null, 2)}\n`,
  );
}

await main();
