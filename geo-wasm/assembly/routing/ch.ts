// Contraction-hierarchy query: bidirectional Dijkstra over upward edges only. The hierarchy is
// built by the host (geo-wasm/src/routing-ch.ts); each upward edge is a record the host unpacks:
// forward edge i is record i, backward edge j record (forward edge count) + j.

/** One direction's search state: stamps, costs, parent records and an indexed binary heap. */
class Side {
  n: i32 = 0;
  stamp: i32 = 0;
  stampPtr: usize = 0;
  distPtr: usize = 0;
  parentPtr: usize = 0;
  posPtr: usize = 0;
  heapNode: usize = 0;
  heapKey: usize = 0;
  size: i32 = 0;

  ensure(n: i32): void {
    if (n <= this.n) return;
    const c = <usize>n;
    this.stampPtr = heap.alloc(c << 2);
    memory.fill(this.stampPtr, 0, c << 2);
    this.distPtr = heap.alloc(c << 3);
    this.parentPtr = heap.alloc(c << 2);
    this.posPtr = heap.alloc(c << 2);
    this.heapNode = heap.alloc((c + 1) << 2);
    this.heapKey = heap.alloc((c + 1) << 3);
    this.n = n;
  }

  begin(): void {
    this.stamp++;
    if (this.stamp == 0x7fffffff) {
      memory.fill(this.stampPtr, 0, <usize>this.n << 2);
      this.stamp = 1;
    }
    this.size = 0;
  }

  has(v: i32): bool {
    return load<i32>(this.stampPtr + (<usize>v << 2)) == this.stamp;
  }

  dist(v: i32): f64 {
    return load<f64>(this.distPtr + (<usize>v << 3));
  }

  top(): f64 {
    return this.size > 0 ? load<f64>(this.heapKey) : Infinity;
  }

  up(i: i32): void {
    const node = load<i32>(this.heapNode + (<usize>i << 2));
    const key = load<f64>(this.heapKey + (<usize>i << 3));
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = load<f64>(this.heapKey + (<usize>p << 3));
      if (pk <= key) break;
      const pn = load<i32>(this.heapNode + (<usize>p << 2));
      store<i32>(this.heapNode + (<usize>i << 2), pn);
      store<f64>(this.heapKey + (<usize>i << 3), pk);
      store<i32>(this.posPtr + (<usize>pn << 2), i);
      i = p;
    }
    store<i32>(this.heapNode + (<usize>i << 2), node);
    store<f64>(this.heapKey + (<usize>i << 3), key);
    store<i32>(this.posPtr + (<usize>node << 2), i);
  }

  pop(): i32 {
    const top = load<i32>(this.heapNode);
    store<i32>(this.posPtr + (<usize>top << 2), -1);
    this.size--;
    const size = this.size;
    if (size > 0) {
      const node = load<i32>(this.heapNode + (<usize>size << 2));
      const key = load<f64>(this.heapKey + (<usize>size << 3));
      let i: i32 = 0;
      while (true) {
        let c = 2 * i + 1;
        if (c >= size) break;
        let ck = load<f64>(this.heapKey + (<usize>c << 3));
        if (c + 1 < size) {
          const ck2 = load<f64>(this.heapKey + (<usize>(c + 1) << 3));
          if (ck2 < ck) {
            c++;
            ck = ck2;
          }
        }
        if (ck >= key) break;
        const cn = load<i32>(this.heapNode + (<usize>c << 2));
        store<i32>(this.heapNode + (<usize>i << 2), cn);
        store<f64>(this.heapKey + (<usize>i << 3), ck);
        store<i32>(this.posPtr + (<usize>cn << 2), i);
        i = c;
      }
      store<i32>(this.heapNode + (<usize>i << 2), node);
      store<f64>(this.heapKey + (<usize>i << 3), key);
      store<i32>(this.posPtr + (<usize>node << 2), i);
    }
    return top;
  }

  /** Reaches v with cost d over record r (-1 at an endpoint). */
  reach(v: i32, d: f64, r: i32): void {
    const vo = <usize>v;
    if (load<i32>(this.stampPtr + (vo << 2)) != this.stamp) {
      store<i32>(this.stampPtr + (vo << 2), this.stamp);
      store<f64>(this.distPtr + (vo << 3), d);
      store<i32>(this.parentPtr + (vo << 2), r);
      store<i32>(this.heapNode + (<usize>this.size << 2), v);
      store<f64>(this.heapKey + (<usize>this.size << 3), d);
      this.size++;
      this.up(this.size - 1);
      return;
    }
    const pos = load<i32>(this.posPtr + (vo << 2));
    if (pos < 0) return;
    if (d < load<f64>(this.distPtr + (vo << 3))) {
      store<f64>(this.distPtr + (vo << 3), d);
      store<i32>(this.parentPtr + (vo << 2), r);
      store<f64>(this.heapKey + (<usize>pos << 3), d);
      this.up(pos);
    }
  }
}

