// The PostgreSQL connection of a scaled-out node (DATABASE_URL): a node-postgres pool, every statement prepared
// once per connection, and transactions that the repositories join without being told. A transaction's
// connection travels with the async context (AsyncLocalStorage), so a repository method called inside
// `transaction(fn)` runs on that transaction's connection and one called anywhere else on any pooled
// connection (autocommit). The repository interfaces stay free of connection arguments, as on SQLite.

import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';

/** Isolation of one transaction. SERIALIZABLE is the default: see `transaction`. */
export type Isolation = 'serializable' | 'read committed';

interface Transaction {
  client: pg.PoolClient;
  /** Savepoints opened so far (their names must differ while nested). */
  savepoints: number;
}

/** SQLSTATEs worth a retry of the whole transaction: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
/** Attempts of one transaction before its serialization failure reaches the caller. */
const MAX_ATTEMPTS = 30;
/** Longest pause between two attempts, in ms (pauses grow exponentially up to it, at random below it). */
const MAX_PAUSE_MS = 100;

/** PostgreSQL's SQLSTATE of an error, when it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Whether PostgreSQL refused a statement for a constraint (23505 unique, 23503 foreign key, 23514 check, 23502 not null). */
export function isPgConstraintError(error: unknown, kind?: 'UNIQUE' | 'FOREIGNKEY' | 'CHECK' | 'NOTNULL'): boolean {
  const state = sqlState(error);
  if (!state?.startsWith('23')) return false;
  if (!kind) return true;
  return { UNIQUE: '23505', FOREIGNKEY: '23503', CHECK: '23514', NOTNULL: '23502' }[kind] === state;
}

/**
 * Row values as the stores want them: timestamptz as the ISO 8601 UTC strings the SQLite schema stores
 * (millisecond precision, written as such), bigint (counts, sequences) as numbers. json arrives parsed, bytea
 * as a Buffer (node-postgres's own parsers).
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ) return (text: string) => new Date(text).toISOString();
    if (oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export interface PgDatabaseOptions {
  /** Connections kept by this node (default 10). */
  max?: number;
}

export class PgDatabase {
  readonly pool: pg.Pool;
  readonly #transaction = new AsyncLocalStorage<Transaction>();
  /** Statement text → its name: each connection prepares a named statement once and reuses it. */
  readonly #names = new Map<string, string>();

  constructor(connectionString: string, options: PgDatabaseOptions = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      types,
      // A PostgreSQL that does not answer fails a start or a request in 10 s rather than hanging it.
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection the server drops (restart, failover) is reported here; the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  /** Runs one statement: on the current transaction's connection, or on any pooled one. */
  async query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const config: pg.QueryConfig = { name: this.#name(text), text, values };
    const tx = this.#transaction.getStore();
    return tx ? tx.client.query<R>(config) : this.pool.query<R>(config);
  }

  /** Runs a script of several statements (no parameters, not prepared): migrations. */
  async exec(sql: string): Promise<void> {
    const tx = this.#transaction.getStore();
    await (tx ? tx.client.query(sql) : this.pool.query(sql));
  }

  /** Every row of a statement. */
  async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.query<R>(text, values)).rows;
  }

  /** The first row of a statement, if any. */
  async row<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.query<R>(text, values)).rows[0];
  }

  /** How many rows a statement changed. */
  async changes(text: string, values: unknown[] = []): Promise<number> {
    return (await this.query(text, values)).rowCount ?? 0;
  }

  /** Whether `transaction` is running around the caller. */
  inTransaction(): boolean {
    return this.#transaction.getStore() !== undefined;
  }

  /**
   * Runs `fn` in one transaction and commits; a failure rolls everything back and rejects. Nested calls
   * become savepoints of the outer transaction.
   *
   * SERIALIZABLE by default: the SQLite path serializes its writers with one connection, and the same
   * guarantee here is what keeps the check-then-write rules (plan limits, lock holders, name conflicts read
   * for 409 metadata, a refresh token used once) true when two nodes run them at once. PostgreSQL refuses
   * one of two conflicting transactions with a serialization failure (or a deadlock); the whole of `fn`
   * then runs again on fresh data, up to 30 times, so `fn` must do nothing but database work (plan outside).
   */
  async transaction<T>(fn: () => Promise<T>, isolation: Isolation = 'serializable'): Promise<T> {
    if (this.inTransaction()) return this.savepoint(fn);
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query(`BEGIN ISOLATION LEVEL ${isolation === 'serializable' ? 'SERIALIZABLE' : 'READ COMMITTED'}`);
        const result = await this.#transaction.run({ client, savepoints: 0 }, fn);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError; // the connection is unusable: the pool discards it
        });
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
      } finally {
        client.release(broken);
      }
      // A random pause, longer after each collision: writers that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_PAUSE_MS, 2 ** attempt)));
    }
  }

  /**
   * Runs `fn` so that a statement it fails does not abort the transaction around it (PostgreSQL refuses
   * every later statement of a transaction once one fails): a savepoint inside a transaction, nothing
   * outside one. A store uses it where it catches a constraint error and carries on (a name taken → 409).
   */
  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    const tx = this.#transaction.getStore();
    if (!tx) return fn();
    const name = `cairn_sp_${++tx.savepoints}`;
    await tx.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await tx.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      // The statement's own error is what the caller decides on (a constraint, a serialization failure to retry);
      // if the rollback to the savepoint fails too, the transaction is lost anyway and its end reports that.
      await tx.client
        .query(`ROLLBACK TO SAVEPOINT ${name}`)
        .then(() => tx.client.query(`RELEASE SAVEPOINT ${name}`))
        .catch(() => undefined);
      throw error;
    } finally {
      tx.savepoints--;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  #name(text: string): string {
    let name = this.#names.get(text);
    if (!name) {
      name = `cairn_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      this.#names.set(text, name);
    }
    return name;
  }
}
