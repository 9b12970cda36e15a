// The core graph of the routing kernels: reverse edges, degree-2 chain contraction and connected
// components, computed on the host (plain arrays, used in place or copied into WASM by routing.ts), and
// `Chains`, which finds a chain's original edges and an edge's chain by walking the graph instead of
// storing a table per original edge.
import type { RegionGraph } from '../../data/region/region-graph.js';
import { latOf, lonOf, wayOf } from '../../data/region/region-graph.js';

/**
 * For each directed edge, the edge between the same nodes in the other direction (of the same way when possible),
 * paired: twin[twin[e]] = e, which walking a chain backwards relies on (Chains.locate). A self loop is its own.
 */
export function computeTwins(g: RegionGraph, source: Uint32Array): Uint32Array {
  const twin = new Uint32Array(g.edgeCount);
  const paired = new Uint8Array(g.edgeCount);
  for (let e = 0; e < g.edgeCount; e++) {
    if (paired[e]) continue;
    const a = source[e]!;
    const b = g.edgeTarget[e]!;
    let found = -1;
    if (a === b) found = e;
    else {
      for (let f = g.firstEdge[b]!; f < g.firstEdge[b + 1]!; f++) {
        if (g.edgeTarget[f] !== a || paired[f]) continue;
        if (wayOf(g, f) === wayOf(g, e)) {
          found = f;
          break;
        }
        if (found < 0) found = f;
      }
    }
    if (found < 0) throw new TypeError(`region graph edge ${e} has no reverse edge`);
    twin[e] = found;
    twin[found] = e;
    paired[e] = 1;
    paired[found] = 1;
  }
  return twin;
}

/** The graph with its degree-2 chains contracted: junctions joined by chains of original edges. */
export interface CoreGraph {
  /** Original node → core node (-1 inside a chain). */
  coreOf: Int32Array;
  /** Core node → original node. */
  coreNode: Uint32Array;
  /** Core CSR: first edge of each core node (length coreNodes + 1), targets, sources, reverse chains. */
  first: Uint32Array;
  target: Uint32Array;
  source: Uint32Array;
  twin: Uint32Array;
  /** Core edge → first index in chainEdges (length coreEdges + 1). */
  chainStart: Uint32Array;
  /** Original edges of each chain, in order. */
  chainEdges: Uint32Array;
  /** Original edge → core edge, and its index within that chain. */
  chainOf: Uint32Array;
  posInChain: Uint32Array;
}

