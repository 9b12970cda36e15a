// Builds a contraction hierarchy over the core graph for one profile and avoid mask: nodes are
// contracted in edge-difference order with limited witness searches; the result is two upward CSR
// graphs for the WASM query (ch.ts) and a record table to unpack shortcuts into core edges.

import { MinHeap } from '../reference/min-heap.js';

/** Upward CSR graph: edges from a node to higher-ranked nodes (forward), or reversed (backward). */
export interface UpGraph {
  first: Uint32Array;
  target: Uint32Array;
  weight: Float32Array;
  record: Int32Array;
}

export interface Hierarchy {
  nodeCount: number;
  /** Record r runs recFrom[r] → recTo[r]; an original core edge (recA = -1, recB = core edge) or a shortcut of records recA then recB. */
  recFrom: Int32Array;
  recTo: Int32Array;
  recA: Int32Array;
  recB: Int32Array;
  forward: UpGraph;
  backward: UpGraph;
  shortcuts: number;
}

/** Core graph input: CSR with per-edge costs (Infinity = closed) and hazard bits. */
export interface CoreInput {
  first: Uint32Array;
  target: Uint32Array;
  cost: Float32Array;
  hazard: Uint8Array;
}

/** Nodes a witness search may settle when contracting, and when only estimating a priority. */
const WITNESS_SETTLE_LIMIT = 40;
const ESTIMATE_SETTLE_LIMIT = 8;

