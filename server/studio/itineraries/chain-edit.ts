// The one way a chain changes: plan (checks ids and locks; may first project on the worker pool), build the
// new chain (may route or measure on the pool), then one unit of work that re-checks the locks, writes the
// difference, bumps the draft version and locks what it created. Edits of one itinerary run one at a time in
// a process, so a plan rarely works on a stale chain; when one does (another node of a scaled-out deployment
// edited the itinerary after this plan read it, seen as a newer draft version in the unit), the edit is
// planned again on the new chain. A refused edit (lock conflict, bad input, unroutable line) changes nothing.

import type { LockPart } from '../../../data/model/lock.js';
import type { Activity, Itinerary } from '../../../data/model/itinerary.js';
import type { Access } from '../../auth/access.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Chain, cloneChain, loadChain, saveChain, sealChain } from './chain.js';
import type { RouteContext } from './chain-routing.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { itineraryView } from './itinerary-view.js';
import { allParts, expireLocks, lockEvents, renewLocks, requireLocks } from './lock-service.js';
import type { CancelSignal } from '../../../lib/cancel-signal.js';

export interface EditPlan {
  /** Parts the caller must hold a lock on (empty: the operation is not lock-guarded). */
  guard: LockPart[];
  /**
   * Pool work the plan's checks depend on (a split's projection), run before the locks are checked; may
   * refuse the edit as the plan itself would.
   */
  prepare?(route: RouteContext): Promise<void>;
  /** Builds the next chain from a private copy of the current one. */
  build(chain: Chain, route: RouteContext): Chain | Promise<Chain>;
}

export interface EditResult {
  itinerary: Itinerary;
  chain: Chain;
  view: ItineraryView;
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has settled. */
function exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

export interface EditOptions {
  signal?: CancelSignal;
  /** Route for this activity instead of the itinerary's (an activity change re-routes with the new one). */
  activity?: Activity;
  /** More work for the same unit of work (the record's own fields), run after the chain is saved. */
  alsoWrite?: () => Promise<unknown>;
}

export async function editChain(
  deps: StudioDeps,
  access: Access,
  itineraryId: string,
  plan: (chain: Chain, itinerary: Itinerary) => EditPlan,
  options: EditOptions = {},
): Promise<EditResult> {
  const { actor } = await deps.policy.writableItinerary(access, itineraryId);
  const attempt = () => exclusive(itineraryId, () => planAndWrite(deps, actor, itineraryId, plan, options));
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StaleChain) || tries >= MAX_PLANS) throw error;
    }
  }
}

/** The chain changed while the plan read it or before its unit of work (another node wrote it). */
class StaleChain extends Error {}
/** Plans of one edit before a chain that keeps changing under it is reported as a failure. */
const MAX_PLANS = 5;

async function planAndWrite(
  deps: StudioDeps,
  actor: string,
  itineraryId: string,
  plan: (chain: Chain, itinerary: Itinerary) => EditPlan,
  options: EditOptions,
): Promise<EditResult> {
  const stores = deps.stores;
  await deps.writes.settled();
  const itinerary = await deps.stores.itineraries.get(itineraryId);
  if (!itinerary) throw new ApiError('NOT_FOUND');
  const before = await loadChain(stores, itineraryId);
  // The chain's waypoints, segments and groups are three statements (on PostgreSQL, perhaps three connections): an
  // edit another node commits between them gives a torn chain. Every edit bumps the draft version in its unit of
  // work, so the same version read after them as before means they saw one state; otherwise plan again.
  if ((await deps.stores.itineraries.get(itineraryId))?.draftVersion !== itinerary.draftVersion) throw new StaleChain();
  const route = { deps, activity: options.activity ?? itinerary.activity, signal: options.signal };
  const p = plan(before, itinerary);
  // Pool tasks (prepare, build) run here, before the write: the unit of work never waits for one.
  await p.prepare?.(route);
  await requireLocks(deps, itineraryId, actor, p.guard);
  const after = sealChain(await p.build(cloneChain(before), route));
  return deps.writes.write(async (scope): Promise<EditResult> => {
    const current = await deps.stores.itineraries.get(itineraryId);
    if (!current) throw new ApiError('NOT_FOUND');
    if (current.draftVersion !== itinerary.draftVersion) throw new StaleChain();
    const now = Date.now();
    await expireLocks(deps, itineraryId, now, scope);
    await requireLocks(deps, itineraryId, actor, p.guard, now);
    await saveChain(stores, itineraryId, before, after);
    await options.alsoWrite?.();
    const updated = (await deps.stores.itineraries.bumpDraftVersion(itineraryId)) as Itinerary;
    const version = updated.draftVersion;
    scope.emit({ type: 'itinerary.draft_changed', organizationId: itinerary.organizationId, itineraryId, version });
    const kept = new Set(allParts(after).map((x) => `${x.type}:${x.id}`));
    const existed = new Set(allParts(before).map((x) => `${x.type}:${x.id}`));
    const gone = allParts(before).filter((x) => !kept.has(`${x.type}:${x.id}`));
    // Locks on parts the edit removed go with them.
    if (gone.length > 0)
      for (const event of lockEvents('lock.released', await deps.stores.locks.dropParts(itineraryId, gone))) scope.emit(event);
    const renew = [
      ...p.guard.filter((x) => kept.has(`${x.type}:${x.id}`)),
      ...allParts(after).filter((x) => !existed.has(`${x.type}:${x.id}`)),
    ];
    await renewLocks(deps, itineraryId, actor, renew, now, scope);
    return { itinerary: updated, chain: after, view: itineraryView(updated, after) };
  });
}