/** Contracts runs of degree-2 nodes into chains between junctions (degree ≠ 2). */
export function contractChains(g: RegionGraph, twin: Uint32Array): CoreGraph {
  const n = g.nodeCount;
  const m = g.edgeCount;
  const junction = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (g.firstEdge[v + 1]! - g.firstEdge[v]! !== 2) junction[v] = 1;
  const nextOf = (prevEdge: number): number => {
    const v = g.edgeTarget[prevEdge]!;
    const back = twin[prevEdge]!;
    const f0 = g.firstEdge[v]!;
    return f0 === back ? f0 + 1 : f0;
  };
  // Mark edges reached from junctions; cycles of degree-2 nodes get one junction each.
  const seen = new Uint8Array(m);
  const walkMark = (e0: number): void => {
    let e = e0;
    while (true) {
      seen[e] = 1;
      const v = g.edgeTarget[e]!;
      if (junction[v]) return;
      e = nextOf(e);
    }
  };
  for (let v = 0; v < n; v++) if (junction[v]) for (let e = g.firstEdge[v]!; e < g.firstEdge[v + 1]!; e++) walkMark(e);
  for (let e = 0; e < m; e++) {
    if (seen[e]) continue;
    const v = g.edgeTarget[twin[e]!]!; // source of e
    junction[v] = 1;
    for (let f = g.firstEdge[v]!; f < g.firstEdge[v + 1]!; f++) walkMark(f);
  }
  const coreOf = new Int32Array(n).fill(-1);
  const nodes: number[] = [];
  for (let v = 0; v < n; v++) if (junction[v] && g.firstEdge[v + 1]! > g.firstEdge[v]!) coreOf[v] = nodes.push(v) - 1;
  const coreNode = Uint32Array.from(nodes);
  const nc = coreNode.length;
  const first = new Uint32Array(nc + 1);
  const target: number[] = [];
  const source: number[] = [];
  const chainStart: number[] = [0];
  const chainEdges = new Uint32Array(m);
  const chainOf = new Uint32Array(m);
  const posInChain = new Uint32Array(m);
  let ce = 0;
  for (let c = 0; c < nc; c++) {
    const v = coreNode[c]!;
    first[c] = target.length;
    for (let e0 = g.firstEdge[v]!; e0 < g.firstEdge[v + 1]!; e0++) {
      const id = target.length;
      let e = e0;
      let k = 0;
      while (true) {
        chainEdges[ce++] = e;
        chainOf[e] = id;
        posInChain[e] = k++;
        const w = g.edgeTarget[e]!;
        if (junction[w]) {
          target.push(coreOf[w]!);
          break;
        }
        e = nextOf(e);
      }
      source.push(c);
      chainStart.push(ce);
    }
  }
  first[nc] = target.length;
  const mc = target.length;
  const coreTwin = new Uint32Array(mc);
  for (let c = 0; c < mc; c++) coreTwin[c] = chainOf[twin[chainEdges[chainStart[c + 1]! - 1]!]!]!;
  return {
    coreOf,
    coreNode,
    first,
    target: Uint32Array.from(target),
    source: Uint32Array.from(source),
    twin: coreTwin,
    chainStart: Uint32Array.from(chainStart),
    chainEdges,
    chainOf,
    posInChain,
  };
}

/** Connected components (undirected, over edges allowed in some direction) of a CSR graph. */
export function components(first: Uint32Array, target: Uint32Array, twin: Uint32Array, cost: Float32Array): Int32Array {
  const n = first.length - 1;
  const comp = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  let id = 0;
  for (let s = 0; s < n; s++) {
    if (comp[s] !== -1) continue;
    comp[s] = id;
    stack.push(s);
    while (stack.length) {
      const v = stack.pop()!;
      for (let e = first[v]!; e < first[v + 1]!; e++) {
        if (!(cost[e]! < Infinity) && !(cost[twin[e]!]! < Infinity)) continue;
        const t = target[e]!;
        if (comp[t] === -1) {
          comp[t] = id;
          stack.push(t);
        }
      }
    }
    id++;
  }
  return comp;
}

/** What walking chains reads: the graph's CSR and reverse edges, and the core graph's nodes, CSR and chain lengths. */
export interface ChainTables {
  /** The same piece in the other direction, per original edge. */
  edgeTwin: Uint32Array;
  /** Core node → original node, ascending. */
  coreNode: Uint32Array;
  first: Uint32Array;
  source: Uint32Array;
  /** Core edge c's chain has chainStart[c + 1] - chainStart[c] original edges. */
  chainStart: Uint32Array;
}

/**
 * Chains of original edges between junctions, found by walking: inside a chain every node has exactly two edges,
 * so a chain's next edge is the other edge of the node it reaches, and its previous one the reverse of the other
 * edge of the node it leaves. A chain's first edge is its junction's out-edge in core-edge order (contractChains
 * makes a node's core edges in the order of its original out-edges). No table per original edge is kept.
 */
export class Chains {
  /** Bit v: original node v is a junction (a core node). */
  private readonly junction: Uint32Array;

  constructor(
    private readonly graph: Pick<RegionGraph, 'nodeCount' | 'firstEdge' | 'edgeTarget'>,
    private readonly t: ChainTables,
  ) {
    this.junction = new Uint32Array((graph.nodeCount + 31) >>> 5);
    for (const v of t.coreNode) this.junction[v >>> 5]! |= 1 << (v & 31);
  }

  /** Source node of original edge e. */
  sourceOf(e: number): number {
    return this.graph.edgeTarget[this.t.edgeTwin[e]!]!;
  }

