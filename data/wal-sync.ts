// Commit durability off the event loop. With synchronous=FULL, SQLite fsyncs the WAL inside every COMMIT,
// and the server's one thread waits for the disk (~0.3–1 ms a commit here) while requests queue. With
// synchronous=NORMAL it skips exactly that fsync (checkpoints and WAL restarts are still synced), so
// NORMAL plus an fdatasync of the WAL after each COMMIT, done before anyone is told of the change, gives
// FULL's guarantee: an answered write survives a power cut. The fdatasync runs on libuv's thread pool.

import { fdatasync, openSync } from 'node:fs';
import type { Database } from './db.js';

/**
 * Takes over the commit fsync of `db`'s connection: switches it to synchronous=NORMAL and returns the sync
 * to run after each COMMIT (resolving once everything committed so far is on disk). Undefined for an
 * in-memory or non-WAL database, whose commits are left as they are.
 */
export function offThreadWalSync(db: Database): (() => Promise<void>) | undefined {
  if (db.memory || String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return undefined;
  db.pragma('synchronous = NORMAL');
  let fd: number | undefined;
  return () =>
    new Promise<void>((resolve, reject) => {
      // Opened on first use: the -wal file exists once the first transaction wrote to it.
      fd ??= openSync(`${db.name}-wal`, 'r+');
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
}
