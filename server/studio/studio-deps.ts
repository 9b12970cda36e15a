// What every Studio route module receives from the composition root (server/app.ts).

import type { Stores } from '../../data/stores/stores.js';
import type { WorkerPool } from '../../workers/pool.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { WriteBatcher } from '../write-batcher.js';

export interface StudioDeps {
  stores: Stores;
  /** Group commit: every Studio write goes through `writes.write(() => …)` and is answered after its commit. */
  writes: WriteBatcher;
  /** The worker pool (routing smart segments, snapping); undefined only in tests that need no routing. */
  pool: WorkerPool | undefined;
  config: Config;
  logger: Logger;
}
