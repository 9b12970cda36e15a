// Users: email + scrypt password hash; constant-time password verification.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';

/** A user as returned to callers: the password hash never leaves the store. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserCreate {
  email: string;
  /** Plaintext; hashed here with scrypt and a fresh salt (synchronously, ~50 ms). */
  password: string;
  name?: string | null;
}

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  name: string | null;
  created_at: string;
  updated_at: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Emails are compared case-insensitively (the column is COLLATE NOCASE) and stored trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim();
}

export function isValidEmail(email: string): boolean {
  const e = normalizeEmail(email);
  return e.length >= 3 && e.length <= 320 && EMAIL.test(e);
}

export function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** The row of a new user from an already computed password hash; an invalid email is a TypeError. */
export function newUserRow(input: { email: string; passwordHash: string; name?: string | null | undefined }, now = nowIso()): UserRow {
  if (!isValidEmail(input.email)) throw new TypeError(`invalid email '${input.email}'`);
  return {
    id: randomUUID(),
    email: normalizeEmail(input.email),
    password_hash: input.passwordHash,
    name: input.name ?? null,
    created_at: now,
    updated_at: now,
  };
}
