import { describe, expect, it } from 'vitest';
import { junctionGraph } from '../../data/region/junction-graph.js';
import {
  AccessClass,
  edgeSources,
  edgeTarget,
  HighwayClass,
  latOf,
  lonOf,
  outEdges,
  type RegionGraph,
  toFixedCoord,
  wayOf,
} from '../../data/region/region-graph.js';
import { nearestEdgeReference, positionCostReference } from '../../geo-wasm/reference/routing.js';
import { RoutingKernel } from '../../geo-wasm/src/routing.js';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { Chains } from '../../geo-wasm/src/routing-core.js';
import { arrayWeights, prepareCore } from '../../geo-wasm/src/routing-prepare.js';
import { seeded } from '../workers/routing-oracle.js';

/**
 * A synthetic network: a w×h grid of junctions with degree-2 nodes inserted on some links, a ring
 * of degree-2 nodes with no junction, a doubled edge, an isolated island and random costs.
 */
function syntheticGraph(seed: number): { g: RegionGraph; cost: Float32Array; hazard: Uint8Array } {
  const rnd = seeded(seed);
  const lon: number[] = [];
  const lat: number[] = [];
  const links: [number, number][] = [];
  const node = (x: number, y: number): number => {
    lon.push(9.5 + x * 0.001);
    lat.push(47.1 + y * 0.001);
    return lon.length - 1;
  };
  const W = 8;
  const H = 6;
  const grid: number[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) grid.push(node(x, y));
  const link = (a: number, b: number, inner: number): void => {
    let prev = a;
    for (let i = 1; i <= inner; i++) {
      const f = i / (inner + 1);
      const v = node(
        (lon[a]! + (lon[b]! - lon[a]!) * f - 9.5) / 0.001 + (rnd() - 0.5) * 0.2,
        (lat[a]! + (lat[b]! - lat[a]!) * f - 47.1) / 0.001,
      );
      links.push([prev, v]);
      prev = v;
    }
    links.push([prev, b]);
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (x + 1 < W && rnd() < 0.85) link(grid[y * W + x]!, grid[y * W + x + 1]!, Math.floor(rnd() * 4));
      if (y + 1 < H && rnd() < 0.85) link(grid[y * W + x]!, grid[(y + 1) * W + x]!, Math.floor(rnd() * 4));
    }
  }
  links.push([grid[0]!, grid[1]!]); // doubled piece (two ways sharing two nodes)
  const ring = [node(20, 20), node(21, 20), node(21, 21), node(20, 21)];
  for (let i = 0; i < 4; i++) links.push([ring[i]!, ring[(i + 1) % 4]!]);
  const island = [node(30, 0), node(31, 0)];
  links.push([island[0]!, island[1]!]);
  const n = lon.length;
  const pieces = {
    nodeCount: n,
    nodeLonE7: Int32Array.from(lon, toFixedCoord),
    nodeLatE7: Int32Array.from(lat, toFixedCoord),
    nodeEle: new Float32Array(n),
    pieceA: Uint32Array.from(links, ([a]) => a),
    pieceB: Uint32Array.from(links, ([, b]) => b),
    pieceWay: Uint32Array.from(links, (_, way) => way),
  };
  const ways = {
    wayOsmId: Float64Array.from(links.map((_, i) => 1000 + i)),
    wayHighway: new Uint8Array(links.length).fill(HighwayClass.Path),
    waySurface: new Uint8Array(links.length),
    waySac: new Uint8Array(links.length),
    wayFlags: new Uint8Array(links.length),
    wayAccess: new Uint16Array(links.length).fill(AccessClass.Yes),
    wayName: links.map(() => ''),
    surfaces: [''],
  };
  const g = junctionGraph(pieces, ways, [Math.min(...lon), Math.min(...lat), Math.max(...lon), Math.max(...lat)]);
  const m = g.edgeCount;
  const cost = new Float32Array(m);
  const hazard = new Uint8Array(m);
  for (let e = 0; e < m; e++) {
    cost[e] = rnd() < 0.05 ? Infinity : 10 + rnd() * 90; // a few one-way pieces
    hazard[e] = rnd() < 0.08 ? 1 : rnd() < 0.05 ? 2 : 0;
  }
  return { g, cost, hazard };
}

