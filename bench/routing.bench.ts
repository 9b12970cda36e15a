// Question: how fast is Cairn's WASM router on a real network, against the bar of DESIGN §13?
// Dataset: Liechtenstein (../shared/data/liechtenstein-latest.osm.pbf), imported once into a temp
//   folder with the region importer and loaded from it, as a server would.
// Method: 1,000 fixed-seed origin/destination node pairs (pairs in different components included),
//   activity HIKING_AND_TRAIL with avoid = TOLLWAY + RESTRICTED_ACCESS (the two-pass rule: route,
//   and only when that crosses an avoided hazard, route again with the mask). Before any timing,
//   every answer is checked against an exact plain Dijkstra on the full graph (same costs, same
//   rule): 0 pairs may be off by more than 0.1%. Peers in the same run: a plain JS Dijkstra over
//   the degree-2-contracted graph (bench/contracted-dijkstra.ts, same rule: the bar) and
//   geojson-path-finder (speed peer only, one pass on masked weights; its mismatches are counted).
//   Rounds are interleaved (each round runs every router over all pairs); per pair the median over
//   rounds is kept, then p50/p99 over pairs. Reachable areas: 100 centres, 30 min walking budget
//   (median of the rounds per centre, after a warm-up).
// Read: ratios are what matter (2 shared noisy cores); `p50x` = peer p50 / Cairn p50.
// Run: node --expose-gc --import tsx bench/routing.bench.ts   (BENCH_SMOKE=1 for a quick run)
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import { createRequire } from 'node:module';
import { importRegion } from '../data/region/import-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import { MinHeap } from '../geo-wasm/reference/min-heap.js';
import type { RegionGraph } from '../data/region/region-graph.js';
import { Activity } from '../contracts/activity.js';
import { Hazard } from '../workers/profiles.js';
import { RouteEngine } from '../workers/route-engine.js';
import { ContractedDijkstra } from './contracted-dijkstra.js';
import { seededRandom } from '../data/seeded-random.js';
import { edgeTarget, latOf, lonOf, outEdges } from '../data/region/region-graph.js';

// geojson-path-finder ships CJS with ESM-only types; load the CJS build and type what is used.
interface GpfPath {
  weight: number;
}
type GpfWeight = (a: number[], b: number[], p: { f: number; b: number }) => { forward: number; backward: number };
type GpfCtor = new (
  network: FeatureCollection<LineString, { f: number; b: number }>,
  opts: { tolerance: number; weight: GpfWeight },
) => {
  findPath(a: Feature<Point>, b: Feature<Point>): GpfPath | undefined;
};
const PathFinder = (createRequire(import.meta.url)('geojson-path-finder') as { default: GpfCtor }).default;

const SMOKE = process.env['BENCH_SMOKE'] === '1';
const PAIRS = SMOKE ? 50 : 1000;
const ROUNDS = SMOKE ? 1 : 3;
const CENTRES = SMOKE ? 10 : 100;
const ACTIVITY = Activity.HIKING_AND_TRAIL;
const MASK = Hazard.Toll | Hazard.Restricted;
const here = new URL('.', import.meta.url).pathname;
const OSM = join(here, '..', '..', 'shared', 'data', 'liechtenstein-latest.osm.pbf');

