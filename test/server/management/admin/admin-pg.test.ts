// The admin command on PostgreSQL (DATABASE_URL): migrate, then the commands an operator runs, with the same output
// as on SQLite. Skipped, saying why, without a PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../../../server/management/admin/admin.js';
import { freshPgSchema, type PgSchema, pgUnavailable } from '../../../helpers/postgres.js';

const unavailable = await pgUnavailable();
if (unavailable) console.warn(`admin-pg: skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('the admin command on PostgreSQL', () => {
  let schema: PgSchema;
  const admin = async (...args: string[]) => {
    const result = await runAdmin([...args, '--json'], { DATABASE_URL: schema.url });
    return {
      ...result,
      json: result.stdout ? JSON.parse(result.stdout) : undefined,
      error: result.stderr ? JSON.parse(result.stderr).error : undefined,
    };
  };

  beforeAll(async () => {
    schema = await freshPgSchema();
  });
  afterAll(() => schema?.drop());

  it('migrate applies the PostgreSQL migrations once', async () => {
    const first = await admin('migrate');
    expect(first.json).toEqual({ engine: 'postgresql', applied: [1, 2], versions: [1, 2] });
    expect((await admin('migrate')).json).toEqual({ engine: 'postgresql', applied: [], versions: [1, 2] });
  });

  it('creates an organization, a user, a membership and keys, changes settings and shows the result', async () => {
    const org = (await admin('create-org', '--name', 'Valley Guides')).json.organization;
    expect(org).toMatchObject({ name: 'Valley Guides', products: ['studio', 'data', 'intelligence'], payment_method_on_file: true });
    const user = (await admin('create-user', '--email', 'Ops@Valley.example', '--password', 'change-me-please')).json.user;
    expect((await admin('create-user', '--email', 'ops@valley.example', '--password', 'another-one-1')).error.code).toBe('CONFLICT');
    await admin('add-member', '--org', org.id, '--user', user.id, '--role', 'owner');
    const key = (await admin('create-key', '--org', org.id, '--type', 'pk', '--name', 'web', '--scopes', 'embedding,data')).json;
    expect(key.api_key.key).toMatch(/^pk_/);
    const set = (await admin('set', '--org', org.id, 'quota.data=120', 'limits.zones=absent')).json.organization;
    expect(set.settings.quota_data).toBe(120);
    expect(set.limits).not.toHaveProperty('zones');
    expect((await admin('revoke-key', '--id', key.api_key.id)).json.api_key.revoked_at).toEqual(expect.any(String));
    const shown = (await admin('show-org', '--org', org.id)).json;
    expect(shown.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([[user.id, 'owner']]);
    expect(shown.api_keys).toHaveLength(1);
    expect((await admin('show-org', '--org', '00000000-0000-4000-8000-000000000000')).error.code).toBe('NOT_FOUND');
  });

  it('bootstrap --empty seeds an organization with its owner, keys and collection', async () => {
    const boot = (await admin('bootstrap', '--empty')).json;
    expect(boot.publishable_key.key).toMatch(/^pk_/);
    expect(boot.secret_key.key).toMatch(/^sk_/);
    expect((await admin('show-org', '--org', boot.organization.id)).json.members).toHaveLength(1);
  });
});
