// OAuth clients, codes and refresh tokens, on any engine (formerly the SQLite OAuthStore's own tests).
import { describe, expect, it } from 'vitest';
import { type AggregateSubject, type OpenSubject, withFresh } from './subject.js';

const NOW = Date.UTC(2026, 0, 1);

async function setup(subject: AggregateSubject) {
  const r = subject.repositories;
  const org = await r.organizations.create({ name: 'O' });
  const user = await r.users.createWithHash({ email: 'o@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const pk = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'mcp', scopes: ['mcp'] });
  const client = await r.oauth.registerClient({ name: 'Assistant', redirectUris: ['http://localhost:3000/cb'] });
  const input = {
    clientId: client.id,
    userId: user.id,
    organizationId: org.id,
    apiKeyId: pk.apiKey.id,
    redirectUri: 'http://localhost:3000/cb',
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  };
  return { r, client, input, rows: subject.rows };
}

export function oauthContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, setup);

  describe(`oauth: ${adapter}`, () => {
    it(
      'registers a public client and reads it back',
      withSetup(async ({ r, client }) => {
        expect(await r.oauth.getClient(client.id)).toEqual(client);
        expect(client.tokenEndpointAuthMethod).toBe('none');
      }),
    );

    it(
      'an authorization code redeems once and only before it expires',
      withSetup(async ({ r, input, rows }) => {
        const { code, record } = await r.oauth.createCode(input, NOW);
        expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(JSON.stringify(await rows('SELECT * FROM oauth_codes'))).not.toContain(code);
        expect(await r.oauth.consumeCode(code, NOW + 1000)).toEqual(record);
        expect(await r.oauth.consumeCode(code, NOW + 2000)).toBeUndefined();
        const late = await r.oauth.createCode(input, NOW);
        expect(await r.oauth.consumeCode(late.code, NOW + 60_000)).toBeUndefined();
        expect(await r.oauth.purgeExpiredCodes(NOW + 60_000)).toBe(2);
      }),
    );

    it(
      'a refresh token is exchanged once, by its own client, for a successor; presented again it revokes its whole family',
      withSetup(async ({ r, client, input, rows }) => {
        const grant = {
          familyId: 'f1',
          clientId: client.id,
          userId: input.userId,
          organizationId: input.organizationId,
          apiKeyId: input.apiKeyId,
          scope: 'mcp',
          resource: null,
        };
        const first = (await r.oauth.issueRefreshToken(grant, 60_000, NOW)) as string;
        expect(first).toMatch(/^mcpr_[A-Za-z0-9_-]{43}$/);
        expect(JSON.stringify(await rows('SELECT * FROM oauth_refresh_tokens'))).not.toContain(first.slice(5));
        expect(await r.oauth.rotateRefreshToken(first, 'another-client', 60_000, NOW + 1)).toEqual({ ok: false, reason: 'invalid' });
        const rotated = await r.oauth.rotateRefreshToken(first, client.id, 60_000, NOW + 1);
        expect(rotated).toEqual({ ok: true, grant, refreshToken: expect.stringMatching(/^mcpr_/) });
        const second = (rotated as { refreshToken: string }).refreshToken;
        const other = (await r.oauth.issueRefreshToken({ ...grant, familyId: 'f2' }, 60_000, NOW + 1)) as string;
        expect(await r.oauth.rotateRefreshToken(first, client.id, 60_000, NOW + 2)).toEqual({ ok: false, reason: 'reused' });
        expect(await r.oauth.familyRevoked('f1')).toBe(true);
        expect(await r.oauth.rotateRefreshToken(second, client.id, 60_000, NOW + 3)).toEqual({ ok: false, reason: 'invalid' });
        // No token joins a revoked family, even one issued after the revocation.
        expect(await r.oauth.issueRefreshToken(grant, 60_000, NOW + 3)).toBeUndefined();
        expect((await r.oauth.rotateRefreshToken(other, client.id, 60_000, NOW + 3)).ok).toBe(true);
        expect(await r.oauth.familyRevoked('f2')).toBe(false);
        expect(await r.oauth.rotateRefreshToken('mcpr_unknown', client.id, 60_000, NOW + 3)).toEqual({ ok: false, reason: 'invalid' });
        const late = (await r.oauth.issueRefreshToken({ ...grant, familyId: 'f3' }, 60_000, NOW)) as string;
        expect(await r.oauth.rotateRefreshToken(late, client.id, 60_000, NOW + 60_000)).toEqual({ ok: false, reason: 'invalid' });
      }),
    );

    it(
      'a client that asks for a secret gets one, kept as its hash and checked in constant time',
      withSetup(async ({ r }) => {
        const confidential = await r.oauth.registerClient({
          redirectUris: ['https://c.example/cb'],
          tokenEndpointAuthMethod: 'client_secret_post',
        });
        expect(confidential.secret).toMatch(/^mcps_/);
        expect(await r.oauth.getClient(confidential.id)).not.toHaveProperty('secret');
        expect(await r.oauth.checkClientSecret(confidential.id, confidential.secret as string)).toBe(true);
        expect(await r.oauth.checkClientSecret(confidential.id, 'mcps_wrong')).toBe(false);
        const pub = await r.oauth.registerClient({ redirectUris: ['https://c.example/cb'] });
        expect(await r.oauth.checkClientSecret(pub.id, '')).toBe(false);
      }),
    );

    it(
      'a redeemed code is kept while its tokens may live, so presenting it again is still recognized',
      withSetup(async ({ r, input }) => {
        const { code } = await r.oauth.createCode(input, NOW);
        await r.oauth.consumeCode(code, NOW + 1);
        expect(await r.oauth.purgeExpiredCodes(NOW + 120_000, 30 * 86_400_000)).toBe(0);
        expect(await r.oauth.codeRedeemed(code)).toBe(true);
        expect(await r.oauth.purgeExpiredCodes(NOW + 31 * 86_400_000, 30 * 86_400_000)).toBe(1);
      }),
    );

    it(
      'a client known by its metadata document URL is kept and refreshed in place',
      withSetup(async ({ r }) => {
        const id = 'https://client.example/oauth.json';
        const saved = await r.oauth.saveUrlClient({ id, name: 'A', redirectUris: ['https://client.example/cb'], metadata: {} });
        expect(saved).toMatchObject({ id, name: 'A', fetchedAt: expect.any(String) });
        await r.oauth.saveUrlClient({ id, name: 'B', redirectUris: ['https://client.example/cb2'], metadata: {} });
        expect(await r.oauth.getClient(id)).toMatchObject({ name: 'B', redirectUris: ['https://client.example/cb2'] });
      }),
    );
  });
}
