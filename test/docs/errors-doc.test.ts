// The error table in docs/errors.md and the code table in server/errors.ts list the same codes and statuses.

import { readFileSync } from 'node:fs';
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
