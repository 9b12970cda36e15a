// The unit of work on PostgreSQL (DATABASE_URL): each unit is one SERIALIZABLE transaction on a connection of
// its own, so units of several requests, and of several nodes, run side by side and PostgreSQL orders them.
// A unit that collides with another is run again from the start on fresh data (data/pg/pg-database.ts), which
// is why a unit does only database work and announces its changes through `emit`: the events of an attempt
// that rolled back are dropped with it, and those of the committed attempt are published after the commit.
// No group commit here: PostgreSQL groups concurrent commits in its own WAL flush.

import type { PgDatabase } from '../../data/pg/pg-database.js';
import type { ChangeEvent } from './change-events.js';
import type { UnitFn, UnitOfWork, UnitOfWorkOptions } from './unit-of-work.js';

export function createPgUnitOfWork(db: PgDatabase, options: Pick<UnitOfWorkOptions, 'events'> = {}): UnitOfWork {
  /** Units not yet answered: `flush` (shutdown) waits for them. */
  const inFlight = new Set<Promise<unknown>>();
  return {
    write<T>(fn: UnitFn<T>): Promise<T> {
      let events: ChangeEvent[] = [];
      const unit = db
        .transaction(async () => {
          events = [];
          return fn({ emit: (event) => events.push(event) });
        })
        .then((result) => {
          options.events?.publish(events);
          return result;
        });
      const tracked = unit.finally(() => inFlight.delete(tracked));
      tracked.catch(() => undefined); // delivered through `unit`
      inFlight.add(tracked);
      return unit;
    },
    // A read outside a unit never sees an uncommitted write here, and a committed one is durable: nothing to wait for.
    settled: () => Promise.resolve(),
    async flush() {
      await Promise.allSettled([...inFlight]);
    },
  };
}
