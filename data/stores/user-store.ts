// Users: email + scrypt password hash; constant-time password verification.
// SQLite statements only: the record and its row mapping live in ../model/user.ts.
import type { Statement } from 'better-sqlite3';
import { dummyPasswordHash, hashPasswordSync, verifyPassword, verifyPasswordSync } from '../credentials.js';
import { nowIso, type Database } from '../db.js';
import { normalizeEmail, toUser, type User, type UserCreate, type UserRow, newUserRow } from '../model/user.js';

export class UserStore {
  readonly #insert: Statement<UserRow>;
  readonly #get: Statement<[string], UserRow>;
  readonly #getByEmail: Statement<[string], UserRow>;
  readonly #setPassword: Statement<[string, string, string]>;
  readonly #count: Statement<[], { n: number }>;

  constructor(db: Database) {
    const columns = 'id, email, password_hash, name, created_at, updated_at';
    this.#insert = db.prepare(`INSERT INTO users (${columns}) VALUES (@id, @email, @password_hash, @name, @created_at, @updated_at)`);
    this.#get = db.prepare(`SELECT ${columns} FROM users WHERE id = ?`);
    this.#getByEmail = db.prepare(`SELECT ${columns} FROM users WHERE email = ?`);
    this.#setPassword = db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?');
    this.#count = db.prepare('SELECT count(*) AS n FROM users');
  }

  /** Creates a user, hashing the password. A taken email throws a SQLite UNIQUE constraint error. */
  create(input: UserCreate): User {
    return this.createWithHash({ email: input.email, passwordHash: hashPasswordSync(input.password), name: input.name });
  }

  /** Creates a user from an already computed hash (see credentials.hashPassword, which does not block). */
  createWithHash(input: { email: string; passwordHash: string; name?: string | null | undefined }): User {
    const row = newUserRow(input);
    this.#insert.run(row);
    return toUser(row);
  }

  get(id: string): User | undefined {
    const row = this.#get.get(id);
    return row ? toUser(row) : undefined;
  }

  getByEmail(email: string): User | undefined {
    const row = this.#getByEmail.get(normalizeEmail(email));
    return row ? toUser(row) : undefined;
  }

  count(): number {
    return this.#count.get()?.n ?? 0;
  }

  setPasswordHash(id: string, passwordHash: string): boolean {
    return this.#setPassword.run(passwordHash, nowIso(), id).changes > 0;
  }

  /**
   * Returns the user when the email exists and the password matches, otherwise undefined. An unknown email
   * still runs one scrypt against a dummy hash, so timing does not reveal which emails exist.
   */
  async verifyPassword(email: string, password: string): Promise<User | undefined> {
    const row = this.#getByEmail.get(normalizeEmail(email));
    const ok = await verifyPassword(password, row?.password_hash ?? dummyPasswordHash());
    return row && ok ? toUser(row) : undefined;
  }

  /** Synchronous twin of verifyPassword (blocks for one scrypt: not for request paths). */
  verifyPasswordSync(email: string, password: string): User | undefined {
    const row = this.#getByEmail.get(normalizeEmail(email));
    const ok = verifyPasswordSync(password, row?.password_hash ?? dummyPasswordHash());
    return row && ok ? toUser(row) : undefined;
  }
}
