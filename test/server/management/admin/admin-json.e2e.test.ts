// Every admin command's --json output names its fields as the management API does: each printed organization, key
// and member has the same fields (snake_case) and, for the same object, the same values as the API's answer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, callAs, login, type RunningServer, startServer } from '../../../helpers/server.js';

let server: RunningServer;
let boot: Record<string, any>;
let token: string;
let orgId: string;

/** Every key of every object inside `value` that is not snake_case (`allowedOrigins`, `apiKey`, …). */
function camelKeys(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) camelKeys(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (/[a-z][A-Z]/.test(k)) into.push(k);
      camelKeys(v, into);
    }
  }
  return into;
}

const api = async (method: string, path: string, body?: unknown) =>
  (await callAs(server, token, method, `/v1/management/${path}${path.includes('?') ? '&' : '?'}organization_id=${orgId}`, body))?.data;
const fields = (o: object) => Object.keys(o).sort();

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  boot = admin(server, 'bootstrap', '--empty');
  orgId = boot.organization.id;
  token = await login(server, boot.owner.email, boot.owner.password);
});

afterAll(async () => {
  await server?.stop();
});

describe('admin --json output uses the API field names', () => {
  it('bootstrap names its keys publishable_key and secret_key', async () => {
    expect(camelKeys(boot)).toEqual([]);
    const keys = (await api('GET', 'keys')) as { id: string; key?: string }[];
    expect(keys.find((k) => k.id === boot.publishable_key.id)?.key).toBe(boot.publishable_key.key);
    expect(keys.map((k) => k.id)).toContain(boot.secret_key.id);
  });

  it('show-org prints the organization, members and keys exactly as the API answers them', async () => {
    const shown = admin(server, 'show-org', '--org', orgId);
    expect(camelKeys(shown)).toEqual([]);
    expect(fields(shown)).toEqual(['api_keys', 'members', 'organization']);
    expect(shown.organization).toEqual(await api('GET', 'organization'));
    expect(shown.members).toEqual(await api('GET', 'members'));
    expect(shown.api_keys).toEqual(await api('GET', 'keys'));
  });

  it('set and create-org print the organization as GET organization does', async () => {
    const set = admin(server, 'set', '--org', orgId, 'quota.data=90', 'embed.planner=true');
    expect(set.organization).toEqual(await api('GET', 'organization'));
    expect(set.organization.settings).toEqual(await api('PATCH', 'settings', {}));
    const created = admin(server, 'create-org', '--name', 'Second');
    expect(camelKeys(created)).toEqual([]);
    expect(fields(created.organization)).toEqual(fields(set.organization));
  });

  it('create-key prints the key as POST keys answers it, and revoke-key as GET keys lists it', async () => {
    const printed = admin(server, 'create-key', '--org', orgId, '--type', 'pk', '--name', 'Site', '--origins', 'https://example.com');
    expect(camelKeys(printed)).toEqual([]);
    expect(printed.api_key.allowed_origins).toEqual(['https://example.com']);
    const answered = await api('POST', 'keys', { type: 'pk', name: 'Site 2', allowed_origins: ['https://example.com'] });
    expect(fields(printed.api_key)).toEqual(fields(answered));
    const listed = ((await api('GET', 'keys')) as { id: string }[]).find((k) => k.id === printed.api_key.id);
    expect(listed).toEqual(printed.api_key);

    const secret = admin(server, 'create-key', '--org', orgId, '--type', 'sk', '--name', 'Server');
    expect(fields(secret.api_key)).toEqual(fields(await api('POST', 'keys', { type: 'sk', name: 'Server 2' })));

    const revoked = admin(server, 'revoke-key', '--id', printed.api_key.id);
    expect(camelKeys(revoked)).toEqual([]);
    expect(revoked.api_key.revoked_at).toEqual(expect.any(String));
    expect(revoked.api_key).toEqual(
      admin(server, 'show-org', '--org', orgId).api_keys.find((k: { id: string }) => k.id === printed.api_key.id),
    );
    expect(fields(revoked.api_key)).toEqual(fields(listed as object));
  });

  it('create-user and add-member print the member as GET members lists it', async () => {
    const created = admin(server, 'create-user', '--email', 'guide@example.com', '--password', 'guide-password-1');
    expect(camelKeys(created)).toEqual([]);
    expect(fields(created.user)).toEqual(['created_at', 'email', 'id', 'name']);
    const added = admin(server, 'add-member', '--org', orgId, '--user', created.user.id, '--role', 'contributor');
    expect(camelKeys(added)).toEqual([]);
    const listed = ((await api('GET', 'members')) as { user_id: string }[]).find((m) => m.user_id === created.user.id);
    expect(added.member).toEqual(listed);
  });
});
