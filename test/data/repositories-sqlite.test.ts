// The better-sqlite3 adapter passes the repository contract, each case on a fresh in-memory database.

import { openDatabase } from '../../data/db.js';
import { createSqliteRepositories } from '../../data/repositories-sqlite.js';
import { repositoryContract } from './repositories.contract.js';

repositoryContract('better-sqlite3', () => {
  const db = openDatabase(':memory:');
  return { repositories: createSqliteRepositories(db), close: () => void db.close() };
});
