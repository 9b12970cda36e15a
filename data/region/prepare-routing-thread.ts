// A worker thread of the import's routing preparation (prepare-routing.ts): builds contraction hierarchies over the
// core graph it was started with, one per message (a profile's core costs and hazards, an avoid mask), and posts
// the arrays back (transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { buildHierarchy } from '../../geo-wasm/src/routing-ch.js';

export interface HierarchyTask {
  id: number;
  cost: Float32Array;
  hazard: Uint8Array;
  mask: number;
}

const { first, target } = workerData as { first: Uint32Array; target: Uint32Array };

parentPort?.on('message', (task: HierarchyTask) => {
  const t0 = performance.now();
  const h = buildHierarchy({ first, target, cost: task.cost, hazard: task.hazard }, task.mask);
  const arrays = [h.middle, ...Object.values(h.forward), ...Object.values(h.backward)] as ArrayBufferView[];
  parentPort?.postMessage(
    { id: task.id, hierarchy: h, ms: performance.now() - t0 },
    arrays.map((a) => a.buffer as ArrayBuffer),
  );
});
