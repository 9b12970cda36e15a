// Names and descriptions read from imported files: control characters removed, blank means none, and the
// rule that names the new itinerary.

import { describe, expect, it } from 'vitest';
import { cleanDescription, cleanName, DEFAULT_NAME, importName } from '../../lib/import-text.js';

describe('cleanName', () => {
  it('removes every C0 and C1 control, DEL, the Unicode separators and unpaired surrogates', () => {
    const controls = [
      ...Array.from({ length: 32 }, (_, i) => i),
      0x7f,
      ...Array.from({ length: 32 }, (_, i) => 0x80 + i),
      0x2028,
      0x2029,
      0xdfff,
      0xd800,
    ];
    const name = cleanName(`A${String.fromCharCode(...controls)}B`);
    expect(name).toBe('A B');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(name).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/);
  });

  it('turns line breaks and tabs into single spaces, trims, and keeps everything else (accents, emoji)', () => {
    expect(cleanName('  Pic\n\tdel\r\n  Maià 🏔\u0085 ')).toBe('Pic del Maià 🏔');
  });

  it('answers undefined for blank or non-text values, so the caller falls back', () => {
    for (const value of ['', '   ', '\u0000\u0085\t', undefined, null, 42, { name: 'x' }]) expect(cleanName(value)).toBeUndefined();
  });

  it('cuts at the limit by characters, never inside a surrogate pair', () => {
    expect(cleanName('🏔'.repeat(300))).toBe('🏔'.repeat(200));
    expect(cleanName('abcdef', 3)).toBe('abc');
  });
});

describe('cleanDescription', () => {
  it('keeps line breaks (as \\n) and tabs, and removes other controls', () => {
    expect(cleanDescription('One\r\nTwo\rThree\u2028Four\tend\u0000\u001b\u009b')).toBe('One\nTwo\nThree\nFour\tend');
  });

  it('answers undefined when nothing is left', () => {
    expect(cleanDescription('\u0000 \n\t')).toBeUndefined();
  });
});

describe('importName', () => {
  it("takes the requested name, else the file's, else the track's, else the default, skipping blank ones", () => {
    expect(importName({ requested: 'Asked  for', file: 'File', track: 'Track' })).toBe('Asked  for');
    expect(importName({ file: 'File', track: 'Track' })).toBe('File');
    expect(importName({ file: ' \u0007 ', track: 'Track' })).toBe('Track');
    expect(importName({ file: '\u0085', track: '\t' })).toBe(DEFAULT_NAME);
    expect(importName({})).toBe('Imported itinerary');
  });
});