const fwd = new Side();
const bwd = new Side();

// Upward graphs: CSR first (u32[n+1]), target (u32), weight (f32); the record of the backward graph's edge j.
let chN: i32 = 0;
let fFirst: usize = 0;
let fTarget: usize = 0;
let fWeight: usize = 0;
let bFirst: usize = 0;
let bTarget: usize = 0;
let bWeight: usize = 0;
let bRecBase: i32 = 0;

/** Selects the hierarchy searched by `chSearch` (forward-up and backward-up CSR graphs, `fe` forward edges). */
export function useHierarchy(n: i32, ff: usize, ft: usize, fw: usize, bf: usize, bt: usize, bw: usize, fe: i32): void {
  chN = n;
  fFirst = ff;
  fTarget = ft;
  fWeight = fw;
  bFirst = bf;
  bTarget = bt;
  bWeight = bw;
  bRecBase = fe;
  fwd.ensure(n);
  bwd.ensure(n);
}

let meetNode: i32 = -1;

/** Starts a hierarchy query. */
export function chBegin(): void {
  fwd.begin();
  bwd.begin();
  meetNode = -1;
}
/** Adds a source with its initial cost. */
export function chSource(v: i32, cost: f64): void {
  fwd.reach(v, cost, -1);
}
/** Adds a target with the cost still to pay from it. */
export function chTarget(v: i32, cost: f64): void {
  bwd.reach(v, cost, -1);
}

function expand(side: Side, other: Side, first: usize, target: usize, weight: usize, recBase: i32, best: f64): f64 {
  const d = side.top();
  const v = side.pop();
  if (other.has(v)) {
    const c = d + other.dist(v);
    if (c < best) {
      best = c;
      meetNode = v;
    }
  }
  const vo = <usize>v;
  const end = load<u32>(first + ((vo + 1) << 2));
  for (let e = load<u32>(first + (vo << 2)); e < end; e++) {
    const eo = <usize>e;
    side.reach(load<i32>(target + (eo << 2)), d + <f64>load<f32>(weight + (eo << 2)), recBase + <i32>e);
  }
  return best;
}

/** Runs the query; returns the cheapest source → target cost (Infinity when none). */
export function chSearch(): f64 {
  let best: f64 = Infinity;
  while (true) {
    const tf = fwd.top();
    const tb = bwd.top();
    if ((tf < tb ? tf : tb) >= best) break;
    if (tf <= tb) best = expand(fwd, bwd, fFirst, fTarget, fWeight, 0, best);
    else best = expand(bwd, fwd, bFirst, bTarget, bWeight, bRecBase, best);
  }
  return best;
}

/** Node where the two searches met (-1 when none). */
export function chMeet(): i32 {
  return meetNode;
}
/** Parent records per node of the forward (0) or backward (1) search; valid along the path only. */
export function chParents(side: i32): usize {
  return side == 0 ? fwd.parentPtr : bwd.parentPtr;
}
