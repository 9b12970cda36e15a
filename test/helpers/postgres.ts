// PostgreSQL for tests: the local server (PG_TEST_URL, default postgres://postgres@127.0.0.1:5432/test) and a
// fresh schema per use, so tests never see each other's rows. Where no PostgreSQL answers, the suites that need
// one skip and say why (CI has one: there they must run).

import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Why a test that needs a service cannot run here, for it to print as it skips; in CI (CI set) the service must be
 * there, so its absence throws instead of passing silently.
 */
export function missingService(why: string): string {
  if (process.env.CI) throw new Error(`${why}: it is missing in CI`);
  return why;
}

/** Why PostgreSQL tests cannot run here, or undefined when they can (throws in CI: see missingService). */
export async function pgUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return missingService(
      `no PostgreSQL at ${PG_TEST_URL.replace(/\/\/[^@]*@/, '//')} (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface PgSchema {
  /** A DATABASE_URL whose connections use only this schema. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty schema and a connection URL confined to it (search_path). */
export async function freshPgSchema(): Promise<PgSchema> {
  const name = `cairn_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_TEST_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_TEST_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: PG_TEST_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
