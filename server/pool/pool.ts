// The one Piscina pool of the process and its typed runTask: each task runs from its own module
// (TASK_FILES); a full queue answers a `queue_full` failure value, an abort or deadline a `deadline` one and
// a task that threw or a worker that died `worker_failed`. Turning failure values into API errors is
// task-error.ts, beside this file.
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina, type PiscinaTask } from 'piscina';
import type { CancelSignal } from '../../lib/cancel-signal.js';
import { LinkedList, type ListNode } from '../../lib/linked-list.js';
import { LoopPoller } from './loop-poller.js';
import { failure, type TaskFailure } from '../../contracts/task-failure.js';
import { REGION_NOT_HELD } from '../../contracts/region-ref.js';
import { TASK_FILES } from './task-files.js';
import type { TaskInput, TaskName, TaskOutput } from '../../contracts/task-map.js';
import type { TrailTileInput } from '../../contracts/tiles.js';

export interface PoolOptions {
  /**
   * The module (path or file URL) a task runs from. Defaults to its TASK_FILES entry in the workers folder
   * (dist/workers/ in production); tests point it at compiled modules (`taskFilesIn`) or at fixtures.
   * Each worker also loads the module of `ping` (the routing module) as it starts, so that ROUTING_WARM
   * prepares the region then, and a module that cannot load fails the worker's start, not its tasks.
   */
  taskFile: (name: string) => string;
  /** Worker threads; defaults to the number of cores. */
  maxThreads: number;
  /** Workers started at once (the rest on demand); the server starts them all, so each loads its region at start. */
  minThreads: number;
  /** Idle time (ms) before an extra worker exits. */
  idleTimeout: number;
  /**
   * Tasks that may wait for a worker before runTask answers SERVICE_UNAVAILABLE. Piscina's 'auto'
   * (threads², 4 here) turned a burst of 50 routed edits into 503s; tasks take well under a millisecond,
   * so a few hundred waiting costs little latency and sheds load only under real overload.
   */
  maxQueue: number;
  /** Node flags for the workers (tests pass ['--import', 'tsx'] to run the TypeScript sources). */
  execArgv: string[];
  /** Environment of the workers (REGION_PATH, CAIRN_WASM_BUILD); defaults to process.env. */
  env: Record<string, string | undefined>;
  /**
   * What every worker is handed as it starts (piscina's `workerData`, cloned, never transferred): the server's is the
   * region's files in the process's routing memory (workers/region-source.ts, RoutingWorkerData).
   */
  workerData: unknown;
  /**
   * µs the event loop polls rather than sleeps after handing a task to a worker, while the answer is due and a
   * core is free for it (loop-poller.ts); 0 = never.
   */
  pollUs: number;
  /** Cores this process may run on: the loop polls only while fewer tasks than cores are on their way. */
  cores: number;
  /** Told of every unexpected worker failure (a task that threw, a worker that died); the caller gets INTERNAL_ERROR. */
  onWorkerError: (error: unknown) => void;
}

/** Tasks that answer which worker ran them (what everyWorker counts). */
export type EveryWorkerTask = 'ping' | 'dropRegions';

/** How many workers answered a task run on every worker, and the failure that stopped it. */
export interface EveryWorker {
  answered: number;
  failure?: TaskFailure;
}

export interface RunOptions {
  /** Abort from the caller (request aborted or its budget spent). */
  signal?: CancelSignal;
  /** Deadline for this task in ms. */
  timeoutMs?: number;
}

export interface WorkerPool {
  readonly piscina: Piscina;
  runTask<N extends TaskName>(name: N, input: TaskInput<N>, opts?: RunOptions): Promise<TaskOutput<N>>;
  /**
   * Resolves once every one of the `minThreads` workers has started (loaded its task module, and with it the region)
   * and answered a task, or `timeoutMs` has passed, with the number that had; a worker that fails to start is
   * reported as it fails (onWorkerError), and ends the wait.
   */
  started(timeoutMs?: number): Promise<number>;
  /**
   * Runs task `name` until each of the `minThreads` workers has answered it once (or `timeoutMs` has passed), and
   * resolves with the number that did; stops at the first failure, which it gives. The region set hands a new region
   * to every worker this way (a `ping` naming it), and has them drop retired ones (`dropRegions`).
   */
  everyWorker<N extends EveryWorkerTask>(name: N, input: TaskInput<N>, timeoutMs?: number): Promise<EveryWorker>;
  close(): Promise<void>;
}

/** Task modules found by their TASK_FILES names in `directory` (a folder path, or a file URL ending in '/'). */
export function taskFilesIn(directory: string | URL): (name: string) => string {
  const base = typeof directory === 'string' ? pathToFileURL(`${directory.replace(/\/+$/, '')}/`) : directory;
  return (name) => {
    const file = TASK_FILES[name as TaskName];
    if (file === undefined) throw new TypeError(`pool: no task module declares the task ${name}`);
    return new URL(file, base).href;
  };
}

