// Users, on any engine (formerly the SQLite UserStore's own tests).
import { describe, expect, it } from 'vitest';
import { type OpenSubject, onFresh } from './subject.js';

export function userContract(adapter: string, open: OpenSubject): void {
  describe(`users: ${adapter}`, () => {
    it(
      'creates a user and never returns the password hash',
      onFresh(open, async ({ repositories: r }) => {
        const user = await r.users.create({ email: 'ana@example.com', password: 'hunter2hunter2' });
        expect(user).toEqual({ id: user.id, email: 'ana@example.com', name: null, createdAt: user.createdAt, updatedAt: user.updatedAt });
        expect(JSON.stringify(await r.users.get(user.id))).not.toContain('scrypt');
      }),
    );

    it(
      'finds users by email case-insensitively and refuses a duplicate email',
      onFresh(open, async ({ repositories: r, refused }) => {
        const user = await r.users.create({ email: 'Ana@Example.com', password: 'hunter2hunter2' });
        expect((await r.users.getByEmail('ana@example.com'))?.id).toBe(user.id);
        await expect(r.users.create({ email: 'ANA@example.com', password: 'another-one' })).rejects.toThrow(refused.unique);
      }),
    );

    it(
      'verifies the right password and refuses a wrong one or an unknown email',
      onFresh(open, async ({ repositories: r }) => {
        const user = await r.users.create({ email: 'bo@example.com', password: 'right-password' });
        expect((await r.users.verifyPassword('bo@example.com', 'right-password'))?.id).toBe(user.id);
        expect(await r.users.verifyPassword('bo@example.com', 'wrong-password')).toBeUndefined();
        expect(await r.users.verifyPassword('nobody@example.com', 'right-password')).toBeUndefined();
      }),
    );

    it(
      'refuses a malformed email',
      onFresh(open, async ({ repositories: r }) => {
        await expect(r.users.create({ email: 'not-an-email', password: 'whatever1' })).rejects.toThrow(TypeError);
      }),
    );
  });
}
