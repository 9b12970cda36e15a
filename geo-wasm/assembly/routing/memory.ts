// Scratch memory of the routing kernels: per-node search state, the binary heap, the settled list.
// Graph arrays themselves are allocated by the host through `alloc` and stay resident.

/** Capacity (nodes) of the scratch arrays; grows only. */
export let scratchNodes: i32 = 0;
/** f64 tentative cost per node. */
export let distPtr: usize = 0;
/** i32 parent edge per node (-1 at a source). */
export let parentPtr: usize = 0;
/** i32 search stamp per node: dist/parent/heuristic are valid only when stamp == current stamp. */
export let stampPtr: usize = 0;
/** i32 heap position per node (-1 = settled or not in heap). */
export let posPtr: usize = 0;
/** f64 heuristic per node (A*). */
export let hPtr: usize = 0;
/** Heap: i32 node and f64 key per slot. */
export let heapNodePtr: usize = 0;
export let heapKeyPtr: usize = 0;
/** i32 settled nodes in settle order (for reachable areas). */
export let settledPtr: usize = 0;

/** Ensures the scratch arrays hold at least `n` nodes (they are reallocated, never shrunk). */
export function ensureScratch(n: i32): void {
  if (n <= scratchNodes) return;
  const cap = <usize>n;
  distPtr = heap.alloc(cap << 3);
  parentPtr = heap.alloc(cap << 2);
  stampPtr = heap.alloc(cap << 2);
  memory.fill(stampPtr, 0, cap << 2);
  posPtr = heap.alloc(cap << 2);
  hPtr = heap.alloc(cap << 3);
  heapNodePtr = heap.alloc((cap + 1) << 2);
  heapKeyPtr = heap.alloc((cap + 1) << 3);
  settledPtr = heap.alloc(cap << 2);
  scratchNodes = n;
}
