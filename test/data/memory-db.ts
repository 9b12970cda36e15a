// Test helper: a migrated in-memory database with every store, or a migrated file in a fresh temp folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../data/db.js';
import { type Conflict, isConflict } from '../../data/model/conflict.js';
import { createStores, type Stores } from '../../data/stores/stores.js';

/** Every store over a fresh in-memory database, and the connection itself (for tests of what SQLite holds). */
export function memoryStores(): Stores & { db: Database } {
  const db = openDatabase(':memory:');
  return { ...createStores(db), db };
}

export interface TempDatabase {
  dir: string;
  path: string;
  open(): Database;
  cleanup(): void;
}

/** A path to a not-yet-created database file inside a fresh temporary folder. */
export function tempDatabase(): TempDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-db-'));
  const path = join(dir, 'nested', 'platform.db');
  return {
    dir,
    path,
    open: () => openDatabase(path),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The record a store created or updated; fails the test when the store answered a Conflict. */
export function created<T>(result: T | Conflict): T {
  if (isConflict(result)) throw new Error(`unexpected conflict with ${result.conflict}`);
  return result;
}
