// Group commit: writes of one event-loop turn share a transaction; each rolls back alone on failure;
// each caller learns of its write only after the commit.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteBatcher } from '../../server/write-batcher.js';

let dir: string;
let db: Database.Database;
let reader: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-batch-'));
  db = new Database(join(dir, 'db.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  reader = new Database(join(dir, 'db.sqlite'), { readonly: true });
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = () => (reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

describe('the write batcher', () => {
  it('commits all writes of one turn in one transaction, and answers only after the commit', async () => {
    const batcher = createWriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const seenAtAnswer: number[] = [];
    const writes = ['a', 'b', 'c'].map((v) =>
      batcher.write(() => insert.run(v).changes).then((changes) => {
        seenAtAnswer.push(count()); // another connection sees the row when the caller is answered
        return changes;
      }),
    );
    expect(count()).toBe(0); // nothing committed yet in this turn
    expect(db.inTransaction).toBe(true);
    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    expect(seenAtAnswer).toEqual([3, 3, 3]);
    expect(db.inTransaction).toBe(false);
  });

  it('a failing write rolls back alone and rejects; the others of the batch commit', async () => {
    const batcher = createWriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const ok1 = batcher.write(() => insert.run('x'));
    const bad = batcher.write(() => {
      insert.run('y'); // written, then undone with its savepoint
      insert.run('x'); // UNIQUE violation
    });
    const ok2 = batcher.write(() => insert.run('z'));
    await expect(bad).rejects.toThrow(/UNIQUE/);
    await Promise.all([ok1, ok2]);
    expect(reader.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 'x' }, { v: 'z' }]);
  });

  it('writes of different turns land in different transactions', async () => {
    const batcher = createWriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    await batcher.write(() => insert.run('first'));
    expect(count()).toBe(1);
    await batcher.write(() => insert.run('second'));
    expect(count()).toBe(2);
  });

  it('settled() waits for an open batch, so a read never reports uncommitted data', async () => {
    const batcher = createWriteBatcher(db);
    void batcher.write(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('pending'));
    expect(count()).toBe(0);
    await batcher.settled();
    expect(count()).toBe(1);
  });

  it('a failed commit rejects every write of the batch and leaves nothing', async () => {
    // A deferred foreign key is checked at COMMIT, so one bad write makes the whole commit fail.
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    db.exec('CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    const errors: unknown[] = [];
    const batcher = createWriteBatcher(db, (e) => errors.push(e));
    const good = batcher.write(() => db.prepare("INSERT INTO t (v) VALUES ('kept?')").run());
    const poison = batcher.write(() => db.prepare('INSERT INTO child (pid) VALUES (999)').run());
    await expect(good).rejects.toThrow(/FOREIGN KEY/);
    await expect(poison).rejects.toThrow(/FOREIGN KEY/);
    expect(errors).toHaveLength(1);
    expect(count()).toBe(0);
    expect(db.inTransaction).toBe(false);
    // The batcher keeps working afterwards.
    await batcher.write(() => db.prepare("INSERT INTO t (v) VALUES ('after')").run());
    expect(count()).toBe(1);
  });
});
