// Routing kernels over a CSR graph resident in linear memory: A* (ALT landmarks) and bounded
// Dijkstra with per-edge costs and a hazard mask, nearest-edge snapping and line matching.
// All arrays are allocated by the host with `alloc` and described with the `use*` calls; the
// search state lives in ./memory.ts. Costs are f32 per directed edge (Infinity = not allowed).
import {
  distPtr,
  ensureScratch,
  hPtr,
  heapKeyPtr,
  heapNodePtr,
  parentPtr,
  posPtr,
  settledPtr,
  stampPtr,
} from './memory';

/** Allocates `bytes` (below 1 GiB) of resident memory (bump allocator; never freed). Returns the pointer. */
export function alloc(bytes: i32): usize {
  return heap.alloc(<usize>bytes);
}

/** Claims `bytes` (any size) of the shared memory for the host, e.g. to read a region file into. */
export function claim(bytes: u32): usize {
  return __claim(<usize>bytes);
}

// ---- graph and weights in use -------------------------------------------------------------
let gN: i32 = 0;
let gFirst: usize = 0; // u32[n+1]
let gTarget: usize = 0; // u32[m]
let gSource: usize = 0; // u32[m]
let gTwin: usize = 0; // u32[m]: the same piece in the other direction
let wCost: usize = 0; // f32[m]
let wHaz: usize = 0; // u8[m]
let wMask: i32 = 0;

/** Selects the graph searched by the next calls (CSR first-edge, targets, sources, twins). */
export function useGraph(n: i32, first: usize, target: usize, source: usize, twin: usize): void {
  gN = n;
  gFirst = first;
  gTarget = target;
  gSource = source;
  gTwin = twin;
  ensureScratch(n);
}

/** Selects edge costs (f32 s) and hazard bits (u8); edges with (hazard & mask) != 0 are skipped. */
export function useWeights(cost: usize, haz: usize, mask: i32): void {
  wCost = cost;
  wHaz = haz;
  wMask = mask;
}

// ---- landmarks (ALT) ------------------------------------------------------------------------
let lmCount: i32 = 0;
let lmFrom: usize = 0; // f32[k*n]: cost from landmark k to node
let lmTo: usize = 0; // f32[k*n]: cost from node to landmark k
let lmWant: i32 = 4;
const activeLm = new StaticArray<i32>(64);
let activeCount: i32 = 0;
const lmScore = new StaticArray<f64>(64);

/** Selects landmark tables (count 0 = plain Dijkstra order) and how many to use per query. */
export function useLandmarks(count: i32, from: usize, to: usize, use: i32): void {
  lmCount = count;
  lmFrom = from;
  lmTo = to;
  lmWant = use < 64 ? use : 64;
}

// ---- endpoints --------------------------------------------------------------------------------
const srcNode = new StaticArray<i32>(4);
const srcCost = new StaticArray<f64>(4);
const tgtNode = new StaticArray<i32>(4);
const tgtCost = new StaticArray<f64>(4);
let srcCount: i32 = 0;
let tgtCount: i32 = 0;

/** Forgets sources and targets. */
export function clearEndpoints(): void {
  srcCount = 0;
  tgtCount = 0;
}
/** Adds a source node with an initial cost (at most 4). */
export function addSource(node: i32, cost: f64): void {
  if (srcCount < 4) {
    srcNode[srcCount] = node;
    srcCost[srcCount] = cost;
    srcCount++;
  }
}
/** Adds a target node with a final cost added on arrival (at most 4). */
export function addTarget(node: i32, cost: f64): void {
  if (tgtCount < 4) {
    tgtNode[tgtCount] = node;
    tgtCost[tgtCount] = cost;
    tgtCount++;
  }
}

// ---- search state --------------------------------------------------------------------------
let stamp: i32 = 0;
let heapSize: i32 = 0;
let settledCount: i32 = 0;
let bestTarget: i32 = -1;

/** Number of nodes settled by the last search (reachable areas read them with `settledList`). */
export function settled(): i32 {
  return settledCount;
}
export function settledList(): usize {
  return settledPtr;
}
/** f64 cost per node of the last search; valid only where `stampOf(node) == currentStamp()`. */
export function distances(): usize {
  return distPtr;
}
export function stamps(): usize {
  return stampPtr;
}
export function currentStamp(): i32 {
  return stamp;
}
/** Index of the target reached by the last search (-1 when none). */
export function reachedTarget(): i32 {
  return bestTarget;
}

