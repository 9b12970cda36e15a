import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { SettingsStore } from '../../../data/stores/settings-store.js';
import { tempDatabase } from '../memory-db.js';

describe('SettingsStore', () => {
  it('gets, sets, overwrites and deletes a server setting', () => {
    const settings = new SettingsStore(openDatabase(':memory:'));
    expect(settings.get('SESSION_SECRET')).toBeUndefined();
    settings.set('SESSION_SECRET', 'a');
    settings.set('SESSION_SECRET', 'b');
    expect(settings.get('SESSION_SECRET')).toBe('b');
    expect(settings.delete('SESSION_SECRET')).toBe(true);
    expect(settings.get('SESSION_SECRET')).toBeUndefined();
  });

  it('getOrCreate keeps the first stored value, also across connections', () => {
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
});
