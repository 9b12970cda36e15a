// Group commit: writes of one event-loop turn share a transaction; each rolls back alone on failure;
// each caller learns of its write only after the commit.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChangeEvent, MemoryChangeEventBus } from '../../../server/core/change-events.js';
import { createUnitOfWork } from '../../../server/core/unit-of-work.js';
import { offThreadWalSync } from '../../../data/wal-sync.js';

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

describe('the unit of work: group commit', () => {
  it('commits all writes of one turn in one transaction, and answers only after the commit', async () => {
    const batcher = createUnitOfWork(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const seenAtAnswer: number[] = [];
    const writes = ['a', 'b', 'c'].map((v) =>
      batcher
        .write(() => insert.run(v).changes)
        .then((changes) => {
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
    const batcher = createUnitOfWork(db);
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
    const batcher = createUnitOfWork(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    await batcher.write(() => insert.run('first'));
    expect(count()).toBe(1);
    await batcher.write(() => insert.run('second'));
    expect(count()).toBe(2);
  });

  it('settled() waits for an open batch, so a read never reports uncommitted data', async () => {
    const batcher = createUnitOfWork(db);
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
    const batcher = createUnitOfWork(db, { onCommitError: (e) => errors.push(e) });
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

/** Resolves after `ms` of real time: a unit awaiting it spans several event-loop turns. */
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the unit of work: asynchronous units on one connection', () => {
  it('runs many units started at once one at a time, each isolated in its savepoint', async () => {
    const uow = createUnitOfWork(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const read = db.prepare('SELECT v FROM t ORDER BY id');
    const seen: string[][] = [];
    // Each unit writes, waits (other units may be queued meanwhile), reads what it sees, then writes again or
    // fails. If two units interleaved, one would see the other's half-done rows or roll them back.
    const units = Array.from({ length: 40 }, (_, i) =>
      uow.write(async () => {
        insert.run(`${i}-a`);
        await later(i % 3);
        seen.push((read.all() as { v: string }[]).map((r) => r.v).filter((v) => v.endsWith('-a') || v.endsWith('-b')));
        if (i % 5 === 0) throw new Error(`unit ${i} refused`);
        insert.run(`${i}-b`);
        return i;
      }),
    );
    const outcomes = await Promise.allSettled(units);
    const kept = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(kept).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 5 !== 0));
    for (const [i, o] of outcomes.entries()) {
      if (o.status === 'rejected') expect(String(o.reason)).toContain(`unit ${i} refused`);
    }
    // Every unit saw the complete result of the units before it and its own first row, nothing half-done.
    for (const [i, rows] of seen.entries()) {
      const before = kept.filter((k) => k < i).flatMap((k) => [`${k}-a`, `${k}-b`]);
      expect(rows).toEqual([...before, `${i}-a`]);
    }
    expect((reader.prepare('SELECT v FROM t ORDER BY id').all() as { v: string }[]).map((r) => r.v)).toEqual(
      kept.flatMap((k) => [`${k}-a`, `${k}-b`]),
    );
    expect(db.inTransaction).toBe(false);
  });

  it('a unit that awaits holds the commit: nothing is committed under it, and it is answered after its commit', async () => {
    const uow = createUnitOfWork(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const quick = uow.write(() => insert.run('quick'));
    let countAtAnswer = -1;
    const slow = uow
      .write(async () => {
        insert.run('slow-1');
        await later(20); // several turns pass: the batch must not commit half of this unit
        expect(count()).toBe(0);
        insert.run('slow-2');
      })
      .then(() => {
        countAtAnswer = count();
      });
    await Promise.all([quick, slow]);
    expect(countAtAnswer).toBe(3);
  });

  it('units started while another awaits join its batch (group commit survives)', async () => {
    let commits = 0; // the sync runs once after each COMMIT
    const uow = createUnitOfWork(db, { syncCommit: async () => void commits++ });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    await Promise.all([
      uow.write(async () => {
        insert.run('a');
        await Promise.resolve();
        insert.run('b');
      }),
      ...['c', 'd', 'e'].map((v) => uow.write(() => insert.run(v))),
    ]);
    expect(commits).toBe(1);
    expect(count()).toBe(5);
  });
});

/** A commit sync the test finishes by hand: `pending` holds one resolver per COMMIT, in commit order. */
function manualSync() {
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  const syncCommit = () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
  return { pending, syncCommit };
}

describe('the unit of work: durability off the event loop', () => {
  it('answers a batch only once its commit is synced, and settled() waits for the sync too', async () => {
    const { pending, syncCommit } = manualSync();
    const uow = createUnitOfWork(db, { syncCommit });
    let answered = false;
    let settled = false;
    const write = uow.write(() => db.prepare("INSERT INTO t (v) VALUES ('a')").run()).then(() => (answered = true));
    await later(5); // the turn ended: COMMIT ran and the sync was started
    expect(pending).toHaveLength(1);
    expect(count()).toBe(1); // committed…
    void uow.settled().then(() => (settled = true));
    await later(5);
    expect(answered).toBe(false); // …but not on disk yet: nobody is told
    expect(settled).toBe(false);
    pending[0]?.resolve();
    await write;
    await later(0);
    expect(settled).toBe(true);
  });

  it('the next batch gathers and commits while a sync is in flight; batches are answered in commit order', async () => {
    const { pending, syncCommit } = manualSync();
    const events: string[] = [];
    const bus = new MemoryChangeEventBus();
    bus.subscribe((e) => events.push((e as { collectionId: string }).collectionId));
    const uow = createUnitOfWork(db, { syncCommit, events: bus });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const order: string[] = [];
    const emitOne = (v: string) => () =>
      uow
        .write(({ emit }) => {
          insert.run(v);
          emit({ type: 'collection.changed', organizationId: 'org', collectionId: v, change: 'updated' });
        })
        .then(() => order.push(v));
    const first = emitOne('first')();
    await later(5);
    const second = emitOne('second')();
    await later(5);
    expect(pending).toHaveLength(2); // two commits, neither answered
    expect(count()).toBe(2);
    pending[1]?.resolve(); // the later sync finishes first
    await later(5);
    expect(order).toEqual([]); // the second batch waits for the first
    pending[0]?.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(events).toEqual(['first', 'second']);
  });

  it('a failed sync rejects the writes of its batch (committed, but perhaps not on disk) and publishes nothing', async () => {
    const { pending, syncCommit } = manualSync();
    const errors: unknown[] = [];
    const bus = new MemoryChangeEventBus();
    const published: ChangeEvent[] = [];
    bus.subscribe((e) => published.push(e));
    const uow = createUnitOfWork(db, { syncCommit, events: bus, onCommitError: (e) => errors.push(e) });
    const write = uow.write(({ emit }) => {
      db.prepare("INSERT INTO t (v) VALUES ('x')").run();
      emit({ type: 'collection.changed', organizationId: 'org', collectionId: 'x', change: 'updated' });
    });
    await later(5);
    pending[0]?.reject(new Error('EIO: fdatasync failed'));
    await expect(write).rejects.toThrow(/EIO/);
    expect(errors).toHaveLength(1);
    expect(published).toEqual([]);
    // Later batches are answered normally once their own sync succeeds.
    const after = uow.write(() => db.prepare("INSERT INTO t (v) VALUES ('y')").run());
    await later(5);
    pending[1]?.resolve();
    await after;
  });

  it('the server connection syncs its WAL itself: NORMAL on the connection, fdatasync after each commit', async () => {
    const sync = offThreadWalSync(db);
    expect(sync).toBeTypeOf('function');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    const uow = createUnitOfWork(db, { syncCommit: sync });
    await uow.write(() => db.prepare("INSERT INTO t (v) VALUES ('durable')").run());
    expect(count()).toBe(1);
    const memory = new Database(':memory:');
    expect(offThreadWalSync(memory)).toBeUndefined(); // nothing to sync
    memory.close();
  });
});

describe('the unit of work: change events', () => {
  const changed = (collectionId: string): ChangeEvent => ({
    type: 'collection.changed',
    organizationId: 'org',
    collectionId,
    change: 'updated',
  });

  it("publishes each unit's events after the commit that holds it, in order, and none of a refused unit", async () => {
    const bus = new MemoryChangeEventBus();
    const uow = createUnitOfWork(db, { events: bus });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const received: { event: ChangeEvent; committedRows: number }[] = [];
    bus.subscribe((event) => received.push({ event, committedRows: count() }));
    const first = uow.write(({ emit }) => {
      insert.run('one');
      emit(changed('one'));
    });
    const refused = uow.write(({ emit }) => {
      insert.run('two');
      emit(changed('two'));
      throw new Error('refused');
    });
    const refusal = expect(refused).rejects.toThrow('refused');
    const third = uow.write(async ({ emit }) => {
      insert.run('three');
      await Promise.resolve();
      emit(changed('three'));
    });
    expect(received).toEqual([]); // nothing before the commit
    await first;
    await refusal;
    await third;
    expect(received.map((r) => r.event)).toEqual([changed('one'), changed('three')]);
    // Listeners run after the commit: another connection already sees both rows.
    expect(received.every((r) => r.committedRows === 2)).toBe(true);
  });

  it('publishes nothing when the commit fails', async () => {
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    db.exec('CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    const bus = new MemoryChangeEventBus();
    const received: ChangeEvent[] = [];
    bus.subscribe((event) => received.push(event));
    const uow = createUnitOfWork(db, { events: bus });
    const good = uow.write(({ emit }) => emit(changed('good')));
    const poison = uow.write(() => db.prepare('INSERT INTO child (pid) VALUES (999)').run());
    await expect(good).rejects.toThrow(/FOREIGN KEY/);
    await expect(poison).rejects.toThrow(/FOREIGN KEY/);
    expect(received).toEqual([]);
  });

  it('a listener that throws is reported and does not fail the committed write', async () => {
    const errors: unknown[] = [];
    const bus = new MemoryChangeEventBus((e) => errors.push(e));
    const received: ChangeEvent[] = [];
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe((event) => received.push(event));
    const uow = createUnitOfWork(db, { events: bus });
    await uow.write(({ emit }) => emit(changed('x')));
    expect(received).toEqual([changed('x')]);
    expect(String(errors[0])).toContain('listener broke');
  });
});
