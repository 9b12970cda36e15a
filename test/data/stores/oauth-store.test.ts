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

  it('a refresh token is exchanged once, by its own client, for a successor; presented again it revokes its whole family', () => {
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
    const first = stores.oauth.issueRefreshToken(grant, 60_000, now) as string;
    expect(first).toMatch(/^mcpr_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(stores.db.prepare('SELECT * FROM oauth_refresh_tokens').all())).not.toContain(first.slice(5));
    expect(stores.oauth.rotateRefreshToken(first, 'another-client', 60_000, now + 1)).toEqual({ ok: false, reason: 'invalid' });
    const rotated = stores.oauth.rotateRefreshToken(first, client.id, 60_000, now + 1);
    expect(rotated).toEqual({ ok: true, grant, refreshToken: expect.stringMatching(/^mcpr_/) });
    const second = (rotated as { refreshToken: string }).refreshToken;
    const other = stores.oauth.issueRefreshToken({ ...grant, familyId: 'f2' }, 60_000, now + 1) as string;
    expect(stores.oauth.rotateRefreshToken(first, client.id, 60_000, now + 2)).toEqual({ ok: false, reason: 'reused' });
    expect(stores.oauth.familyRevoked('f1')).toBe(true);
    expect(stores.oauth.rotateRefreshToken(second, client.id, 60_000, now + 3)).toEqual({ ok: false, reason: 'invalid' });
    // No token joins a revoked family, even one issued after the revocation.
    expect(stores.oauth.issueRefreshToken(grant, 60_000, now + 3)).toBeUndefined();
    expect(stores.oauth.rotateRefreshToken(other, client.id, 60_000, now + 3).ok).toBe(true);
    expect(stores.oauth.familyRevoked('f2')).toBe(false);
    expect(stores.oauth.rotateRefreshToken('mcpr_unknown', client.id, 60_000, now + 3)).toEqual({ ok: false, reason: 'invalid' });
    const late = stores.oauth.issueRefreshToken({ ...grant, familyId: 'f3' }, 60_000, now) as string;
    expect(stores.oauth.rotateRefreshToken(late, client.id, 60_000, now + 60_000)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('a client that asks for a secret gets one, kept as its hash and checked in constant time', () => {
    const { stores } = setup();
    const confidential = stores.oauth.registerClient({
      redirectUris: ['https://c.example/cb'],
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(confidential.secret).toMatch(/^mcps_/);
    expect(stores.oauth.getClient(confidential.id)).not.toHaveProperty('secret');
    expect(stores.oauth.checkClientSecret(confidential.id, confidential.secret as string)).toBe(true);
    expect(stores.oauth.checkClientSecret(confidential.id, 'mcps_wrong')).toBe(false);
    const pub = stores.oauth.registerClient({ redirectUris: ['https://c.example/cb'] });
    expect(stores.oauth.checkClientSecret(pub.id, '')).toBe(false);
  });

  it('a redeemed code is kept while its tokens may live, so presenting it again is still recognized', () => {
    const { stores, input } = setup();
    const now = Date.UTC(2026, 0, 1);
    const { code } = stores.oauth.createCode(input, now);
    stores.oauth.consumeCode(code, now + 1);
    expect(stores.oauth.purgeExpiredCodes(now + 120_000, 30 * 86_400_000)).toBe(0);
    expect(stores.oauth.codeRedeemed(code)).toBe(true);
    expect(stores.oauth.purgeExpiredCodes(now + 31 * 86_400_000, 30 * 86_400_000)).toBe(1);
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
