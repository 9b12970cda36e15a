// The one boundary every write goes through. Group commit: every unit of work started during one
// event-loop turn joins one SQLite transaction, committed once when the turn ends (one fsync for all of
// them). Each unit runs in its own savepoint, so a failing unit rolls back alone; each caller is answered
// only after the commit that holds its change is on disk, so no response reports a change a crash could
// still lose. After that the units' change events are published, in order; a refused unit publishes nothing.
//
// Durability off the event loop: given `syncCommit` (data/wal-sync.ts), COMMIT only writes the WAL and the
// fsync runs on libuv's thread pool while the next batch already gathers. Batches are answered in commit
// order even when their syncs finish out of order.
//
// Units share one connection, so they run one at a time: a unit that awaits (its repositories answer
// with promises) holds the connection until it settles, and the next unit waits in a queue. Two
// interleaved units would otherwise write inside each other's savepoints. A unit must never await worker
// tasks: plan outside (routing, measuring), write inside.

import type { Database } from '../../data/db.js';
import type { ChangeEvent, ChangeEventBus } from './change-events.js';
import { LinkedList, type ListNode } from '../../lib/linked-list.js';

/** What a unit of work receives: a way to announce what it changed (published after the commit). */
export interface WriteScope {
  emit(event: ChangeEvent): void;
}

export type UnitFn<T> = (scope: WriteScope) => T | Promise<T>;

export interface UnitOfWork {
  /**
   * Runs `fn` as one unit of the current batch and resolves with its result once the batch is committed.
   * If `fn` throws or rejects, its savepoint is rolled back, its events are dropped and the promise
   * rejects with that error (the rest of the batch is unaffected).
   */
  write<T>(fn: UnitFn<T>): Promise<T>;
  /** Resolves once no batch is open: reads that must not observe uncommitted writes wait on it. */
  settled(): Promise<void>;
  /** Commits any open batch now and resolves once it is on disk (shutdown). */
  flush(): Promise<void>;
}

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  events: ChangeEvent[];
}

interface QueuedUnit extends ListNode {
  fn: UnitFn<unknown>;
  resolve: (answer: Promise<unknown>) => void;
}

export interface UnitOfWorkOptions {
  events?: ChangeEventBus;
  onCommitError?: (error: unknown) => void;
  /**
   * Makes a finished COMMIT durable (an fsync of the WAL off the main thread). Without it the connection's
   * own `synchronous` setting decides, inside COMMIT.
   */
  syncCommit?: () => Promise<void>;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export function createUnitOfWork(db: Database, options: UnitOfWorkOptions = {}): UnitOfWork {
  const onCommitError = options.onCommitError ?? (() => undefined);
  const { syncCommit } = options;
  // Statements prepared once: a unit's savepoint and release run on every write.
  const statements = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    savepoint: db.prepare('SAVEPOINT cairn_unit'),
    release: db.prepare('RELEASE cairn_unit'),
    rollbackTo: db.prepare('ROLLBACK TO cairn_unit'),
  };
  let batch: Batch | undefined;
  /** Settles (never rejects) when every committed batch so far is durable and answered. */
  let durable: Promise<void> = Promise.resolve();
  /** A unit is between its savepoint and its release (only async units are ever seen here). */
  let running = false;
  /** The turn ended while a unit was running: commit as soon as it settles. */
  let commitDue = false;
  const queue = new LinkedList<QueuedUnit>();

  const commit = () => {
    if (running) {
      commitDue = true;
      return;
    }
    const closing = batch;
    batch = undefined;
    if (!closing) return;
    try {
      statements.commit.run();
    } catch (error) {
      // A failed COMMIT leaves nothing written: every unit of the batch is answered with the failure.
      if (db.inTransaction) db.exec('ROLLBACK');
      onCommitError(error);
      closing.reject(error);
      return;
    }
    const answer = () => {
      options.events?.publish(closing.events);
      closing.resolve();
    };
    if (!syncCommit) {
      answer();
      return;
    }
    // The sync starts now; the answer waits for it and for every earlier batch's answer (commit order).
    const synced = syncCommit();
    durable = Promise.all([durable, synced]).then(answer, (error: unknown) => {
      // Committed but perhaps not on disk: the callers learn of a failure, never of a change that may vanish.
      onCommitError(error);
      closing.reject(error);
    });
  };

  const begin = (): Batch => {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // rejections are delivered through each unit's own promise
    statements.begin.run();
    batch = { promise, resolve, reject, events: [] };
    setImmediate(commit);
    return batch;
  };

  const rollbackUnit = () => {
    statements.rollbackTo.run();
    statements.release.run();
  };

  /**
   * Runs one unit now. `answer` settles after the commit; `released` is set for a unit that awaited, and
   * settles once its savepoint is released or rolled back (the connection is free for the next unit).
   */
  const runUnit = (fn: UnitFn<unknown>): { answer: Promise<unknown>; released?: Promise<void> } => {
    const current = batch ?? begin();
    const events: ChangeEvent[] = [];
    const scope: WriteScope = { emit: (event) => events.push(event) };
    statements.savepoint.run();
    const release = (value: unknown): unknown => {
      statements.release.run();
      current.events.push(...events);
      return value;
    };
    const afterCommit = (value: unknown) => current.promise.then(() => value);
    let result: unknown;
    try {
      result = fn(scope);
    } catch (error) {
      rollbackUnit();
      return { answer: Promise.reject(error) };
    }
    if (!isPromise(result)) return { answer: afterCommit(release(result)) };
    running = true;
    const unit = result.then(
      (value) => {
        running = false;
        return release(value);
      },
      (error: unknown) => {
        running = false;
        rollbackUnit();
        throw error;
      },
    );
    return {
      answer: unit.then(afterCommit),
      released: unit.then(
        () => undefined,
        () => undefined,
      ),
    };
  };

  const afterAsyncUnit = () => {
    if (commitDue) {
      commitDue = false;
      commit();
    }
    drain();
  };

  /** Starts queued units in order until one awaits; it starts the rest when its savepoint is gone. */
  function drain(): void {
    while (!running && queue.size > 0) {
      const next = queue.shift() as QueuedUnit;
      const { answer, released } = runUnit(next.fn);
      next.resolve(answer);
      if (released) void released.then(afterAsyncUnit);
    }
  }

  return {
    write<T>(fn: UnitFn<T>): Promise<T> {
      return new Promise<T>((resolve) => {
        queue.push({ fn, resolve: resolve as (answer: Promise<unknown>) => void });
        drain();
      });
    },
    settled() {
      // An open batch, and the syncs of committed ones: a read never reports a change not yet on disk.
      return batch
        ? batch.promise.then(
            () => durable,
            () => durable,
          )
        : durable;
    },
    flush() {
      commit();
      return durable;
    },
  };
}