function heapUp(i: i32): void {
  const node = load<i32>(heapNodePtr + (<usize>i << 2));
  const key = load<f64>(heapKeyPtr + (<usize>i << 3));
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = load<f64>(heapKeyPtr + (<usize>p << 3));
    if (pk <= key) break;
    const pn = load<i32>(heapNodePtr + (<usize>p << 2));
    store<i32>(heapNodePtr + (<usize>i << 2), pn);
    store<f64>(heapKeyPtr + (<usize>i << 3), pk);
    store<i32>(posPtr + (<usize>pn << 2), i);
    i = p;
  }
  store<i32>(heapNodePtr + (<usize>i << 2), node);
  store<f64>(heapKeyPtr + (<usize>i << 3), key);
  store<i32>(posPtr + (<usize>node << 2), i);
}

function heapPop(): i32 {
  const top = load<i32>(heapNodePtr);
  store<i32>(posPtr + (<usize>top << 2), -1);
  heapSize--;
  if (heapSize > 0) {
    const node = load<i32>(heapNodePtr + (<usize>heapSize << 2));
    const key = load<f64>(heapKeyPtr + (<usize>heapSize << 3));
    let i: i32 = 0;
    while (true) {
      let c = 2 * i + 1;
      if (c >= heapSize) break;
      let ck = load<f64>(heapKeyPtr + (<usize>c << 3));
      const c2 = c + 1;
      if (c2 < heapSize) {
        const ck2 = load<f64>(heapKeyPtr + (<usize>c2 << 3));
        if (ck2 < ck) {
          c = c2;
          ck = ck2;
        }
      }
      if (ck >= key) break;
      const cn = load<i32>(heapNodePtr + (<usize>c << 2));
      store<i32>(heapNodePtr + (<usize>i << 2), cn);
      store<f64>(heapKeyPtr + (<usize>i << 3), ck);
      store<i32>(posPtr + (<usize>cn << 2), i);
      i = c;
    }
    store<i32>(heapNodePtr + (<usize>i << 2), node);
    store<f64>(heapKeyPtr + (<usize>i << 3), key);
    store<i32>(posPtr + (<usize>node << 2), i);
  }
  return top;
}

/** Landmark lower bound of the cost from v to node t (0 when the tables say nothing). */
function lmBound(v: i32, t: i32): f64 {
  let h: f64 = 0;
  const n = <usize>gN;
  for (let i = 0; i < activeCount; i++) {
    const base = <usize>activeLm[i] * n;
    const a = <f64>load<f32>(lmFrom + ((base + <usize>t) << 2)) - <f64>load<f32>(lmFrom + ((base + <usize>v) << 2));
    if (a > h) h = a; // NaN (both unreachable) compares false
    const b = <f64>load<f32>(lmTo + ((base + <usize>v) << 2)) - <f64>load<f32>(lmTo + ((base + <usize>t) << 2));
    if (b > h) h = b;
  }
  return h;
}

function heuristic(v: i32): f64 {
  if (activeCount == 0) return 0;
  let h: f64 = Infinity;
  for (let j = 0; j < tgtCount; j++) {
    const hj = lmBound(v, tgtNode[j]) * 0.999999 + tgtCost[j];
    if (hj < h) h = hj;
  }
  return h;
}

function chooseLandmarks(): void {
  activeCount = 0;
  if (lmCount == 0 || tgtCount == 0 || srcCount == 0) return;
  const want = lmWant < lmCount ? lmWant : lmCount;
  const s = srcNode[0];
  const t = tgtNode[0];
  const n = <usize>gN;
  // Keep the `want` landmarks with the largest bound at (s, t): simple insertion into a small list.
  const score = lmScore;
  for (let k = 0; k < lmCount; k++) {
    const base = <usize>k * n;
    let h: f64 = 0;
    const a = <f64>load<f32>(lmFrom + ((base + <usize>t) << 2)) - <f64>load<f32>(lmFrom + ((base + <usize>s) << 2));
    if (a > h) h = a;
    const b = <f64>load<f32>(lmTo + ((base + <usize>s) << 2)) - <f64>load<f32>(lmTo + ((base + <usize>t) << 2));
    if (b > h) h = b;
    let pos = activeCount < want ? activeCount : want - 1;
    if (activeCount == want && score[pos] >= h) continue;
    while (pos > 0 && score[pos - 1] < h) {
      score[pos] = score[pos - 1];
      activeLm[pos] = activeLm[pos - 1];
      pos--;
    }
    score[pos] = h;
    activeLm[pos] = k;
    if (activeCount < want) activeCount++;
  }
}

