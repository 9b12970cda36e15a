// Builds a contraction hierarchy over the core graph for one profile and avoid mask: nodes are
// contracted in edge-difference order with limited witness searches; the result is two upward CSR
// graphs for the WASM query (ch.ts) and a record table to unpack shortcuts into core edges.
// Records are numbered in upward-edge order (the forward graph's edges, then the backward graph's), so an
// upward edge is its own record and a record's lower endpoint is the node whose CSR range holds it; a shortcut
// keeps only its middle node (its halves are the upward edges from that node to its ends). A hierarchy takes 12
// bytes per record (target, weight, middle) where storing both ends and both halves would take 28.

import { MinHeap } from '../reference/min-heap.js';

/**
 * Upward CSR graph: edges from a node to higher-ranked nodes (forward), or reversed (backward). Forward edge i is
 * record i; backward edge j is record forward.target.length + j.
 */
export interface UpGraph {
  first: Uint32Array;
  target: Uint32Array;
  weight: Float32Array;
}

export interface Hierarchy {
  nodeCount: number;
  /**
   * Per record: the middle node of a shortcut (u → v → x, v contracted before u and x), or -1 - c for original core
   * edge c. A shortcut's halves are the records u → v (a backward edge of v) and v → x (a forward edge of v).
   */
  middle: Int32Array;
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

/**
 * Each node's list of (neighbour, record) pairs, all in one pool of typed arrays: push, indexOf and swap-remove,
 * as per-node JS arrays would do them (in the same order), at a few bytes per entry instead of two arrays per
 * node. A full list moves to the pool's end with twice the room; a full pool is compacted into a larger one.
 */
class NodeLists {
  readonly start: Int32Array;
  readonly length: Int32Array;
  readonly room: Int32Array;
  node: Int32Array;
  record: Int32Array;
  used = 0;

  constructor(n: number, expected: number) {
    this.start = new Int32Array(n);
    this.length = new Int32Array(n);
    this.room = new Int32Array(n);
    this.node = new Int32Array(Math.max(expected, 16));
    this.record = new Int32Array(Math.max(expected, 16));
  }

  push(v: number, x: number, r: number): void {
    if (this.length[v] === this.room[v]) this.move(v, Math.max(2, this.room[v]! * 2));
    const at = this.start[v]! + this.length[v]!++;
    this.node[at] = x;
    this.record[at] = r;
  }

  indexOf(v: number, x: number): number {
    const s = this.start[v]!;
    const len = this.length[v]!;
    for (let i = 0; i < len; i++) if (this.node[s + i] === x) return i;
    return -1;
  }

  /** Removes the pair of neighbour x from v's list (its last pair takes its place). */
  unlink(v: number, x: number): void {
    const i = this.indexOf(v, x);
    if (i < 0) return;
    const s = this.start[v]!;
    const last = s + --this.length[v]!;
    this.node[s + i] = this.node[last]!;
    this.record[s + i] = this.record[last]!;
  }

  private move(v: number, room: number): void {
    if (this.used + room > this.node.length) this.compact(room);
    const from = this.start[v]!;
    const len = this.length[v]!;
    this.node.copyWithin(this.used, from, from + len);
    this.record.copyWithin(this.used, from, from + len);
    this.start[v] = this.used;
    this.room[v] = room;
    this.used += room;
  }

  /** Copies every list, with its room, into new arrays with space for `more` entries and as much again. */
  private compact(more: number): void {
    let live = more;
    for (let v = 0; v < this.start.length; v++) live += this.room[v]!;
    const node = new Int32Array(Math.ceil(live * 1.5));
    const record = new Int32Array(node.length);
    let at = 0;
    for (let v = 0; v < this.start.length; v++) {
      const s = this.start[v]!;
      node.set(this.node.subarray(s, s + this.length[v]!), at);
      record.set(this.record.subarray(s, s + this.length[v]!), at);
      this.start[v] = at;
      at += this.room[v]!;
    }
    this.node = node;
    this.record = record;
    this.used = at;
  }
}

/** The records of a hierarchy as they are made: growable typed columns (`from` -1: superseded by a cheaper one). */
class Records {
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  weight = new Float64Array(1024);
  middle = new Int32Array(1024);
  count = 0;

  constructor(expected: number) {
    this.grow(expected);
  }