export function buildHierarchy(core: CoreInput, mask: number): Hierarchy {
  const n = core.first.length - 1;
  const recFrom: number[] = [];
  const recTo: number[] = [];
  const recW: number[] = [];
  const recA: number[] = [];
  const recB: number[] = [];
  // Adjacency as parallel arrays (neighbour, record): no iterator allocations in the hot loops.
  const outN: number[][] = Array.from({ length: n }, () => []);
  const outR: number[][] = Array.from({ length: n }, () => []);
  const inN: number[][] = Array.from({ length: n }, () => []);
  const inR: number[][] = Array.from({ length: n }, () => []);
  const add = (u: number, x: number, w: number, a: number, b: number): void => {
    const i = outN[u]!.indexOf(x);
    if (i >= 0 && recW[outR[u]![i]!]! <= w) return;
    const r = recFrom.push(u) - 1;
    recTo.push(x);
    recW.push(w);
    recA.push(a);
    recB.push(b);
    if (i >= 0) {
      outR[u]![i] = r;
      inR[x]![inN[x]!.indexOf(u)] = r;
    } else {
      outN[u]!.push(x);
      outR[u]!.push(r);
      inN[x]!.push(u);
      inR[x]!.push(r);
    }
  };
  for (let u = 0; u < n; u++) {
    for (let e = core.first[u]!; e < core.first[u + 1]!; e++) {
      const x = core.target[e]!;
      const w = core.cost[e]!;
      if (x === u || !(w < Infinity) || (core.hazard[e]! & mask) !== 0) continue;
      add(u, x, w, -1, e);
    }
  }
  const unlink = (ns: number[], rs: number[], v: number): void => {
    const i = ns.indexOf(v);
    if (i < 0) return;
    ns[i] = ns[ns.length - 1]!;
    rs[i] = rs[rs.length - 1]!;
    ns.pop();
    rs.pop();
  };
  const contracted = new Uint8Array(n);
  const deleted = new Uint32Array(n);
  // Witness search state (stamped, reused).
  const dist = new Float64Array(n);
  const seen = new Uint32Array(n);
  let stamp = 0;
  const heap = new MinHeap();
  /** Costs from u avoiding `skip`, up to maxW or the settle limit; read with witnessDist. */
  const witness = (u: number, skip: number, maxW: number, limit: number): void => {
    stamp++;
    heap.clear();
    seen[u] = stamp;
    dist[u] = 0;
    heap.push(0, u);
    let settled = 0;
    while (heap.size > 0 && settled < limit) {
      const d = heap.peekKey()!;
      const v = heap.pop();
      if (d > dist[v]!) continue;
      if (d > maxW) break;
      settled++;
      const ns = outN[v]!;
      const rs = outR[v]!;
      for (let i = 0; i < ns.length; i++) {
        const x = ns[i]!;
        if (x === skip || contracted[x]) continue;
        const nd = d + recW[rs[i]!]!;
        if (seen[x] !== stamp || nd < dist[x]!) {
          seen[x] = stamp;
          dist[x] = nd;
          heap.push(nd, x);
        }
      }
    }
  };
  const witnessDist = (x: number): number => (seen[x] === stamp ? dist[x]! : Infinity);
  /** Contracts v (or only counts the shortcuts it would need). */
  const contract = (v: number, simulate: boolean): number => {
    let added = 0;
    const ins = inN[v]!;
    const outs = outN[v]!;
    // Shortcuts added below may extend these lists; only the neighbours present now matter.
    const nIn = ins.length;
    const nOut = outs.length;
    for (let i = 0; i < nIn; i++) {
      const u = ins[i]!;
      const r1 = inR[v]![i]!;
      if (contracted[u]) continue;
      let maxW = 0;
      for (let j = 0; j < nOut; j++) {
        const x = outs[j]!;
        if (!contracted[x] && x !== u) maxW = Math.max(maxW, recW[r1]! + recW[outR[v]![j]!]!);
      }
      if (maxW === 0) continue;
      witness(u, v, maxW, simulate ? ESTIMATE_SETTLE_LIMIT : WITNESS_SETTLE_LIMIT);
      for (let j = 0; j < nOut; j++) {
        const x = outs[j]!;
        const r2 = outR[v]![j]!;
        if (contracted[x] || x === u) continue;
        const cand = recW[r1]! + recW[r2]!;
        if (witnessDist(x) <= cand) continue;
        added++;
        if (!simulate) add(u, x, cand, r1, r2);
      }
    }
    return added;
  };
  const degree = (v: number): number => {
    let d = 0;
    for (const x of outN[v]!) if (!contracted[x]) d++;
    for (const x of inN[v]!) if (!contracted[x]) d++;
    return d;
  };
  const priority = (v: number): number => contract(v, true) - degree(v) + deleted[v]!;
  // Lazy-update queue of (priority, node).
  const qk: number[] = [];
  const qv: number[] = [];
  const qpush = (k: number, v: number): void => {
    let i = qk.length;
    qk.push(k);
    qv.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (qk[p]! < k || (qk[p] === k && qv[p]! <= v)) break;
      qk[i] = qk[p]!;
      qv[i] = qv[p]!;
      i = p;
    }
    qk[i] = k;
    qv[i] = v;
  };
  const qpop = (): number => {
    const top = qv[0]!;
    const k = qk.pop()!;
    const v = qv.pop()!;
    if (qk.length) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= qk.length) break;
        if (c + 1 < qk.length && (qk[c + 1]! < qk[c]! || (qk[c + 1] === qk[c] && qv[c + 1]! < qv[c]!))) c++;
        if (qk[c]! > k || (qk[c] === k && qv[c]! >= v)) break;
        qk[i] = qk[c]!;
        qv[i] = qv[c]!;
        i = c;
      }
      qk[i] = k;
      qv[i] = v;
    }
    return top;
  };
  for (let v = 0; v < n; v++) qpush(priority(v), v);
  const rank = new Int32Array(n);
  let order = 0;
  while (qk.length) {
    const v = qpop();
    if (contracted[v]) continue;
    const p = priority(v);
    if (qk.length && p > qk[0]!) {
      qpush(p, v);
      continue;
    }
    contract(v, false);
    contracted[v] = 1;
    rank[v] = order++;
    // Drop v from its neighbours' lists so later searches never scan contracted nodes.
    for (const x of outN[v]!) {
      deleted[x]!++;
      unlink(inN[x]!, inR[x]!, v);
    }
    for (const u of inN[v]!) {
      deleted[u]!++;
      unlink(outN[u]!, outR[u]!, v);
    }
  }
  // Split every record into the upward graphs.
  const m = recFrom.length;
  const fCount = new Uint32Array(n + 1);
  const bCount = new Uint32Array(n + 1);
  for (let r = 0; r < m; r++) {
    const u = recFrom[r]!;
    const x = recTo[r]!;
    if (rank[u]! < rank[x]!) fCount[u + 1]!++;
    else bCount[x + 1]!++;
  }
  for (let v = 0; v < n; v++) {
    fCount[v + 1]! += fCount[v]!;
    bCount[v + 1]! += bCount[v]!;
  }
  const mk = (count: Uint32Array): UpGraph => {
    const total = count[n]!;
    return { first: count.slice(), target: new Uint32Array(total), weight: new Float32Array(total), record: new Int32Array(total) };
  };
  const forward = mk(fCount);
  const backward = mk(bCount);
  const fFill = fCount.slice(0, n);
  const bFill = bCount.slice(0, n);
  for (let r = 0; r < m; r++) {
    const u = recFrom[r]!;
    const x = recTo[r]!;
    if (rank[u]! < rank[x]!) {
      const i = fFill[u]!++;
      forward.target[i] = x;
      forward.weight[i] = recW[r]!;
      forward.record[i] = r;
    } else {
      const i = bFill[x]!++;
      backward.target[i] = u;
      backward.weight[i] = recW[r]!;
      backward.record[i] = r;
    }
  }
  return {
    nodeCount: n,
    recFrom: Int32Array.from(recFrom),
    recTo: Int32Array.from(recTo),
    recA: Int32Array.from(recA),
    recB: Int32Array.from(recB),
    forward,
    backward,
    shortcuts: recA.filter((a) => a >= 0).length,
  };
}

/** Appends the core edges of record r, in travel order. */
export function unpackRecord(h: Hierarchy, r: number, out: number[]): void {
  const stack = [r];
  while (stack.length) {
    const x = stack.pop()!;
    const a = h.recA[x]!;
    if (a < 0) out.push(h.recB[x]!);
    else stack.push(h.recB[x]!, a);
  }
}