/** Reaches node v with cost d over edge e (-1 for a source); pushes or decreases its key. */
function reach(v: i32, d: f64, e: i32): void {
  const vo = <usize>v;
  if (load<i32>(stampPtr + (vo << 2)) != stamp) {
    store<i32>(stampPtr + (vo << 2), stamp);
    const h = heuristic(v);
    store<f64>(hPtr + (vo << 3), h);
    store<f64>(distPtr + (vo << 3), d);
    store<i32>(parentPtr + (vo << 2), e);
    if (h == Infinity) {
      store<i32>(posPtr + (vo << 2), -2); // cannot reach any target: never expanded
      return;
    }
    store<i32>(heapNodePtr + (<usize>heapSize << 2), v);
    store<f64>(heapKeyPtr + (<usize>heapSize << 3), d + h);
    heapSize++;
    heapUp(heapSize - 1);
    return;
  }
  const pos = load<i32>(posPtr + (vo << 2));
  if (pos < 0) return; // settled (consistent heuristic) or pruned
  if (d < load<f64>(distPtr + (vo << 3))) {
    store<f64>(distPtr + (vo << 3), d);
    store<i32>(parentPtr + (vo << 2), e);
    store<f64>(heapKeyPtr + (<usize>pos << 3), d + load<f64>(hPtr + (vo << 3)));
    heapUp(pos);
  }
}

/**
 * Runs one search from the sources. With targets: A* (landmark heuristic when tables are set)
 * until the cheapest target is proven; returns its total cost (Infinity when unreachable).
 * Without targets: Dijkstra until the heap is empty or costs pass `budget`; returns the last
 * settled cost. `reverse` walks edges backwards (costs of twins), for tables towards a node.
 */
export function search(reverse: i32, budget: f64): f64 {
  stamp++;
  if (stamp == 0x7fffffff) {
    memory.fill(stampPtr, 0, <usize>gN << 2);
    stamp = 1;
  }
  heapSize = 0;
  settledCount = 0;
  bestTarget = -1;
  if (reverse == 0) chooseLandmarks();
  else activeCount = 0;
  for (let i = 0; i < srcCount; i++) reach(srcNode[i], srcCost[i], -1);
  let best: f64 = Infinity;
  let last: f64 = 0;
  const hasTargets = tgtCount > 0;
  while (heapSize > 0) {
    const key = load<f64>(heapKeyPtr);
    if (hasTargets) {
      if (key >= best) break;
    } else if (key > budget) break;
    const v = heapPop();
    const vo = <usize>v;
    const dv = load<f64>(distPtr + (vo << 3));
    store<i32>(settledPtr + (<usize>settledCount << 2), v);
    settledCount++;
    last = dv;
    if (hasTargets) {
      for (let j = 0; j < tgtCount; j++) {
        if (tgtNode[j] == v) {
          const c = dv + tgtCost[j];
          if (c < best) {
            best = c;
            bestTarget = j;
          }
        }
      }
    }
    const end = load<u32>(gFirst + ((vo + 1) << 2));
    for (let e = load<u32>(gFirst + (vo << 2)); e < end; e++) {
      const eo = <usize>e;
      const ce = reverse ? load<u32>(gTwin + (eo << 2)) : e;
      const c = load<f32>(wCost + (<usize>ce << 2));
      if (!(c < Infinity)) continue;
      if ((<i32>load<u8>(wHaz + <usize>ce) & wMask) != 0) continue;
      reach(load<i32>(gTarget + (eo << 2)), dv + <f64>c, <i32>e);
    }
  }
  return hasTargets ? best : last;
}

/** Number of edges on the path to the reached target of the last search. */
export function pathEdgeCount(): i32 {
  if (bestTarget < 0) return 0;
  let v = tgtNode[bestTarget];
  let count = 0;
  while (true) {
    const e = load<i32>(parentPtr + (<usize>v << 2));
    if (e < 0) break;
    count++;
    v = load<i32>(gSource + (<usize>e << 2));
  }
  return count;
}

/** Writes the path's edge ids (i32, source → target order) at `out`; returns the count. */
export function writePath(out: usize): i32 {
  const count = pathEdgeCount();
  if (count == 0) return 0;
  let v = tgtNode[bestTarget];
  let i = count - 1;
  while (i >= 0) {
    const e = load<i32>(parentPtr + (<usize>v << 2));
    store<i32>(out + (<usize>i << 2), e);
    v = load<i32>(gSource + (<usize>e << 2));
    i--;
  }
  return count;
}

/** Source node of the path (after `writePath`): the source the path starts from. */
export function pathSource(): i32 {
  if (bestTarget < 0) return -1;
  let v = tgtNode[bestTarget];
  while (true) {
    const e = load<i32>(parentPtr + (<usize>v << 2));
    if (e < 0) return v;
    v = load<i32>(gSource + (<usize>e << 2));
  }
}

/** Copies the last search's costs as f32 (Infinity where unreached) into `out` (n entries). */
export function copyDistances(out: usize): void {
  for (let v: usize = 0; v < <usize>gN; v++) {
    const ok = load<i32>(stampPtr + (v << 2)) == stamp && load<i32>(posPtr + (v << 2)) == -1;
    store<f32>(out + (v << 2), ok ? <f32>load<f64>(distPtr + (v << 3)) : Infinity);
  }
}

export * from './snap';
export * from './ch';
