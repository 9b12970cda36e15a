// Group commit for Studio writes: every write made during one event-loop turn joins one SQLite
// transaction, committed once at the end of the turn (one fsync for all of them). Each write runs in its
// own savepoint, so a failing write rolls back alone; each caller is answered only after the commit that
// holds its change, so no response ever reports a change that a crash could still lose.

import type { Database } from '../data/db.js';

export interface WriteBatcher {
  /**
   * Runs `fn` (synchronous SQLite work) inside the current batch and resolves with its result once the
   * batch is committed. If `fn` throws, its savepoint is rolled back and the promise rejects with that error
   * (the rest of the batch is unaffected).
   */
  write<T>(fn: () => T): Promise<T>;
  /** Resolves once no batch is open: reads that must not observe uncommitted writes wait on it. */
  settled(): Promise<void>;
  /** Commits any open batch now (shutdown). */
  flush(): void;
}

export function createWriteBatcher(db: Database, onCommitError: (error: unknown) => void = () => undefined): WriteBatcher {
  let open: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | undefined;

  const commit = () => {
    const batch = open;
    open = undefined;
    if (!batch) return;
    try {
      db.exec('COMMIT');
      batch.resolve();
    } catch (error) {
      // A failed COMMIT leaves nothing written: every write of the batch is answered with the failure.
      if (db.inTransaction) db.exec('ROLLBACK');
      onCommitError(error);
      batch.reject(error);
    }
  };

  const begin = () => {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // rejections are delivered through each write's own promise
    db.exec('BEGIN IMMEDIATE');
    open = { promise, resolve, reject };
    setImmediate(commit);
    return open;
  };

  return {
    write<T>(fn: () => T): Promise<T> {
      const batch = open ?? begin();
      let result: T;
      try {
        // Inside an open transaction better-sqlite3 runs this as a SAVEPOINT.
        result = db.transaction(fn)();
      } catch (error) {
        return Promise.reject(error);
      }
      return batch.promise.then(() => result);
    },
    settled() {
      return open ? open.promise.catch(() => undefined) : Promise.resolve();
    },
    flush: commit,
  };
}
