// A task for a pool's worker, for benchmarks only: a full garbage collection in that worker (the process runs with
// --expose-gc, whose flag every worker isolate shares), so a timed loop there starts on a clean heap as the one-thread
// contender's does. Answers the worker's thread id, or null when the collector was not reachable.
import { threadId } from 'node:worker_threads';

export default function collectGarbage() {
  if (typeof globalThis.gc !== 'function') return null;
  globalThis.gc();
  return threadId;
}
