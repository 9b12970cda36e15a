// Users on PostgreSQL (the SQLite twin: data/stores/user-store.ts). Emails are unique and looked up without regard
// to case through the unique index on lower(email) (SQLite: the column is COLLATE NOCASE).
import { dummyPasswordHash, hashPassword, verifyPassword } from '../credentials.js';
import { nowIso } from '../db.js';
import type { UserRepository } from '../repositories.js';
import { normalizeEmail, toUser, type User, type UserCreate, type UserRow, newUserRow } from '../model/user.js';
import type { PgDatabase } from './pg-database.js';

const COLUMNS = 'id, email, password_hash, name, created_at, updated_at';

export class PgUserRepository implements UserRepository {
  constructor(private readonly db: PgDatabase) {}

  /** Hashes on libuv's thread pool (the SQLite store hashes synchronously): same hash format, same result. */
  async create(input: UserCreate): Promise<User> {
    return this.createWithHash({ email: input.email, passwordHash: await hashPassword(input.password), name: input.name });
  }

  async createWithHash(input: { email: string; passwordHash: string; name?: string | null | undefined }): Promise<User> {
    const row = newUserRow(input);
    // A taken email (any case) is a unique violation of users_email_unique; the savepoint keeps a caller's
    // transaction usable when it catches that, as on SQLite.
    await this.db.savepoint(() =>
      this.db.query(`INSERT INTO users (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
        row.id,
        row.email,
        row.password_hash,
        row.name,
        row.created_at,
        row.updated_at,
      ]),
    );
    return toUser(row);
  }

  async get(id: string): Promise<User | undefined> {
    const row = await this.db.row<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return row ? toUser(row) : undefined;
  }

  async getByEmail(email: string): Promise<User | undefined> {
    const row = await this.#byEmail(email);
    return row ? toUser(row) : undefined;
  }

  async count(): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM users'))?.n ?? 0;
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    return (await this.db.changes('UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3', [passwordHash, nowIso(), id])) > 0;
  }

  async verifyPassword(email: string, password: string): Promise<User | undefined> {
    const row = await this.#byEmail(email);
    const ok = await verifyPassword(password, row?.password_hash ?? dummyPasswordHash());
    return row && ok ? toUser(row) : undefined;
  }

  #byEmail(email: string): Promise<UserRow | undefined> {
    return this.db.row<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [normalizeEmail(email)]);
  }
}
