// Server settings, on any engine (formerly the SQLite SettingsStore's own tests).
import { describe, expect, it } from 'vitest';
import { type OpenSubject, onFresh } from './subject.js';

export function settingsContract(adapter: string, open: OpenSubject): void {
  describe(`settings: ${adapter}`, () => {
    it(
      'gets, sets, overwrites and deletes a server setting',
      onFresh(open, async ({ repositories: { settings } }) => {
        expect(await settings.get('SESSION_SECRET')).toBeUndefined();
        await settings.set('SESSION_SECRET', 'a');
        await settings.set('SESSION_SECRET', 'b');
        expect(await settings.get('SESSION_SECRET')).toBe('b');
        expect(await settings.delete('SESSION_SECRET')).toBe(true);
        expect(await settings.get('SESSION_SECRET')).toBeUndefined();
      }),
    );

    it(
      'getOrCreate keeps the first stored value, also when two first starts race',
      onFresh(open, async ({ repositories: { settings } }) => {
        const [first, second] = await Promise.all([
          settings.getOrCreate('SESSION_SECRET', () => 'first'),
          settings.getOrCreate('SESSION_SECRET', () => 'second'),
        ]);
        expect(first).toBe('first');
        expect(second).toBe('first');
      }),
    );
  });
}
