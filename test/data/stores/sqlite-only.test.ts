// The few store checks that only SQLite can be asked; everything else the stores do is checked on both engines
// by the contract cases in test/data/contract/.
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../data/stores/settings-store.js';
import { UserStore } from '../../../data/stores/user-store.js';
import { openDatabase } from '../../../data/db.js';
import { tempDatabase } from '../memory-db.js';

describe('SQLite stores', () => {
  // Two connections to one database file: PostgreSQL has no file, and its race is in the settings contract.
  it('getOrCreate keeps the first stored value across connections to one file', () => {
    const t = tempDatabase();
    try {
      const a = t.open();
      const b = t.open();
      const first = new SettingsStore(a).getOrCreate('SESSION_SECRET', () => 'first');
      const second = new SettingsStore(b).getOrCreate('SESSION_SECRET', () => 'second');
      expect(first).toBe('first');
      expect(second).toBe('first');
      a.close();
      b.close();
    } finally {
      t.cleanup();
    }
  });

  // verifyPasswordSync exists only on the SQLite UserStore (its synchronous callers run in-process).
  it('verifies a password synchronously', () => {
    const users = new UserStore(openDatabase(':memory:'));
    const user = users.create({ email: 'bo@example.com', password: 'right-password' });
    expect(users.verifyPasswordSync('bo@example.com', 'right-password')?.id).toBe(user.id);
    expect(users.verifyPasswordSync('bo@example.com', 'nope')).toBeUndefined();
  });
});
