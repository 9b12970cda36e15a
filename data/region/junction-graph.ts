// Builds the region's junction graph (region-graph.ts) from its pieces: every straight piece between two
// consecutive OSM nodes of a way. Runs of pieces through nodes of degree two become one chain between two
// junctions (GraphHopper's tower and pillar nodes); the pieces stay addressable by their place in their chain.
import { AGAINST_WAY, type RegionGraph, type WayTables } from './region-graph.js';

/** The graph as its pieces: piece i joins node pieceA[i] to node pieceB[i] and belongs to way pieceWay[i]. */
export interface PieceList {
  nodeCount: number;
  nodeLonE7: Int32Array;
  nodeLatE7: Int32Array;
  nodeEle: Float32Array;
  pieceA: Uint32Array;
  pieceB: Uint32Array;
  /** Way index, | AGAINST_WAY when a → b runs against the way's node order. */
  pieceWay: Uint32Array;
}

/**
 * The junction graph of `pieces`: junctions are the nodes with other than two pieces (and one node of each ring
 * of degree-two nodes), numbered first in their input order; each chain's inner nodes follow, chain by chain.
 * A piece may not join a node to itself (buildRegion drops repeated nodes).
 */
export function junctionGraph(pieces: PieceList, ways: WayTables, bbox: RegionGraph['bbox']): RegionGraph {
  const { nodeCount: n, pieceA, pieceB } = pieces;
  const p = pieceA.length;
  // Directed piece d leaves node (d & 1 ? pieceB : pieceA)[d >> 1]; d ^ 1 is the same piece the other way.
  const to = (d: number): number => (d & 1 ? pieceA : pieceB)[d >>> 1]!;
  for (let i = 0; i < p; i++) if (pieceA[i] === pieceB[i]) throw new TypeError(`piece ${i} joins node ${pieceA[i]} to itself`);
  const { start: adjStart, list: adj } = endsByNode(n, pieceA, pieceB, p);
  const junction = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (adjStart[v + 1]! - adjStart[v]! !== 2) junction[v] = 1;
  /** The piece after d in its chain: the other piece of the degree-two node d reaches. */
  const next = (d: number): number => {
    const v = to(d);
    const first = adj[adjStart[v]!]!;
    return first === (d ^ 1) ? adj[adjStart[v]! + 1]! : first;
  };
  const seen = new Uint8Array(p);
  const walk = (d0: number, visit: (d: number) => void): number => {
    let d = d0;
    for (;;) {
      seen[d >>> 1] = 1;
      visit(d);
      const v = to(d);
      if (junction[v]) return v;
      d = next(d);
    }
  };
  // Rings of degree-two nodes have no junction: their first node becomes one.
  const none = (): void => {};
  for (let v = 0; v < n; v++)
    if (junction[v]) for (let j = adjStart[v]!; j < adjStart[v + 1]!; j++) if (!seen[adj[j]! >>> 1]) walk(adj[j]!, none);
  for (let i = 0; i < p; i++) {
    if (seen[i]) continue;
    junction[pieceA[i]!] = 1;
    walk(2 * i, none);
  }

  const towerOf = new Int32Array(n).fill(-1);
  let towerCount = 0;
  for (let v = 0; v < n; v++) if (junction[v]) towerOf[v] = towerCount++;
  const nodeCount = towerCount + p; // less one per chain, trimmed below
  const lon = new Int32Array(nodeCount);
  const lat = new Int32Array(nodeCount);
  const ele = new Float32Array(nodeCount);
  const place = (at: number, v: number): void => {
    lon[at] = pieces.nodeLonE7[v]!;
    lat[at] = pieces.nodeLatE7[v]!;
    ele[at] = pieces.nodeEle[v]!;
  };
  for (let v = 0; v < n; v++) if (junction[v]) place(towerOf[v]!, v);
  const chainFrom = new Uint32Array(p);
  const chainTo = new Uint32Array(p);
  const pieceStart = new Uint32Array(p + 1);
  const pieceWay = new Uint32Array(p);
  let chainCount = 0;
  let u = 0; // pieces placed
  let pillar = towerCount;
  seen.fill(0);
  for (let v = 0; v < n; v++) {
    if (!junction[v]) continue;
    for (let j = adjStart[v]!; j < adjStart[v + 1]!; j++) {
      const d0 = adj[j]!;
      if (seen[d0 >>> 1]) continue;
      const k = chainCount++;
      chainFrom[k] = towerOf[v]!;
      pieceStart[k] = u;
      const end = walk(d0, (d) => {
        pieceWay[u++] = (d & 1 ? pieces.pieceWay[d >>> 1]! ^ AGAINST_WAY : pieces.pieceWay[d >>> 1]!) >>> 0;
        const w = to(d);
        if (!junction[w]) place(pillar++, w);
      });
      chainTo[k] = towerOf[end]!;
    }
  }
  pieceStart[chainCount] = u;
  // Each tower's chains: 2k leaves chain k's start, 2k + 1 its end (a loop leaves its tower both ways).
  const { start: towerFirst, list: towerChains } = endsByNode(towerCount, chainFrom, chainTo, chainCount);
  return {
    nodeCount: pillar,
    edgeCount: 2 * p,
    towerCount,
    chainCount,
    bbox,
    nodeLonE7: lon.slice(0, pillar),
    nodeLatE7: lat.slice(0, pillar),
    nodeEle: ele.slice(0, pillar),
    towerFirst,
    towerChains,
    chainFrom: chainFrom.slice(0, chainCount),
    chainTo: chainTo.slice(0, chainCount),
    pieceStart: pieceStart.slice(0, chainCount + 1),
    pieceWay,
    ...ways,
  };
}

/**
 * Each of `count` items with two ends (item i from node a[i] to node b[i], nodes 0 … n − 1), listed by node: node v's
 * entries are list[start[v]] … list[start[v + 1] − 1], 2i for item i at its `a` end and 2i + 1 at its `b` end.
 */
function endsByNode(n: number, a: ArrayLike<number>, b: ArrayLike<number>, count: number): { start: Uint32Array; list: Uint32Array } {
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < count; i++) {
    start[a[i]! + 1]!++;
    start[b[i]! + 1]!++;
  }
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const list = new Uint32Array(2 * count);
  const fill = start.slice(0, n);
  for (let i = 0; i < count; i++) {
    list[fill[a[i]!]!++] = 2 * i;
    list[fill[b[i]!]!++] = 2 * i + 1;
  }
  return { start, list };
}