  isJunction(v: number): boolean {
    return (this.junction[v >>> 5]! & (1 << (v & 31))) !== 0;
  }

  /** The core node of junction v (binary search in coreNode). */
  coreOf(v: number): number {
    const nodes = this.t.coreNode;
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nodes[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Number of original edges of chain c. */
  length(c: number): number {
    return this.t.chainStart[c + 1]! - this.t.chainStart[c]!;
  }

  /** The original edges of chain c, in order. */
  edges(c: number): Uint32Array {
    const out = new Uint32Array(this.length(c));
    const s = this.t.source[c]!;
    let e = this.graph.firstEdge[this.t.coreNode[s]!]! + (c - this.t.first[s]!);
    out[0] = e;
    for (let i = 1; i < out.length; i++) {
      const v = this.graph.edgeTarget[e]!;
      const f0 = this.graph.firstEdge[v]!;
      e = f0 === this.t.edgeTwin[e] ? f0 + 1 : f0;
      out[i] = e;
    }
    return out;
  }

  /** The chain original edge e lies on, and its index there. */
  locate(e: number): { chain: number; index: number } {
    let x = e;
    let index = 0;
    let v = this.sourceOf(x);
    while (!this.isJunction(v)) {
      const f0 = this.graph.firstEdge[v]!;
      x = this.t.edgeTwin[f0 === x ? f0 + 1 : f0]!;
      v = this.sourceOf(x);
      index++;
    }
    return { chain: this.chainFrom(x), index };
  }

  /** The chain of an edge that leaves a junction (its first edge). */
  chainFrom(e: number): number {
    const v = this.sourceOf(e);
    const c = this.coreOf(v);
    return this.t.first[c]! + (e - this.graph.firstEdge[v]!);
  }
}

/** Uniform lon/lat grid of undirected pieces (one edge id per twin pair), CSR by cell, row-major from the south-west. */
export interface SnapGrid {
  w: number;
  h: number;
  west: number;
  south: number;
  cellDeg: number;
  cellStart: Uint32Array;
  cellItems: Uint32Array;
}

/** Builds the snapping grid: each piece is listed in every cell its bounding box touches. */
export function buildSnapGrid(g: RegionGraph, twin: Uint32Array, cellDeg: number): SnapGrid {
  const [west0, south0, east, north] = g.bbox;
  const west = west0 - cellDeg;
  const south = south0 - cellDeg;
  const w = Math.max(1, Math.ceil((east - west) / cellDeg) + 2);
  const h = Math.max(1, Math.ceil((north - south) / cellDeg) + 2);
  const counts = new Uint32Array(w * h + 1);
  const visit = (e: number, fn: (c: number) => void): void => {
    const a = g.edgeTarget[twin[e]!]!;
    const b = g.edgeTarget[e]!;
    const x0 = Math.floor((Math.min(lonOf(g, a), lonOf(g, b)) - west) / cellDeg);
    const x1 = Math.floor((Math.max(lonOf(g, a), lonOf(g, b)) - west) / cellDeg);
    const y0 = Math.floor((Math.min(latOf(g, a), latOf(g, b)) - south) / cellDeg);
    const y1 = Math.floor((Math.max(latOf(g, a), latOf(g, b)) - south) / cellDeg);
    for (let y = Math.max(0, y0); y <= Math.min(h - 1, y1); y++) for (let x = Math.max(0, x0); x <= Math.min(w - 1, x1); x++) fn(y * w + x);
  };
  const listed = (e: number): boolean => e <= twin[e]!;
  for (let e = 0; e < g.edgeCount; e++) if (listed(e)) visit(e, (c) => counts[c + 1]!++);
  for (let c = 0; c < w * h; c++) counts[c + 1]! += counts[c]!;
  const items = new Uint32Array(counts[w * h]!);
  const fill = counts.slice(0, w * h);
  for (let e = 0; e < g.edgeCount; e++) if (listed(e)) visit(e, (c) => (items[fill[c]!++] = e));
  return { w, h, west, south, cellDeg, cellStart: counts, cellItems: items };
}
