import { describe, expect, it } from 'vitest';
import { memoryStores } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'O' });
  const user = stores.users.createWithHash({ email: 'o@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const pk = stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'mcp', scopes: ['mcp'] });
  const client = stores.oauth.registerClient({ name: 'Assistant', redirectUris: ['http://localhost:3000/cb'] });
  const input = {
    clientId: client.id,
    userId: user.id,
    organizationId: org.id,
    apiKeyId: pk.apiKey.id,
    redirectUri: 'http://localhost:3000/cb',
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  };
  return { stores, client, input };
}

describe('OAuthStore', () => {
  it('registers a public client and reads it back', () => {
    const { stores, client } = setup();
    expect(stores.oauth.getClient(client.id)).toEqual(client);
    expect(client.tokenEndpointAuthMethod).toBe('none');
  });

  it('an authorization code redeems once and only before it expires', () => {
    const { stores, input } = setup();
    const now = Date.UTC(2026, 0, 1);
    const { code, record } = stores.oauth.createCode(input, now);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(stores.db.prepare('SELECT * FROM oauth_codes').all())).not.toContain(code);
    expect(stores.oauth.consumeCode(code, now + 1000)).toEqual(record);
    expect(stores.oauth.consumeCode(code, now + 2000)).toBeUndefined();
    const late = stores.oauth.createCode(input, now);
    expect(stores.oauth.consumeCode(late.code, now + 60_000)).toBeUndefined();
    expect(stores.oauth.purgeExpiredCodes(now + 60_000)).toBe(2);
  });

  it('a refresh token is exchanged once; presented again it revokes its whole family', () => {
    const { stores, client, input } = setup();
    const now = Date.UTC(2026, 0, 1);
    const grant = {
      familyId: 'f1',
      clientId: client.id,
      userId: input.userId,
      organizationId: input.organizationId,
      apiKeyId: input.apiKeyId,
      scope: 'mcp',
      resource: null,
    };
    const first = stores.oauth.issueRefreshToken(grant, 60_000, now);
    expect(first).toMatch(/^mcpr_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(stores.db.prepare('SELECT * FROM oauth_refresh_tokens').all())).not.toContain(first.slice(5));
    expect(stores.oauth.rotateRefreshToken(first, now + 1)).toEqual({ ok: true, grant });
    const second = stores.oauth.issueRefreshToken(grant, 60_000, now + 1);
    const other = stores.oauth.issueRefreshToken({ ...grant, familyId: 'f2' }, 60_000, now + 1);
    expect(stores.oauth.rotateRefreshToken(first, now + 2)).toEqual({ ok: false, reason: 'reused' });
    expect(stores.oauth.rotateRefreshToken(second, now + 3)).toEqual({ ok: false, reason: 'invalid' });
    expect(stores.oauth.rotateRefreshToken(other, now + 3).ok).toBe(true);
    expect(stores.oauth.rotateRefreshToken('mcpr_unknown', now + 3)).toEqual({ ok: false, reason: 'invalid' });
    const late = stores.oauth.issueRefreshToken({ ...grant, familyId: 'f3' }, 60_000, now);
    expect(stores.oauth.rotateRefreshToken(late, now + 60_000)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('a client known by its metadata document URL is kept and refreshed in place', () => {
    const { stores } = setup();
    const id = 'https://client.example/oauth.json';
    const saved = stores.oauth.saveUrlClient({ id, name: 'A', redirectUris: ['https://client.example/cb'], metadata: {} });
    expect(saved).toMatchObject({ id, name: 'A', fetchedAt: expect.any(String) });
    stores.oauth.saveUrlClient({ id, name: 'B', redirectUris: ['https://client.example/cb2'], metadata: {} });
    expect(stores.oauth.getClient(id)).toMatchObject({ name: 'B', redirectUris: ['https://client.example/cb2'] });
  });
});
