// Lapsed soft locks are removed and announced (lock.expired) by a periodic sweep, so that a planner sees a
// lock go when its holder walks away, not only when someone next touches the itinerary.

import type { Repositories } from '../../../data/repositories.js';
import type { UnitOfWork } from '../../core/unit-of-work.js';
import { lockEvents } from './lock-service.js';

/** How often lapsed locks are swept (locks live 120 s; a lapse is announced within this much of it). */
export const LOCK_SWEEP_INTERVAL_MS = 5_000;

interface SweepDeps {
  stores: Pick<Repositories, 'locks'>;
  writes: UnitOfWork;
}

/** Removes every lock lapsed by `now` in one write and announces each holder's as lock.expired. */
export function sweepLapsedLocks(deps: SweepDeps, now = Date.now()): Promise<number> {
  return deps.writes.write(async ({ emit }) => {
    const lapsed = await deps.stores.locks.expire(now);
    for (const event of lockEvents('lock.expired', lapsed)) emit(event);
    return lapsed.length;
  });
}

/** Sweeps every `intervalMs` until the returned function is called; a failed sweep is reported and retried. */
export function startLockSweeper(deps: SweepDeps, onError: (error: unknown) => void, intervalMs = LOCK_SWEEP_INTERVAL_MS): () => void {
  const timer = setInterval(() => sweepLapsedLocks(deps).catch(onError), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
