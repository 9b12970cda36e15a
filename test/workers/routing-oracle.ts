// Test helpers for routing: an independent plain-JS Dijkstra, a seeded PRNG and a continuity check.
import type { Profile } from '../../workers/profiles.js';
import { edgeWeights } from '../../workers/routing-prep.js';
import { edgeTarget, latOf, lonOf, outEdges, type RegionGraph } from '../../data/region/region-graph.js';

/** A profile's cost (s) of every edge, as the oracle reads them. */
export function costsFor(g: RegionGraph, p: Profile): Float32Array {
  const w = edgeWeights(g, p);
  return Float32Array.from({ length: g.edgeCount }, (_, e) => w.cost(e));
}

/** A profile's hazard bits of every edge. */
export function hazardsFor(g: RegionGraph, p: Profile): Uint8Array {
  const w = edgeWeights(g, p);
  return Uint8Array.from({ length: g.edgeCount }, (_, e) => w.hazard(e));
}

/** The project's seeded PRNG, under the name the routing tests use. */
export { seededRandom as seeded } from '../../data/seeded-random.js';

/**
 * Plain Dijkstra over the whole graph with a binary heap (lazy deletion). `skip(e)` removes edges.
 * Returns the cost from s to t (Infinity when unreachable).
 */
export function oracleCost(g: RegionGraph, cost: Float32Array, s: number, t: number, skip?: (e: number) => boolean): number {
  const dist = new Float64Array(g.nodeCount).fill(Infinity);
  const keys: number[] = [];
  const nodes: number[] = [];
  const push = (k: number, v: number): void => {
    let i = keys.length;
    keys.push(k);
    nodes.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= k) break;
      keys[i] = keys[p]!;
      nodes[i] = nodes[p]!;
      i = p;
    }
    keys[i] = k;
    nodes[i] = v;
  };
  const pop = (): [number, number] => {
    const top: [number, number] = [keys[0]!, nodes[0]!];
    const k = keys.pop()!;
    const v = nodes.pop()!;
    if (keys.length > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= keys.length) break;
        if (c + 1 < keys.length && keys[c + 1]! < keys[c]!) c++;
        if (keys[c]! >= k) break;
        keys[i] = keys[c]!;
        nodes[i] = nodes[c]!;
        i = c;
      }
      keys[i] = k;
      nodes[i] = v;
    }
    return top;
  };
  dist[s] = 0;
  push(0, s);
  while (keys.length) {
    const [d, v] = pop();
    if (d > dist[v]!) continue;
    if (v === t) return d;
    for (const e of outEdges(g, v)) {
      const c = cost[e]!;
      if (!(c < Infinity) || skip?.(e)) continue;
      const w = edgeTarget(g, e);
      const nd = d + c;
      if (nd < dist[w]!) {
        dist[w] = nd;
        push(nd, w);
      }
    }
  }
  return Infinity;
}

/** Is (lon, lat) within `tol` metres of the straight edge a–b? */
export function onSegment(g: RegionGraph, a: number, b: number, lon: number, lat: number, tol = 0.05): boolean {
  const kx = Math.cos((lat * Math.PI) / 180) * 111_319.49;
  const ky = 111_319.49;
  const ax = (lonOf(g, a) - lon) * kx;
  const ay = (latOf(g, a) - lat) * ky;
  const bx = (lonOf(g, b) - lon) * kx;
  const by = (latOf(g, b) - lat) * ky;
  const ex = bx - ax;
  const ey = by - ay;
  const l2 = ex * ex + ey * ey;
  const t = l2 > 0 ? Math.max(0, Math.min(1, -(ax * ex + ay * ey) / l2)) : 0;
  return Math.hypot(ax + t * ex, ay + t * ey) <= tol;
}

/**
 * Checks that consecutive coordinates (flat lon,lat,ele) lie on one graph edge each: interior
 * coordinates must be graph nodes joined by an edge, the first and last lie on an edge of their
 * neighbour node. Returns the index of the first broken pair, or -1.
 */
export function firstDiscontinuity(g: RegionGraph, coords: number[]): number {
  const byPos = new Map<string, number[]>();
  for (let v = 0; v < g.nodeCount; v++) {
    const k = `${lonOf(g, v)},${latOf(g, v)}`;
    const list = byPos.get(k);
    if (list) list.push(v);
    else byPos.set(k, [v]);
  }
  const n = coords.length / 3;
  const nodesAt = (i: number): number[] => byPos.get(`${coords[i * 3]},${coords[i * 3 + 1]}`) ?? [];
  const joined = (a: number, b: number): boolean => {
    for (const e of outEdges(g, a)) if (edgeTarget(g, e) === b) return true;
    return false;
  };
  for (let i = 0; i + 1 < n; i++) {
    const A = nodesAt(i);
    const B = nodesAt(i + 1);
    let ok = false;
    if (A.length && B.length) ok = A.some((a) => B.some((b) => joined(a, b)));
    else if (A.length || B.length) {
      // One end is a snapped point inside an edge: it must lie on an edge of the node.
      const [nodes, j] = A.length ? [A, i + 1] : [B, i];
      ok = nodes.some((a) => {
        for (const e of outEdges(g, a)) if (onSegment(g, a, edgeTarget(g, e), coords[j * 3]!, coords[j * 3 + 1]!)) return true;
        return false;
      });
    } else ok = n === 2; // a route inside one edge
    if (!ok) return i;
  }
  return -1;
}
