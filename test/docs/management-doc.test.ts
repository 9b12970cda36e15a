// docs/management.md documents every management endpoint of the route table with a table row per body field.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../data/db.js';
import { buildApp } from '../../server/app.js';
import { DEFAULTS } from '../../server/config.js';
import type { Logger } from '../../server/logger.js';
import { sqliteStorage } from '../../server/storage.js';
import { REPO_ROOT } from '../helpers/server.js';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'management.md'), 'utf8');
const routes = buildApp({
  config: { ...DEFAULTS, logLevel: 'silent', seedDemo: false },
  storage: sqliteStorage(openDatabase(':memory:')),
  logger: { request() {}, error() {}, info() {} } as unknown as Logger,
  signingSecret: 'x'.repeat(40),
}).router.routes.filter((r) => r.scope === 'management');

/** The text of one endpoint's section, from its heading to the next. */
function section(method: string, path: string): string | undefined {
  const start = doc.indexOf(`### \`${method} ${path}\``);
  if (start < 0) return undefined;
  const next = doc.indexOf('\n### ', start + 1);
  return doc.slice(start, next < 0 ? undefined : next);
}

describe('docs/management.md', () => {
  it('has a section for each of the 15 management endpoints', () => {
    expect(routes).toHaveLength(15);
    for (const r of routes) expect(section(r.method, r.path), `${r.method} ${r.path}`).toBeDefined();
  });

  it('lists every body field of each endpoint, and no field it does not take', () => {
    for (const r of routes) {
      const text = section(r.method, r.path) ?? '';
      const fields = Object.keys((r.body as { properties?: object } | undefined)?.properties ?? {});
      const rows = [...text.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
      expect(rows, `${r.method} ${r.path}`).toEqual(fields);
      if (fields.length > 0) expect(text, `${r.method} ${r.path} example`).toContain('```sh');
    }
  });

  it('is linked from the README and docs/api.md', () => {
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('(docs/management.md)');
    expect(readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8')).toContain('(management.md)');
  });
});
