// The error table in docs/errors.md and the code table in server/errors.ts list the same codes and statuses.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../server/errors.js';
import { LANGUAGES, MESSAGES } from '../../server/i18n/messages.js';
import { REPO_ROOT } from '../helpers/server.js';

describe('docs/errors.md', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'errors.md'), 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);

  it('documents exactly the sixteen codes of the server, with their statuses', () => {
    expect(rows).toHaveLength(16);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERRORS).map(([k, v]) => [k, v.status])));
  });

  it('every code has a message in every supported language', () => {
    for (const lang of LANGUAGES) {
      for (const code of Object.keys(ERRORS)) expect(MESSAGES[lang][code], `${lang} ${code}`).toBeTruthy();
    }
  });
});

describe('message keys', () => {
  /** Every `CODE.key` string literal in server/ (message keys handed to ApiError). */
  function keysUsedInServer(): Set<string> {
    const keys = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !path.includes(`${join('server', 'i18n')}`)) {
          for (const m of readFileSync(path, 'utf8').matchAll(/'((?:[A-Z_]+)\.[a-z_]+)'/g)) {
            if (((m[1] as string).split('.')[0] as string) in ERRORS) keys.add(m[1] as string);
          }
        }
      }
    };
    walk(join(REPO_ROOT, 'server'));
    return keys;
  }

  it('every message key the server uses has a sentence in every supported language', () => {
    const keys = keysUsedInServer();
    expect(keys.size).toBeGreaterThan(5);
    for (const lang of LANGUAGES) {
      for (const key of keys) expect(MESSAGES[lang][key], `${lang} ${key}`).toBeTruthy();
    }
  });

  it('every language has exactly the English keys, each with the same {placeholders}', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const lang of LANGUAGES) {
      expect(Object.keys(MESSAGES[lang]).sort(), lang).toEqual(Object.keys(MESSAGES.en).sort());
      for (const [key, text] of Object.entries(MESSAGES.en)) {
        expect(placeholders(MESSAGES[lang][key] as string), `${lang} ${key}`).toEqual(placeholders(text));
      }
    }
  });
});
