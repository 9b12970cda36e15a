// The better-sqlite3 adapter passes the repository contract and every aggregate's contract cases, each case on a
// fresh in-memory database.

import { openDatabase } from '../../data/db.js';
import { createSqliteRepositories } from '../../data/repositories-sqlite.js';
import { aggregateContracts } from './contract/aggregate-contracts.js';
import { repositoryContract } from './repositories.contract.js';

function open() {
  const db = openDatabase(':memory:');
  return {
    repositories: createSqliteRepositories(db),
    refused: { check: /CHECK/, foreignKey: /FOREIGN KEY/, unique: /UNIQUE/ },
    rows: async (sql: string) => db.prepare<[], Record<string, unknown>>(sql).all(),
    blob: (bytes: Uint8Array) => `X'${Buffer.from(bytes).toString('hex')}'`,
    close: () => void db.close(),
  };
}

repositoryContract('better-sqlite3', open);
aggregateContracts('better-sqlite3', open);