  push(u: number, x: number, w: number, middle: number): number {
    if (this.count === this.from.length) this.grow(Math.ceil(this.count * 1.5));
    const r = this.count++;
    this.from[r] = u;
    this.to[r] = x;
    this.weight[r] = w;
    this.middle[r] = middle;
    return r;
  }

  private grow(size: number): void {
    if (size <= this.from.length) return;
    const more = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old.subarray(0, this.count) as never);
      return next;
    };
    this.from = more(this.from, (n) => new Int32Array(n));
    this.to = more(this.to, (n) => new Int32Array(n));
    this.weight = more(this.weight, (n) => new Float64Array(n));
    this.middle = more(this.middle, (n) => new Int32Array(n));
  }
}

export function buildHierarchy(core: CoreInput, mask: number): Hierarchy {
  const n = core.first.length - 1;
  const coreEdges = core.target.length;
  // About as many shortcuts as core edges on trail networks.
  const rec = new Records(coreEdges * 2);
  const outs = new NodeLists(n, coreEdges * 2);
  const ins = new NodeLists(n, coreEdges * 2);
  // A pair of nodes keeps one record: a cheaper one supersedes it (and no record of a contracted node ever is, so a
  // shortcut's halves are the live records between its middle node and its ends).
  const add = (u: number, x: number, w: number, middle: number): void => {
    const i = outs.indexOf(u, x);
    if (i >= 0 && rec.weight[outs.record[outs.start[u]! + i]!]! <= w) return;
    const r = rec.push(u, x, w, middle);
    if (i >= 0) {
      rec.from[outs.record[outs.start[u]! + i]!] = -1;
      outs.record[outs.start[u]! + i] = r;
      ins.record[ins.start[x]! + ins.indexOf(x, u)] = r;
    } else {
      outs.push(u, x, r);
      ins.push(x, u, r);
    }
  };
  for (let u = 0; u < n; u++) {
    for (let e = core.first[u]!; e < core.first[u + 1]!; e++) {
      const x = core.target[e]!;
      const w = core.cost[e]!;
      if (x === u || !(w < Infinity) || (core.hazard[e]! & mask) !== 0) continue;
      add(u, x, w, -1 - e);
    }
  }
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
      const s = outs.start[v]!;
      const len = outs.length[v]!;
      for (let i = s; i < s + len; i++) {
        const x = outs.node[i]!;
        if (x === skip || contracted[x]) continue;
        const nd = d + rec.weight[outs.record[i]!]!;
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
    // Shortcuts added below never touch v's own lists, but may move them in their pools: positions are read anew.
    const nIn = ins.length[v]!;
    const nOut = outs.length[v]!;
    for (let i = 0; i < nIn; i++) {
      const u = ins.node[ins.start[v]! + i]!;
      const r1 = ins.record[ins.start[v]! + i]!;
      if (contracted[u]) continue;
      let maxW = 0;
      for (let j = 0; j < nOut; j++) {
        const x = outs.node[outs.start[v]! + j]!;
        if (!contracted[x] && x !== u) maxW = Math.max(maxW, rec.weight[r1]! + rec.weight[outs.record[outs.start[v]! + j]!]!);
      }
      if (maxW === 0) continue;
      witness(u, v, maxW, simulate ? ESTIMATE_SETTLE_LIMIT : WITNESS_SETTLE_LIMIT);
      for (let j = 0; j < nOut; j++) {
        const x = outs.node[outs.start[v]! + j]!;
        const r2 = outs.record[outs.start[v]! + j]!;
        if (contracted[x] || x === u) continue;
        const cand = rec.weight[r1]! + rec.weight[r2]!;
        if (witnessDist(x) <= cand) continue;
        added++;
        if (!simulate) add(u, x, cand, v);
      }
    }
    return added;
  };
  const degree = (v: number): number => {
    let d = 0;
    for (const lists of [outs, ins]) {
      const s = lists.start[v]!;
      for (let i = s; i < s + lists.length[v]!; i++) if (!contracted[lists.node[i]!]) d++;
    }
    return d;
  };
  const priority = (v: number): number => contract(v, true) - degree(v) + deleted[v]!;
  // Lazy-update queue of (priority, node): every node is in it at most once (put back only after it was taken).
  const qk = new Float64Array(n);
  const qv = new Int32Array(n);
  let qsize = 0;
  const qpush = (k: number, v: number): void => {
    let i = qsize++;
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
    qsize--;
    const k = qk[qsize]!;
    const v = qv[qsize]!;
    if (qsize) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= qsize) break;
        if (c + 1 < qsize && (qk[c + 1]! < qk[c]! || (qk[c + 1] === qk[c] && qv[c + 1]! < qv[c]!))) c++;
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
  while (qsize) {
    const v = qpop();
    if (contracted[v]) continue;
    const p = priority(v);
    if (qsize && p > qk[0]!) {
      qpush(p, v);
      continue;
    }
    contract(v, false);
    contracted[v] = 1;
    rank[v] = order++;
    // Drop v from its neighbours' lists so later searches never scan contracted nodes.
    for (let i = 0; i < outs.length[v]!; i++) {
      const x = outs.node[outs.start[v]! + i]!;
      deleted[x]!++;
      ins.unlink(x, v);
    }
    for (let i = 0; i < ins.length[v]!; i++) {
      const u = ins.node[ins.start[v]! + i]!;
      deleted[u]!++;
      outs.unlink(u, v);
    }
  }
  // Split the live records into the upward graphs, numbered anew in upward-edge order.
  const m = rec.count;
  const { from: recFrom, to: recTo, weight: recW } = rec;
  const fCount = new Uint32Array(n + 1);
  const bCount = new Uint32Array(n + 1);
  for (let r = 0; r < m; r++) {
    const u = recFrom[r]!;
    if (u < 0) continue;
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
    return { first: count.slice(), target: new Uint32Array(total), weight: new Float32Array(total) };
  };
  const forward = mk(fCount);
  const backward = mk(bCount);
  const forwardEdges = fCount[n]!;
  const middle = new Int32Array(forwardEdges + bCount[n]!);
  const fFill = fCount.slice(0, n);
  const bFill = bCount.slice(0, n);
  let shortcuts = 0;
  for (let r = 0; r < m; r++) {
    const u = recFrom[r]!;
    if (u < 0) continue;
    const x = recTo[r]!;
    let at: number;
    if (rank[u]! < rank[x]!) {
      const i = fFill[u]!++;
      forward.target[i] = x;
      forward.weight[i] = recW[r]!;
      at = i;
    } else {
      const i = bFill[x]!++;
      backward.target[i] = u;
      backward.weight[i] = recW[r]!;
      at = forwardEdges + i;
    }
    middle[at] = rec.middle[r]!;
    if (rec.middle[r]! >= 0) shortcuts++;
  }
  return { nodeCount: n, middle, forward, backward, shortcuts };
}

