// Plain-TS twins of the routing kernels' simplest parts: brute-force nearest edge and a full-graph
// Dijkstra between edge positions. Slow on purpose; tests compare the WASM kernels against them.
import { edgeTarget, latOf, lonOf, outEdges, type RegionGraph } from '../../data/region/region-graph.js';

const METRES_PER_DEG = 111319.49079327357;

export interface ReferenceSnap {
  edge: number;
  fraction: number;
  distance: number;
}

/** Nearest edge by checking every edge (equirectangular metres at the query latitude). */
export function nearestEdgeReference(g: RegionGraph, source: Uint32Array, lon: number, lat: number, allowed?: (e: number) => boolean): ReferenceSnap | null {
  const kx = Math.cos((lat * Math.PI) / 180) * METRES_PER_DEG;
  let best: ReferenceSnap | null = null;
  for (let e = 0; e < g.edgeCount; e++) {
    if (allowed && !allowed(e)) continue;
    const a = source[e]!;
    const b = edgeTarget(g, e);
    const ax = (lonOf(g, a) - lon) * kx;
    const ay = (latOf(g, a) - lat) * METRES_PER_DEG;
    const ex = (lonOf(g, b) - lon) * kx - ax;
    const ey = (latOf(g, b) - lat) * METRES_PER_DEG - ay;
    const l2 = ex * ex + ey * ey;
    const t = l2 > 0 ? Math.max(0, Math.min(1, -(ax * ex + ay * ey) / l2)) : 0;
    const d = Math.hypot(ax + t * ex, ay + t * ey);
    if (!best || d < best.distance) best = { edge: e, fraction: t, distance: d };
  }
  return best;
}

/** Cheapest cost from every node to every other reachable one from `s` (Infinity elsewhere). */
export function dijkstraReference(g: RegionGraph, cost: Float32Array, s: number, skip?: (e: number) => boolean): Float64Array {
  const dist = new Float64Array(g.nodeCount).fill(Infinity);
  const done = new Uint8Array(g.nodeCount);
  dist[s] = 0;
  for (;;) {
    let v = -1;
    for (let u = 0; u < g.nodeCount; u++) if (!done[u] && dist[u]! < Infinity && (v < 0 || dist[u]! < dist[v]!)) v = u;
    if (v < 0) return dist;
    done[v] = 1;
    for (const e of outEdges(g, v)) {
      if (!(cost[e]! < Infinity) || skip?.(e)) continue;
      const w = edgeTarget(g, e);
      if (dist[v]! + cost[e]! < dist[w]!) dist[w] = dist[v]! + cost[e]!;
    }
  }
}

/**
 * Cost between two positions on edges (fractions from the edge's source), over a full-graph
 * Dijkstra: leave P by either end of its edge, reach Q from either end of its edge, or stay on the edge.
 */
export function positionCostReference(
  g: RegionGraph, source: Uint32Array, cost: Float32Array,
  p: { edge: number; fraction: number }, q: { edge: number; fraction: number }, skip?: (e: number) => boolean,
): number {
  const usable = (e: number): boolean => cost[e]! < Infinity && !skip?.(e);
  const exits: [number, number][] = [];
  if (usable(p.edge) || p.fraction === 1) exits.push([edgeTarget(g, p.edge), (1 - p.fraction) * (p.fraction === 1 ? 0 : cost[p.edge]!)]);
  const tp = p.edge ^ 1;
  if (usable(tp) || p.fraction === 0) exits.push([source[p.edge]!, p.fraction === 0 ? 0 : p.fraction * cost[tp]!]);
  const entries: [number, number][] = [];
  if (usable(q.edge) || q.fraction === 0) entries.push([source[q.edge]!, q.fraction === 0 ? 0 : q.fraction * cost[q.edge]!]);
  const tq = q.edge ^ 1;
  if (usable(tq) || q.fraction === 1) entries.push([edgeTarget(g, q.edge), q.fraction === 1 ? 0 : (1 - q.fraction) * cost[tq]!]);
  let best = Infinity;
  for (const [v, c] of exits) {
    const d = dijkstraReference(g, cost, v, skip);
    for (const [w, c2] of entries) best = Math.min(best, c + d[w]! + c2);
  }
  // Along the same piece of way.
  const qf = q.edge === p.edge ? q.fraction : q.edge === tp ? 1 - q.fraction : NaN;
  if (!Number.isNaN(qf)) {
    if (qf >= p.fraction && (qf === p.fraction || usable(p.edge))) best = Math.min(best, (qf - p.fraction) * cost[p.edge]!);
    if (qf <= p.fraction && (qf === p.fraction || usable(tp))) best = Math.min(best, (p.fraction - qf) * cost[tp]!);
  }
  return best;
}
