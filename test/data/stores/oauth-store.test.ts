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
});
