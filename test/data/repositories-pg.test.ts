// The PostgreSQL adapter passes the repository contract and every aggregate's contract cases, each case on a
// fresh, migrated schema of the local PostgreSQL. Without one the suite skips and says why (CI has one).

import { describe, it } from 'vitest';
import { PgDatabase } from '../../data/pg/pg-database.js';
import { applyPgMigrations } from '../../data/pg/pg-migrate.js';
import { createPgRepositories } from '../../data/pg/pg-repositories.js';
import { freshPgSchema, pgUnavailable } from '../helpers/postgres.js';
import { aggregateContracts } from './contract/aggregate-contracts.js';
import { repositoryContract } from './repositories.contract.js';

const unavailable = await pgUnavailable();

async function open() {
  const schema = await freshPgSchema();
  const db = new PgDatabase(schema.url, { max: 4 });
  await applyPgMigrations(db);
  return {
    repositories: createPgRepositories(db),
    refused: { check: /violates check constraint/, foreignKey: /violates foreign key constraint/, unique: /violates unique constraint/ },
    rows: (sql: string) => db.rows<Record<string, unknown>>(sql),
    blob: (bytes: Uint8Array) => `'\\x${Buffer.from(bytes).toString('hex')}'::bytea`,
    async close() {
      await db.close();
      await schema.drop();
    },
  };
}

if (unavailable) {
  describe('repository contract: postgresql', () => {
    it.skip(`skipped: ${unavailable}`, () => undefined);
  });
  console.warn(`repositories-pg: ${unavailable}`);
} else {
  repositoryContract('postgresql', open);
  aggregateContracts('postgresql', open);
}