function defaults(): PoolOptions {
  return {
    taskFile: taskFilesIn(new URL('../../workers/', import.meta.url)),
    maxThreads: Math.max(1, availableParallelism()),
    minThreads: 1,
    idleTimeout: 30_000,
    maxQueue: 512,
    execArgv: [],
    env: process.env,
    workerData: undefined,
    pollUs: 0,
    cores: availableParallelism(),
    onWorkerError: () => undefined,
  };
}

/** Creates the pool (call once, from the composition root). */
export function createPool(options: Partial<PoolOptions> = {}): WorkerPool {
  const o = { ...defaults(), ...options };
  if (!Number.isInteger(o.maxThreads) || o.maxThreads < 1) throw new TypeError('pool.maxThreads must be a positive integer');
  if (!(o.idleTimeout > 0)) throw new TypeError('pool.idleTimeout must be a positive number');
  if (!Number.isInteger(o.maxQueue) || o.maxQueue < 1) throw new TypeError('pool.maxQueue must be a positive integer');
  if (!(o.pollUs >= 0)) throw new TypeError('pool.pollUs must be a number ≥ 0');
  const piscina = new Piscina({
    filename: o.taskFile('ping'),
    maxThreads: o.maxThreads,
    minThreads: Math.min(o.minThreads, o.maxThreads),
    maxQueue: o.maxQueue,
    idleTimeout: o.idleTimeout,
    execArgv: o.execArgv,
    env: o.env as Record<string, string>,
    workerData: o.workerData,
    loadBalancer: laneBalancer(o.maxThreads),
  });
  // Tasks handed to piscina and not yet settled, each with the token that can take it off the queue.
  const pending = new LinkedList<CancelToken>();
  let closing = false;
  // While a task is on its way and a core is left for the event loop, the loop polls rather than sleeps.
  const poller =
    o.pollUs > 0 && o.cores > 1 ? new LoopPoller(o.pollUs / 1000, () => pending.size > 0 && pending.size < o.cores) : undefined;
  // Piscina gives a task only to a worker that has started. Once a new worker fails while starting (its task
  // module throws on load), it stops replacing workers, so queued tasks would wait for ever. When a worker
  // is gone and none is left, nothing is running and every queued task fails now (INTERNAL_ERROR); the next
  // task makes piscina start a fresh worker, so a passing fault heals and a lasting one costs a 500 each.
  const failQueuedWhenNoWorker = () =>
    setImmediate(() => {
      if (closing || piscina.threads.length > 0) return;
      for (const token of pending.entries()) token.abort();
    });
  // A worker that fails outside a task (an exception at start-up, a crash) is replaced by piscina; without a
  // listener its 'error' event would take the whole process down.
  piscina.on('error', (error: unknown) => {
    o.onWorkerError(error);
    failQueuedWhenNoWorker();
  });
  piscina.on('workerDestroy', failQueuedWhenNoWorker);
  /** Failures as values: a full queue is `queue_full`, anything else (a bug) `worker_failed`, reported. */
  const mapRunError = (err: unknown, cancel: CancelToken): TaskFailure => {
    // Taken off the queue above: the worker's failure was reported when it happened.
    if (cancel.aborted) return failure('worker_failed', 'no worker could start');
    const message = err instanceof Error ? err.message : String(err);
    if (/queue is at limit/i.test(message)) return failure('queue_full', 'worker queue is full');
    // Expected after a worker restarts: the region's tasks send it again, whole (server/regions/regional-pool.ts).
    if (message.startsWith(REGION_NOT_HELD)) return failure('region_not_held', message);
    o.onWorkerError(err);
    return failure('worker_failed', `the worker failed: ${message}`);
  };
  /** Hands one task to piscina (to the worker of `lane` when given); a failure to run it comes back as a value. */
  const dispatch = <N extends TaskName>(name: N, input: TaskInput<N>, lane?: number): Promise<TaskOutput<N>> => {
    if (lane !== undefined) (input as Laned)[Piscina.queueOptionsSymbol] = { lane };
    const cancel = new CancelToken();
    pending.push(cancel);
    if (poller) poller.poke();
    return (piscina.run(input, { name, filename: fileOf(name), signal: cancel }) as Promise<TaskOutput<N>>)
      .catch((err: unknown) => mapRunError(err, cancel))
      .finally(() => pending.delete(cancel));
  };
  // Fewer tasks on their way than workers: one of them has nothing to do.
  const workerIdle = () => pending.size < o.maxThreads;
  // Routing asked for in one event-loop turn goes to the workers together: one batch task per worker instead
  // of one message round trip (and one structured clone, one promise) per query.
  const batchers: Partial<Record<TaskName, TurnBatcher<unknown, unknown>>> = {
    directions: new TurnBatcher(
      async (inputs: TaskInput<'directions'>[]) => {
        const out = await dispatch('directionsBatch', inputs);
        return out.ok ? out.results : inputs.map(() => out);
      },
      () => o.maxThreads,
      workerIdle,
    ) as TurnBatcher<unknown, unknown>,
    trailTile: new TurnBatcher(
      async (inputs: TaskInput<'trailTile'>[], lane?: number) => {
        const out = await dispatch('trailTileBatch', inputs, lane);
        return out.ok ? out.results : inputs.map(() => out);
      },
      () => o.maxThreads,
      workerIdle,
      tileLane,
    ) as TurnBatcher<unknown, unknown>,
    snapLine: new TurnBatcher(
      async (inputs: TaskInput<'snapLine'>[]) => {
        const out = await dispatch('snapLineBatch', inputs);
        return out.ok ? out.results : inputs.map(() => out);
      },
      () => o.maxThreads,
      workerIdle,
    ) as TurnBatcher<unknown, unknown>,
  };
  // Resolved once per task name: runTask is on every request's path.
  const files = new Map<string, string>();
  const fileOf = (name: string): string => {
    let file = files.get(name);
    if (file === undefined) files.set(name, (file = o.taskFile(name)));
    return file;
  };
  // A task goes to an idle worker that has started; until every worker has answered, rounds of the task find the ones
  // that have not. A worker that fails (to start, or the task) fails its round and ends the wait.
  const everyWorker = async <N extends EveryWorkerTask>(name: N, input: TaskInput<N>, timeoutMs = 120_000): Promise<EveryWorker> => {
    const want = Math.min(o.minThreads, o.maxThreads);
    const answered = new Set<number>();
    const end = performance.now() + timeoutMs;
    while (answered.size < want && performance.now() < end) {
      const round = await Promise.all(Array.from({ length: want }, () => dispatch(name, input)));
      for (const answer of round) {
        if (!answer.ok) return { answered: answered.size, failure: answer };
        answered.add(answer.threadId);
      }
      if (answered.size < want) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { answered: answered.size };
  };
  return {
    piscina,
    async runTask<N extends TaskName>(name: N, input: TaskInput<N>, opts: RunOptions = {}): Promise<TaskOutput<N>> {
      if (piscina.queueSize >= o.maxQueue) return failure('queue_full', 'worker queue is full');
      if (opts.timeoutMs !== undefined && opts.timeoutMs <= 0) return failure('deadline', 'task deadline passed before it started');
      if (opts.signal?.aborted) return failure('deadline', 'task deadline passed before it started');
      // The caller's signal is NOT handed to piscina: aborting a running task there terminates its worker
      // (which then reloads the region), and a result already posted by that worker surfaces as an uncaught
      // "Unexpected message from Worker" error. Routing tasks are short, so an abandoned one simply
      // finishes and its result is dropped; the caller gets its answer at once. Piscina gets only `cancel`,
      // which fires only when no worker exists, so it only ever takes a task off the queue.
      const batcher = batchers[name];
      const task = batcher ? (batcher.add(input) as Promise<TaskOutput<N>>) : dispatch(name, input);
      const { signal, timeoutMs } = opts;
      if (!signal && timeoutMs === undefined) return task;
      return new Promise<TaskOutput<N>>((resolve) => {
        const onAbort = () => {
          settle();
          resolve(failure('deadline', 'task aborted or past its deadline'));
        };
        const timer = timeoutMs === undefined ? undefined : setTimeout(onAbort, timeoutMs);
        const settle = () => {
          signal?.removeEventListener('abort', onAbort);
          clearTimeout(timer);
        };
        signal?.addEventListener('abort', onAbort);
        task.then((out) => {
          settle();
          resolve(out);
        });
      });
    },
    async started(timeoutMs = 120_000): Promise<number> {
      return (await everyWorker('ping', {}, timeoutMs)).answered;
    },
    everyWorker,
    close: () => {
      closing = true;
      return piscina.close();
    },
  };
}

/**
 * What piscina needs of a task's abort signal (`aborted`, `reason`, one 'abort' listener), without an
 * AbortController per task: one costs ~10 µs on Node 20 and stays alive until a major collection. The tokens of
 * the tasks on their way are a list linked through themselves (see lib/linked-list.ts: a Set's old
 * tables would keep settled tasks alive past young-generation collections).
 */
class CancelToken implements ListNode {
  listPrevious?: ListNode;
  listNext?: ListNode;
  listed?: boolean;
  aborted = false;
  reason: unknown;
  #listener: (() => void) | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = undefined;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new Error('no worker could start');
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }
}