describe('routing kernels on synthetic graphs', () => {
  for (const [seed, hierarchy] of [
    [1, true],
    [2, true],
    [3, true],
    [1, false],
    [2, false],
    [3, false],
  ] as const) {
    const search = hierarchy ? 'contraction hierarchy' : 'A* with landmarks';
    it(`costs between random edge positions equal the reference (${search}, seed ${seed}, with and without a mask)`, () => {
      const { g, cost, hazard } = syntheticGraph(seed);
      const k = RoutingKernel.create(g, { build: 'debug', landmarks: 4, hierarchy });
      k.addProfile(0, arrayWeights(cost, hazard));
      const rnd = seeded(seed * 100);
      for (let i = 0; i < 60; i++) {
        const p = { edge: Math.floor(rnd() * g.edgeCount), fraction: rnd() < 0.2 ? Math.round(rnd()) : rnd() };
        const q = { edge: Math.floor(rnd() * g.edgeCount), fraction: rnd() < 0.2 ? Math.round(rnd()) : rnd() };
        for (const mask of [0, 3]) {
          const skip = (e: number): boolean => (hazard[e]! & mask) !== 0;
          const want = positionCostReference(g, edgeSources(g), cost, p, q, skip);
          const got = k.route(p, q, 0, mask);
          if (want === Infinity) expect(got, `${JSON.stringify([p, q, mask])}`).toBeNull();
          else {
            expect(got, `${JSON.stringify([p, q, mask])}`).not.toBeNull();
            expect(Math.abs(got!.cost - want)).toBeLessThanOrEqual(1e-3 * want + 1e-6);
            // The path is connected: each edge starts where the previous one ended.
            for (let j = 1; j < got!.edges.length; j++) expect(k.sourceOf(got!.edges[j]!)).toBe(edgeTarget(g, got!.edges[j - 1]!));
          }
        }
      }
    });
  }

  it('snaps to the same edge distance as a brute-force search', () => {
    const { g, cost, hazard } = syntheticGraph(4);
    const k = RoutingKernel.create(g, { build: 'debug', landmarks: 0, cellDeg: 0.0007 });
    k.addProfile(0, arrayWeights(cost, hazard));
    const rnd = seeded(5);
    for (let i = 0; i < 300; i++) {
      const lon = 9.499 + rnd() * 0.04;
      const lat = 47.099 + rnd() * 0.025;
      const want = nearestEdgeReference(g, edgeSources(g), lon, lat);
      const got = k.snap(lon, lat, 1e6);
      expect(got).not.toBeNull();
      expect(got!.distance).toBeCloseTo(want!.distance, 6);
    }
    expect(k.snap(9.5, 47.1, 0.001)?.distance ?? 0).toBeLessThan(0.001);
    expect(k.snap(12, 47.1, 500)).toBeNull();
  });

  it('matches a line drawn along edges to those edges, oriented along the line', () => {
    const { g, cost, hazard } = syntheticGraph(6);
    const k = RoutingKernel.create(g, { build: 'debug', landmarks: 0 });
    k.addProfile(0, arrayWeights(cost, hazard));
    const path = k.route({ edge: 0, fraction: 0 }, { edge: g.edgeCount - 12, fraction: 1 }, 0);
    expect(path).not.toBeNull();
    const coords: number[] = [];
    for (const e of path!.edges) coords.push(lonOf(g, k.sourceOf(e)), latOf(g, k.sourceOf(e)));
    const last = path!.edges[path!.edges.length - 1]!;
    coords.push(lonOf(g, edgeTarget(g, last)), latOf(g, edgeTarget(g, last)));
    const matched = k.matchLine(Float64Array.from(coords), 5);
    expect(matched.length).toBe(path!.edges.length);
    matched.forEach((e, i) => {
      const want = path!.edges[i]!;
      expect(e === want || (wayOf(g, e) !== wayOf(g, want) && k.sourceOf(e) === k.sourceOf(want))).toBe(true);
    });
  });

  it('reachable nodes come with their exact times within the budget', () => {
    const { g, cost, hazard } = syntheticGraph(7);
    const k = RoutingKernel.create(g, { build: 'debug', landmarks: 0 });
    k.addProfile(0, arrayWeights(cost, hazard));
    const start = { edge: 5, fraction: 0 };
    const { nodes, times } = k.reachable(start, 0, 400);
    expect(nodes.length).toBeGreaterThan(1);
    nodes.forEach((v, i) => {
      const want = positionCostReference(g, edgeSources(g), cost, start, { edge: outEdges(g, v)[0]!, fraction: 0 });
      expect(times[i]!).toBeLessThanOrEqual(400);
      expect(Math.abs(times[i]! - want)).toBeLessThanOrEqual(1e-3);
      if (i > 0) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
    });
    // Every node within the budget is listed (the ones inside chains too), each once.
    const listed = new Set(nodes);
    expect(listed.size).toBe(nodes.length);
    for (let v = 0; v < g.nodeCount; v++) {
      const want = positionCostReference(g, edgeSources(g), cost, start, { edge: outEdges(g, v)[0]!, fraction: 0 });
      if (want < 399.99) expect(listed.has(v), `node ${v} at ${want} s`).toBe(true);
    }
  });
});

describe('chains read off the junction graph', () => {
  const graphs: [string, RegionGraph][] = [
    ...[1, 2, 3].map((seed): [string, RegionGraph] => [`synthetic ${seed}`, syntheticGraph(seed).g]),
    ['the demo region', buildDemoRegion().graph],
  ];
  for (const [name, g] of graphs) {
    it(`finds every edge's chain and place, and every chain's edges end to end (${name})`, () => {
      const core = prepareCore(g, 0.0025);
      const chains = new Chains(g, core);
      const source = edgeSources(g);
      for (let e = 0; e < g.edgeCount; e++) {
        expect(chains.sourceOf(e)).toBe(source[e]);
        const { chain, index } = chains.locate(e);
        expect(chains.edges(chain)[index]).toBe(e);
      }
      let total = 0;
      for (let c = 0; c < core.target.length; c++) {
        const edges = chains.edges(c);
        total += edges.length;
        expect(source[edges[0]!]).toBe(core.source[c]);
        expect(edgeTarget(g, edges[edges.length - 1]!)).toBe(core.target[c]);
        for (let i = 1; i < edges.length; i++) expect(source[edges[i]!]).toBe(edgeTarget(g, edges[i - 1]!));
        expect(chains.locate(edges[0]!)).toEqual({ chain: c, index: 0 });
        expect(chains.firstEdge(c)).toBe(edges[0]);
      }
      expect(total).toBe(g.edgeCount);
    });
  }
});
