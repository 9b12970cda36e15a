// What every Studio route module receives from the composition root (server/app.ts).

import type { Repositories } from '../../data/repositories.js';
import type { WorkerPool } from '../pool/pool.js';
import type { Config } from '../config.js';
import type { Policy } from '../core/policy.js';
import type { Logger } from '../logger.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import type { ItineraryViewCache } from './itineraries/itinerary-view-cache.js';

export interface StudioDeps {
  stores: Repositories;
  /** The unit of work: every write goes through `writes.write(async (scope) => …)` and is answered after its commit. */
  writes: UnitOfWork;
  /** The worker pool (routing smart segments, snapping); undefined only in tests that need no routing. */
  pool: WorkerPool | undefined;
  /** Who may read, write or list what (server/core/policy.ts). */
  policy: Policy;
  /** Itinerary views by version, shared by every read. */
  views: ItineraryViewCache;
  config: Config;
  logger: Logger;
}