/** Most queries in one batch task: a long batch would hold one worker while the other idles. */
const MAX_BATCH = 32;

/** A task input carrying its lane where piscina's balancer reads it (a symbol: the structured clone leaves it out). */
type Laned = { [key: symbol]: { lane: number } | null };

/**
 * The zoom whose tile decides which worker cuts a deep trail tile (z15–z16, from its z14 ancestor): every tile under
 * one z12 tile (~7 km here) goes to one worker, so a burst in one neighbourhood is cut by one worker while
 * neighbouring z12 tiles alternate between workers. (Before the tile archive each worker sliced the tiles of its own
 * index, and a tile made where its ancestors were sliced cost less: 27–37 ms for Andorra's 240 cold tiles by lane
 * against 33–46 ms at random.)
 */
const TILE_LANE_ZOOM = 12;

/** The lane of a trail tile: its z12 ancestor (or itself above z12), numbered so that neighbours differ. */
export function tileLane({ z, x, y }: TrailTileInput): number {
  const scale = 2 ** Math.max(0, z - TILE_LANE_ZOOM);
  const lane = Math.floor(x / scale) * 7 + Math.floor(y / scale) * 13;
  // Coordinates are checked in the worker; a lane is only a preference, so a bad one goes anywhere.
  return Number.isSafeInteger(lane) && lane >= 0 ? lane : 0;
}

