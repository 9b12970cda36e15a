import { describe, expect, it } from 'vitest';
import { isConstraintError, openDatabase } from '../../../data/db.js';
import { UserStore } from '../../../data/stores/user-store.js';

function store(): UserStore {
  return new UserStore(openDatabase(':memory:'));
}

describe('UserStore', () => {
  it('creates a user and never returns the password hash', () => {
    const users = store();
    const user = users.create({ email: 'ana@example.com', password: 'hunter2hunter2' });
    expect(user).toEqual({ id: user.id, email: 'ana@example.com', name: null, createdAt: user.createdAt, updatedAt: user.updatedAt });
    expect(JSON.stringify(users.get(user.id))).not.toContain('scrypt');
  });

  it('finds users by email case-insensitively and refuses a duplicate email', () => {
    const users = store();
    const user = users.create({ email: 'Ana@Example.com', password: 'hunter2hunter2' });
    expect(users.getByEmail('ana@example.com')?.id).toBe(user.id);
    let error: unknown;
    try {
      users.create({ email: 'ANA@example.com', password: 'another-one' });
    } catch (err) {
      error = err;
    }
    expect(isConstraintError(error, 'UNIQUE')).toBe(true);
  });

  it('verifies the right password and refuses a wrong one or an unknown email', async () => {
    const users = store();
    const user = users.create({ email: 'bo@example.com', password: 'right-password' });
    expect((await users.verifyPassword('bo@example.com', 'right-password'))?.id).toBe(user.id);
    expect(await users.verifyPassword('bo@example.com', 'wrong-password')).toBeUndefined();
    expect(await users.verifyPassword('nobody@example.com', 'right-password')).toBeUndefined();
    expect(users.verifyPasswordSync('bo@example.com', 'right-password')?.id).toBe(user.id);
    expect(users.verifyPasswordSync('bo@example.com', 'nope')).toBeUndefined();
  });

  it('refuses a malformed email', () => {
    expect(() => store().create({ email: 'not-an-email', password: 'whatever1' })).toThrow(TypeError);
  });
});
