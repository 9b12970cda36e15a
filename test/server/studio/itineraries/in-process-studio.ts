// The whole app in-process on an in-memory database, with a real worker pool routing on the demo region:
// for tests that drive many operations fast (properties) or need a fake clock (lock expiry).

import { openDatabase, type Database } from '../../../../data/db.js';
import { seedDemo, type SeedResult } from '../../../../data/seed.js';
import { createStores } from '../../../../data/stores/stores.js';
import { buildApp, type App } from '../../../../server/app.js';
import { DEFAULTS } from '../../../../server/config.js';
import { createLogger } from '../../../../server/logger.js';
import { createPool, taskFilesIn, type WorkerPool } from '../../../../server/pool/pool.js';
import { injectClient, type Send } from './chain-helpers.js';
import { sqliteStorage } from '../../../../server/storage.js';

const TASKS = new URL('../../../../dist/workers/', import.meta.url);

export interface InProcessStudio {
  app: App;
  /** The connection under the app (what SQLite holds, whether a transaction is open). */
  db: Database;
  /** The demo organization: owner, publishable key, collection. */
  seeded: SeedResult;
  /** A second member of the demo organization, a contributor. */
  otherId: string;
  /** A client sending through the pipeline with these headers. */
  client(headers: Record<string, string>): Send;
  close(): Promise<void>;
}

export async function startInProcessStudio(): Promise<InProcessStudio> {
  const db: Database = openDatabase(':memory:');
  const pool: WorkerPool = createPool({ taskFile: taskFilesIn(TASKS), maxThreads: 1, env: { ...process.env, REGION_PATH: '' } });
  const app = buildApp({
    config: { ...DEFAULTS, logLevel: 'error' },
    storage: sqliteStorage(db),
    pool,
    logger: createLogger('silent'),
    signingSecret: 'x'.repeat(40),
  });
  const seeded = await seedDemo(app.stores, app.writes, { ownerPassword: 'irrelevant-password' });
  // Set up directly on the connection (the app's own stores answer asynchronously).
  const stores = createStores(db);
  const otherId = stores.users.create({ email: 'other@demo.test', password: 'other-password-1' }).id;
  stores.memberships.add(seeded.organization.id, otherId, 'contributor');
  return {
    app,
    db,
    seeded,
    otherId,
    client: (headers) => injectClient(app.handle, headers),
    async close() {
      await pool.close();
      db.close();
    },
  };
}