/** The lower endpoint of record r: the node whose upward-edge range holds it (binary search). */
export function recordOwner(h: Hierarchy, r: number): number {
  const forwardEdges = h.forward.target.length;
  const first = r < forwardEdges ? h.forward.first : h.backward.first;
  const i = r < forwardEdges ? r : r - forwardEdges;
  let lo = 0;
  let hi = h.nodeCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (first[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Record r's ends in travel order: a forward edge runs from its owner to its target, a backward edge the other way. */
function recordEnds(h: Hierarchy, r: number): [from: number, to: number] {
  const forwardEdges = h.forward.target.length;
  const owner = recordOwner(h, r);
  return r < forwardEdges ? [owner, h.forward.target[r]!] : [h.backward.target[r - forwardEdges]!, owner];
}

/** The record of `graph`'s edge from `v` to `to` (offset by `base`): there is exactly one. */
function edgeTo(graph: UpGraph, v: number, to: number, base: number): number {
  for (let i = graph.first[v]!; i < graph.first[v + 1]!; i++) if (graph.target[i] === to) return base + i;
  throw new TypeError(`routing: hierarchy has no record from ${v} to ${to}`);
}

/** Appends the core edges of record r, in travel order. */
export function unpackRecord(h: Hierarchy, r: number, out: number[]): void {
  const [from, to] = recordEnds(h, r);
  const stack: number[] = [r, from, to];
  while (stack.length) {
    const x = stack.pop()!;
    const u = stack.pop()!;
    const rec = stack.pop()!;
    const v = h.middle[rec]!;
    if (v < 0) {
      out.push(-1 - v);
      continue;
    }
    // Halves: u → v is v's backward edge to u, v → x its forward edge to x; the first half goes on the stack last.
    stack.push(edgeTo(h.forward, v, x, 0), v, x);
    stack.push(edgeTo(h.backward, v, u, h.forward.target.length), u, v);
  }
}
