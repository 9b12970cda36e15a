// The routing bar of DESIGN §13: a plain JS Dijkstra over the degree-2-contracted CSR graph, with
// the same per-edge costs and hazard bits as Cairn's router and the same two-pass avoid rule.
// Independent of geo-wasm/src/routing.ts on purpose (its own contraction and query code).
import type { RegionGraph } from '../data/region/region-graph.js';
import { MinHeap } from '../geo-wasm/reference/min-heap.js';
import { edgeTarget, outEdges } from '../data/region/region-graph.js';

/** An interior node on a directed chain: cost and hazards before it and hazards after it. */
interface OnChain {
  chain: number;
  pre: number;
  preHaz: number;
  sufHaz: number;
  index: number; // position of the edge ending at the node
}

export class ContractedDijkstra {
  private readonly first: Uint32Array;
  private readonly target: number[] = [];
  private readonly cost: number[] = [];
  private readonly haz: number[] = [];
  private readonly chainEdges: number[][] = [];
  private readonly chainSource: number[] = [];
  private readonly coreId: Int32Array;
  private readonly on = new Map<number, OnChain[]>();
  private readonly dist: Float64Array;
  private readonly hazTo: Int32Array;
  private readonly seen: Uint32Array;
  private stamp = 0;
  /** Hazard bits of the last query's path. */
  lastHaz = 0;

  constructor(
    private readonly g: RegionGraph,
    private readonly edgeCost: Float32Array,
    private readonly edgeHaz: Uint8Array,
  ) {
    const n = g.nodeCount;
    const junction = new Uint8Array(n);
    for (let v = 0; v < n; v++) if (outEdges(g, v).length !== 2) junction[v] = 1;
    const reached = new Uint8Array(n);
    for (let v = 0; v < n; v++) if (junction[v]) for (const e of outEdges(g, v)) this.walk(v, e, junction, (x) => (reached[x] = 1));
    for (let v = 0; v < n; v++) if (!reached[v]) junction[v] = 1; // rings of degree-2 nodes
    this.coreId = new Int32Array(n).fill(-1);
    let nc = 0;
    for (let v = 0; v < n; v++) if (junction[v]) this.coreId[v] = nc++;
    this.first = new Uint32Array(nc + 1);
    for (let v = 0; v < n; v++) {
      if (!junction[v]) continue;
      this.first[this.coreId[v]!] = this.target.length;
      for (const e0 of outEdges(g, v)) {
        const edges: number[] = [];
        const end = this.walk(v, e0, junction, (_w, e) => edges.push(e));
        const id = this.target.length;
        let c = 0;
        let h = 0;
        const suf: number[] = new Array(edges.length + 1).fill(0);
        for (let i = edges.length - 1; i >= 0; i--) suf[i] = suf[i + 1]! | edgeHaz[edges[i]!]!;
        edges.forEach((e, i) => {
          c += edgeCost[e]!;
          h |= edgeHaz[e]!;
          const w = edgeTarget(g, e);
          if (i < edges.length - 1)
            this.on.set(w, [...(this.on.get(w) ?? []), { chain: id, pre: c, preHaz: h, sufHaz: suf[i + 1]!, index: i }]);
        });
        this.target.push(this.coreId[end]!);
        this.cost.push(c);
        this.haz.push(h);
        this.chainEdges.push(edges);
        this.chainSource.push(this.coreId[v]!);
      }
    }
    this.first[nc] = this.target.length;
    this.dist = new Float64Array(nc);
    this.hazTo = new Int32Array(nc);
    this.seen = new Uint32Array(nc);
  }

  /** Follows edges from `e0` through degree-2 nodes to the next junction; returns it. */
  private walk(from: number, e0: number, junction: Uint8Array, visit: (node: number, edge: number) => void): number {
    const g = this.g;
    let prev = from;
    let e = e0;
    for (;;) {
      const w = edgeTarget(g, e);
      visit(w, e);
      if (junction[w]) return w;
      const [f0, f1] = outEdges(g, w) as [number, number];
      e = edgeTarget(g, f0) === prev ? f1 : f0;
      prev = w;
    }
  }

  /** Cost (s) of the cheapest s → t path avoiding `mask` hazards; -1 when none. */
  query(s: number, t: number, mask: number): number {
    this.lastHaz = 0;
    if (s === t) return 0;
    const srcs: [number, number, number][] = []; // core node, cost, hazards on the way
    const tgts: [number, number, number][] = [];
    const cs = this.coreId[s]!;
    const ct = this.coreId[t]!;
    if (cs >= 0) srcs.push([cs, 0, 0]);
    else for (const o of this.on.get(s) ?? []) srcs.push([this.target[o.chain]!, this.cost[o.chain]! - o.pre, o.sufHaz]);
    if (ct >= 0) tgts.push([ct, 0, 0]);
    else for (const o of this.on.get(t) ?? []) tgts.push([this.chainSource[o.chain]!, o.pre, o.preHaz]);
    let best = Infinity;
    let bestHaz = 0;
    if (cs < 0 && ct < 0) {
      // Both inside one chain, t after s: walk it.
      for (const a of this.on.get(s) ?? []) {
        for (const b of this.on.get(t) ?? []) {
          if (a.chain !== b.chain || b.index <= a.index) continue;
          let c = 0;
          let h = 0;
          for (let i = a.index + 1; i <= b.index; i++) {
            const e = this.chainEdges[a.chain]![i]!;
            c += this.edgeCost[e]!;
            h |= this.edgeHaz[e]!;
          }
          if ((h & mask) === 0 && c < best) [best, bestHaz] = [c, h];
        }
      }
    }
    const stamp = ++this.stamp;
    const heap = new MinHeap();
    const relax = (v: number, d: number, h: number): void => {
      if (this.seen[v] !== stamp || d < this.dist[v]!) {
        this.seen[v] = stamp;
        this.dist[v] = d;
        this.hazTo[v] = h;
        heap.push(d, v);
      }
    };
    for (const [v, c, h] of srcs) if ((h & mask) === 0 && c < Infinity) relax(v, c, h);
    const tgtAt = new Map<number, [number, number][]>();
    for (const [v, c, h] of tgts) if ((h & mask) === 0 && c < Infinity) tgtAt.set(v, [...(tgtAt.get(v) ?? []), [c, h]]);
    while (heap.size > 0) {
      const d = heap.peekKey()!;
      if (d >= best) break;
      const v = heap.pop();
      if (d > this.dist[v]!) continue;
      const hzv = this.hazTo[v]!;
      for (const [c, h] of tgtAt.get(v) ?? []) if (d + c < best) [best, bestHaz] = [d + c, hzv | h];
      for (let e = this.first[v]!; e < this.first[v + 1]!; e++) {
        const c = this.cost[e]!;
        if (!(c < Infinity) || (this.haz[e]! & mask) !== 0) continue;
        relax(this.target[e]!, d + c, hzv | this.haz[e]!);
      }
    }
    this.lastHaz = bestHaz;
    return best < Infinity ? best : -1;
  }

  /** The two-pass rule: route without avoidance; only when that crosses a hazard in mask, again with it. */
  route(s: number, t: number, mask: number): number {
    const c = this.query(s, t, 0);
    if (c < 0 || (this.lastHaz & mask) === 0) return c;
    return this.query(s, t, mask);
  }
}
