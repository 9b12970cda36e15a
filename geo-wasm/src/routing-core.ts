// The core graph of the routing kernels: the region's junction graph (data/region/region-graph.ts) as the CSR the
// searches read (its towers are the core nodes, its directed chains the core edges), its connected components,
// `Chains`, which lists a chain's pieces and finds an edge's chain, and the snapping grid.
import { chainFirstEdge, chainNode, chainOfPiece, edgeEnds, latOf, lonOf, type RegionGraph } from '../../data/region/region-graph.js';

/**
 * The core graph: core node t is tower t; core edge j is the directed chain towerChains[j] leaving tower
 * source[j], so the CSR's starts are the graph's towerFirst.
 */
export interface CoreGraph {
  first: Uint32Array;
  target: Uint32Array;
  source: Uint32Array;
  /** The core edge of the same chain the other way. */
  twin: Uint32Array;
  /** The core edge running chain k from its start (its twin runs it back). */
  chainEdge: Uint32Array;
}

/** The core graph of a junction graph. */
export function coreGraph(g: RegionGraph): CoreGraph {
  const mc = g.towerChains.length;
  const target = new Uint32Array(mc);
  const source = new Uint32Array(mc);
  const twin = new Uint32Array(mc);
  const chainEdge = new Uint32Array(g.chainCount);
  const backEdge = new Uint32Array(g.chainCount);
  for (let t = 0; t < g.towerCount; t++) {
    for (let j = g.towerFirst[t]!; j < g.towerFirst[t + 1]!; j++) {
      const c = g.towerChains[j]!;
      const k = c >>> 1;
      source[j] = t;
      if ((c & 1) === 0) {
        target[j] = g.chainTo[k]!;
        chainEdge[k] = j;
      } else {
        target[j] = g.chainFrom[k]!;
        backEdge[k] = j;
      }
    }
  }
  for (let k = 0; k < g.chainCount; k++) {
    twin[chainEdge[k]!] = backEdge[k]!;
    twin[backEdge[k]!] = chainEdge[k]!;
  }
  return { first: g.towerFirst, target, source, twin, chainEdge };
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

/**
 * Chains of pieces between junctions, read off the junction graph: core edge j runs chain towerChains[j] >> 1
 * forwards (even) or backwards (odd); an edge's chain is found by binary search in pieceStart.
 */
export class Chains {
  constructor(
    private readonly graph: RegionGraph,
    private readonly core: Pick<CoreGraph, 'twin' | 'chainEdge'>,
  ) {}

  /** Source node of edge e. */
  sourceOf(e: number): number {
    return edgeEnds(this.graph, e)[0];
  }

  /** Number of pieces of core edge c's chain. */
  length(c: number): number {
    const k = this.graph.towerChains[c]! >>> 1;
    return this.graph.pieceStart[k + 1]! - this.graph.pieceStart[k]!;
  }

  /** The edges of core edge c, in order. */
  edges(c: number): Uint32Array {
    const d = this.graph.towerChains[c]!;
    const k = d >>> 1;
    const start = this.graph.pieceStart[k]!;
    const n = this.graph.pieceStart[k + 1]! - start;
    const out = new Uint32Array(n);
    if ((d & 1) === 0) for (let i = 0; i < n; i++) out[i] = 2 * (start + i);
    else for (let i = 0; i < n; i++) out[i] = 2 * (start + n - 1 - i) + 1;
    return out;
  }

  /** The core edge edge e lies on, and its index there. */
  locate(e: number): { chain: number; index: number } {
    const g = this.graph;
    const u = e >>> 1;
    const k = chainOfPiece(g, u);
    const i = u - g.pieceStart[k]!;
    const forward = this.core.chainEdge[k]!;
    if ((e & 1) === 0) return { chain: forward, index: i };
    return { chain: this.core.twin[forward]!, index: g.pieceStart[k + 1]! - g.pieceStart[k]! - 1 - i };
  }

  /** The first edge of core edge c. */
  firstEdge(c: number): number {
    return chainFirstEdge(this.graph, this.graph.towerChains[c]!);
  }
}

/** Uniform lon/lat grid of undirected pieces (each by its even edge 2u), CSR by cell, row-major from the south-west. */
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
export function buildSnapGrid(g: RegionGraph, cellDeg: number): SnapGrid {
  const [west0, south0, east, north] = g.bbox;
  const west = west0 - cellDeg;
  const south = south0 - cellDeg;
  const w = Math.max(1, Math.ceil((east - west) / cellDeg) + 2);
  const h = Math.max(1, Math.ceil((north - south) / cellDeg) + 2);
  const counts = new Uint32Array(w * h + 1);
  const eachPiece = (fn: (e: number, cell: number) => void): void => {
    for (let k = 0; k < g.chainCount; k++) {
      const start = g.pieceStart[k]!;
      const n = g.pieceStart[k + 1]! - start;
      let a = chainNode(g, k, 0);
      for (let i = 0; i < n; i++) {
        const b = chainNode(g, k, i + 1);
        const x0 = Math.floor((Math.min(lonOf(g, a), lonOf(g, b)) - west) / cellDeg);
        const x1 = Math.floor((Math.max(lonOf(g, a), lonOf(g, b)) - west) / cellDeg);
        const y0 = Math.floor((Math.min(latOf(g, a), latOf(g, b)) - south) / cellDeg);
        const y1 = Math.floor((Math.max(latOf(g, a), latOf(g, b)) - south) / cellDeg);
        for (let y = Math.max(0, y0); y <= Math.min(h - 1, y1); y++) {
          for (let x = Math.max(0, x0); x <= Math.min(w - 1, x1); x++) fn(2 * (start + i), y * w + x);
        }
        a = b;
      }
    }
  };
  eachPiece((_, c) => counts[c + 1]!++);
  for (let c = 0; c < w * h; c++) counts[c + 1]! += counts[c]!;
  const items = new Uint32Array(counts[w * h]!);
  const fill = counts.slice(0, w * h);
  eachPiece((e, c) => (items[fill[c]!++] = e));
  return { w, h, west, south, cellDeg, cellStart: counts, cellItems: items };
}
