// Test helper: a migrated in-memory database with every store, or a migrated file in a fresh temp folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../data/db.js';
import { createStores, type Stores } from '../../data/stores/stores.js';

export function memoryStores(): Stores {
  return createStores(openDatabase(':memory:'));
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