/**
 * Piscina's balancer with lanes: a task with a lane goes to worker `lane % threads` in thread-id order (queued behind
 * its current task when busy: its tiles are there) once every worker has started; anything else, or a lane before
 * then, to an idle worker (none: it waits in piscina's queue, which also makes piscina start the missing workers).
 */
function laneBalancer(threads: number) {
  return <W extends PiscinaWorkerView>(task: PiscinaTask, workers: W[]): W | null => {
    const lane = ((task as unknown as Laned)[Piscina.queueOptionsSymbol] as { lane?: number } | null)?.lane;
    if (lane !== undefined && workers.length === threads) {
      // By thread id: piscina lists its workers in start order on one path and in ready order on another.
      const rank = lane % threads;
      for (const worker of workers) {
        let below = 0;
        for (const other of workers) if (other.id < worker.id) below++;
        if (below !== rank) continue;
        if (!worker.terminating && !worker.destroyed) return worker;
        break; // a worker on its way out: the tile goes to an idle one
      }
    }
    for (const worker of workers) if (worker.currentUsage === 0 && !worker.terminating && !worker.destroyed) return worker;
    return null;
  };
}

/** What the balancer reads of a piscina worker (piscina's PiscinaWorker, not exported from its entry point). */
interface PiscinaWorkerView {
  id: number;
  currentUsage: number;
  terminating: boolean;
  destroyed: boolean;
}

/**
 * Runs calls in batches: while a worker is idle (`idle()`), a call goes at once as a batch of one, so a lone
 * query waits for no one; when every worker is busy, the calls of one event-loop turn are collected and run
 * as batches split evenly over `workers()` batches of at most MAX_BATCH. Each caller gets its own result.
 */
class TurnBatcher<I, O> {
  #waiting: { input: I; resolve: (out: O) => void }[] = [];
  #scheduled = false;

  constructor(
    private readonly runBatch: (inputs: I[], lane?: number) => Promise<O[]>,
    private readonly workers: () => number,
    private readonly idle: () => boolean,
    /** Calls of one lane go to one worker, in batches of their own (see tileLane). */
    private readonly laneOf?: (input: I) => number,
  ) {}

  add(input: I): Promise<O> {
    if (!this.#scheduled && this.idle()) return this.runBatch([input], this.laneOf?.(input)).then((results) => results[0] as O);
    return new Promise<O>((resolve) => {
      this.#waiting.push({ input, resolve });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const all = this.#waiting;
    this.#waiting = [];
    const laneOf = this.laneOf;
    if (!laneOf) {
      this.#split(all, this.workers());
      return;
    }
    // By worker: the lanes that share one go in the same batches.
    const byWorker = new Map<number, typeof all>();
    for (const waiting of all) {
      const lane = laneOf(waiting.input) % this.workers();
      const list = byWorker.get(lane);
      if (list) list.push(waiting);
      else byWorker.set(lane, [waiting]);
    }
    for (const [lane, list] of byWorker) this.#split(list, 1, lane);
  }

  /** Runs `all` as at least `spread` batches (one per worker) of at most MAX_BATCH each. */
  #split(all: { input: I; resolve: (out: O) => void }[], spread: number, lane?: number): void {
    const batches = Math.max(Math.min(spread, all.length), Math.ceil(all.length / MAX_BATCH));
    const size = Math.ceil(all.length / batches);
    for (let start = 0; start < all.length; start += size) {
      const part = all.slice(start, start + size);
      void this.runBatch(
        part.map((w) => w.input),
        lane,
      ).then((results) => {
        for (const [i, w] of part.entries()) w.resolve(results[i] as O);
      });
    }
  }
}