/** Exact reference: Dijkstra on the full graph; returns cost and the hazard bits of its path. */
function oracle(g: RegionGraph, cost: Float32Array, haz: Uint8Array, s: number, t: number, mask: number): [number, number] {
  const dist = new Float64Array(g.nodeCount).fill(Infinity);
  const hz = new Uint8Array(g.nodeCount);
  const heap = new MinHeap();
  heap.push(0, s);
  dist[s] = 0;
  while (heap.size > 0) {
    const d = heap.peekKey()!;
    const v = heap.pop();
    if (d > dist[v]!) continue;
    if (v === t) return [d, hz[v]!];
    for (const e of outEdges(g, v)) {
      const c = cost[e]!;
      if (!(c < Infinity) || (haz[e]! & mask) !== 0) continue;
      const w = edgeTarget(g, e);
      const nd = d + c;
      if (nd < dist[w]!) {
        dist[w] = nd;
        hz[w] = hz[v]! | haz[e]!;
        heap.push(nd, w);
      }
    }
  }
  return [-1, 0];
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const same = (a: number, b: number): boolean => (a < 0 && b < 0) || (a >= 0 && b >= 0 && Math.abs(a - b) <= 1e-3 * Math.max(b, 1e-9));

async function main(): Promise<void> {
  if (!existsSync(OSM)) {
    console.log(`routing bench skipped: ${OSM} is absent`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-li-'));
  try {
    let t0 = performance.now();
    await importRegion({ osm: OSM, out: dir });
    const importMs = performance.now() - t0;
    t0 = performance.now();
    const region = loadRegion(dir);
    const loadMs = performance.now() - t0;
    const g = region.graph;
    t0 = performance.now();
    const engine = new RouteEngine(g, region.dem, { kernel: { build: 'release' } });
    const kernelMs = performance.now() - t0;
    t0 = performance.now();
    const { weights } = engine.prepare(ACTIVITY);
    const cost = Float32Array.from({ length: g.edgeCount }, (_, e) => weights.cost(e));
    const hazard = Uint8Array.from({ length: g.edgeCount }, (_, e) => weights.hazard(e));
    const profileMs = performance.now() - t0;
    const stats = engine.kernel.stats;

    const rnd = seededRandom(20150727);
    const pairs = Array.from({ length: PAIRS }, () => [Math.floor(rnd() * g.nodeCount), Math.floor(rnd() * g.nodeCount)] as const);

    // Peers.
    t0 = performance.now();
    const contracted = new ContractedDijkstra(g, cost, hazard);
    const contractedBuildMs = performance.now() - t0;
    t0 = performance.now();
    const features: Feature<LineString, { f: number; b: number }>[] = [];
    const masked = (e: number): number => ((hazard[e]! & MASK) !== 0 || !(cost[e]! < Infinity) ? 0 : cost[e]!);
    for (let e = 0; e < g.edgeCount; e++) {
      if (e & 1) continue; // one feature per piece
      const a = engine.kernel.sourceOf(e);
      const b = edgeTarget(g, e);
      features.push({
        type: 'Feature',
        properties: { f: masked(e), b: masked(e ^ 1) },
        geometry: {
          type: 'LineString',
          coordinates: [
            [lonOf(g, a), latOf(g, a)],
            [lonOf(g, b), latOf(g, b)],
          ],
        },
      });
    }
    const network: FeatureCollection<LineString, { f: number; b: number }> = { type: 'FeatureCollection', features };
    const gpf = new PathFinder(network, { tolerance: 1e-9, weight: (_a, _b, p) => ({ forward: p.f, backward: p.b }) });
    const gpfBuildMs = performance.now() - t0;
    const point = (v: number): Feature<Point> => ({
      type: 'Feature',
      properties: {},
      geometry: { type: 'Point', coordinates: [lonOf(g, v), latOf(g, v)] },
    });

    // Outputs checked before timing.
    t0 = performance.now();
    let off = 0;
    let offContracted = 0;
    let gpfMismatch = 0;
    let unreachable = 0;
    let secondPass = 0;
    for (const [s, t] of pairs) {
      const [c0, h0] = oracle(g, cost, hazard, s, t, 0);
      let want = c0;
      if (c0 >= 0 && (h0 & MASK) !== 0) {
        secondPass++;
        want = oracle(g, cost, hazard, s, t, MASK)[0];
      }
      const wantMasked = oracle(g, cost, hazard, s, t, MASK)[0];
      if (want < 0) unreachable++;
      const got = engine.routeNodes(s, t, ACTIVITY, MASK)?.cost ?? -1;
      if (!same(got, want)) off++;
      if (!same(contracted.route(s, t, MASK), want)) offContracted++;
      const p = gpf.findPath(point(s), point(t));
      const gw = s === t ? 0 : p ? p.weight : -1;
      if (!same(gw, wantMasked)) gpfMismatch++;
    }
    const checkMs = performance.now() - t0;
    console.log(
      `checked ${PAIRS} pairs in ${(checkMs / 1000).toFixed(1)} s: cairn off ${off}, contracted off ${offContracted}, geojson-path-finder mismatches ${gpfMismatch}; unreachable ${unreachable}, second pass ${secondPass}`,
    );

    // Timing: interleaved rounds.
    const routers: Record<string, (s: number, t: number) => unknown> = {
      cairn: (s, t) => engine.routeNodes(s, t, ACTIVITY, MASK),
      contracted: (s, t) => contracted.route(s, t, MASK),
      'geojson-path-finder': (s, t) => gpf.findPath(point(s), point(t)),
    };
    const times: Record<string, number[][]> = {};
    for (const name of Object.keys(routers)) times[name] = pairs.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of Object.entries(routers)) {
        for (let i = 0; i < 50; i++) run(pairs[i % pairs.length]![0], pairs[i % pairs.length]![1]); // warm-up
        (globalThis as { gc?: () => void }).gc?.();
        pairs.forEach(([s, t], i) => {
          const a = performance.now();
          run(s, t);
          times[name]![i]!.push(performance.now() - a);
        });
      }
    }
    const summary: Record<string, { p50: number; p99: number; mean: number }> = {};
    for (const [name, perPair] of Object.entries(times)) {
      const m = perPair.map(median).sort((a, b) => a - b);
      summary[name] = { p50: pct(m, 0.5), p99: pct(m, 0.99), mean: m.reduce((x, y) => x + y, 0) / m.length };
    }

    // Reachable areas.
    const walkBudget = 1800;
    engine.prepare(Activity.WALKING); // profile set-up is not part of the query time
    const reach: number[] = [];
    let reached = 0;
    const crnd = seededRandom(99);
    const centres = Array.from({ length: CENTRES }, () => Math.floor(crnd() * g.nodeCount));
    const area = (v: number) => engine.reachable({ activity: Activity.WALKING, center: [lonOf(g, v), latOf(g, v)], budget: walkBudget });
    for (const v of centres.slice(0, 10)) area(v); // warm-up (JIT, scratch memory for the full graph)
    for (const v of centres) {
      const runs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const a = performance.now();
        const out = area(v);
        runs.push(performance.now() - a);
        if (r === 0 && out.ok) reached += out.points.length / 3;
      }
      reach.push(median(runs));
    }
    reach.sort((a, b) => a - b);
    const mem = process.memoryUsage();
    const c = summary['cairn']!;
    const k = summary['contracted']!;
    const p = summary['geojson-path-finder']!;
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      smoke: SMOKE,
      dataset: 'liechtenstein-latest.osm.pbf',
      graph: { nodes: g.nodeCount, edges: g.edgeCount, coreNodes: stats.coreNodes, coreEdges: stats.coreEdges },
      setupMs: {
        import: importMs,
        load: loadMs,
        kernel: kernelMs,
        kernelParts: { contract: stats.contractMs, grid: stats.gridMs },
        profilePrepare: profileMs,
        hierarchyMs: stats.hierarchyMs,
        shortcuts: stats.shortcuts,
        contractedPeer: contractedBuildMs,
        geojsonPathFinder: gpfBuildMs,
      },
      pairs: PAIRS,
      rounds: ROUNDS,
      check: { cairnOff: off, contractedOff: offContracted, geojsonPathFinderMismatches: gpfMismatch, unreachable, secondPass },
      routeMs: summary,
      ratios: {
        contractedOverCairnP50: k.p50 / c.p50,
        contractedOverCairnP99: k.p99 / c.p99,
        geojsonPathFinderOverCairnP50: p.p50 / c.p50,
        geojsonPathFinderOverCairnP99: p.p99 / c.p99,
      },
      reachable: { centres: CENTRES, budgetS: walkBudget, p50Ms: pct(reach, 0.5), p99Ms: pct(reach, 0.99), meanNodes: reached / CENTRES },
      memory: {
        heapUsedMB: mem.heapUsed / 2 ** 20,
        externalMB: mem.external / 2 ** 20,
        arrayBuffersMB: mem.arrayBuffers / 2 ** 20,
        wasmMB: stats.wasmBytes / 2 ** 20,
      },
    };
    console.table(
      Object.fromEntries(
        Object.entries(summary).map(([n, s]) => [n, { p50ms: +s.p50.toFixed(4), p99ms: +s.p99.toFixed(4), meanms: +s.mean.toFixed(4) }]),
      ),
    );
    console.log(
      JSON.stringify({ ratios: result.ratios, reachable: result.reachable, setupMs: result.setupMs, graph: result.graph }, null, 1),
    );
    const outDir = join(here, 'results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, SMOKE ? 'routing.smoke.json' : 'routing.json'), `${JSON.stringify(result, null, 2)}\n`);
    if (off > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
