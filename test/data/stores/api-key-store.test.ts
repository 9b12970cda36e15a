import { describe, expect, it } from 'vitest';
import { hashSecret, PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN } from '../../../data/credentials.js';
import { memoryStores } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'Keys' });
  return { stores, org };
}

describe('ApiKeyStore', () => {
  it('creates a publishable key stored in clear and finds it by value', () => {
    const { stores, org } = setup();
    const { apiKey, plaintext } = stores.apiKeys.create({
      organizationId: org.id,
      type: 'pk',
      name: 'web',
      scopes: ['data', 'embedding', 'data'],
      allowedOrigins: ['https://example.com', 'https://*.example.com', 'http://localhost:*'],
    });
    expect(plaintext).toMatch(PUBLISHABLE_KEY_PATTERN);
    expect(apiKey).toMatchObject({
      organizationId: org.id,
      type: 'pk',
      name: 'web',
      scopes: ['embedding', 'data'],
      allowedOrigins: ['https://example.com', 'https://*.example.com', 'http://localhost:*'],
      key: plaintext,
      hint: plaintext.slice(-4),
      revokedAt: null,
    });
    expect(stores.apiKeys.findPublishable(plaintext)).toEqual(apiKey);
    expect(stores.apiKeys.findSecret(plaintext)).toBeUndefined();
  });

  it('stores a secret key only as its SHA-256 hash and finds it by plaintext or hash', () => {
    const { stores, org } = setup();
    const { apiKey, plaintext } = stores.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'server' });
    expect(plaintext).toMatch(SECRET_KEY_PATTERN);
    expect(apiKey.key).toBeNull();
    const raw = stores.db
      .prepare<[string], { key_value: string | null; key_hash: string }>('SELECT key_value, key_hash FROM api_keys WHERE id = ?')
      .get(apiKey.id);
    expect(raw).toEqual({ key_value: null, key_hash: hashSecret(plaintext) });
    const dump = JSON.stringify(stores.db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(plaintext);
    expect(stores.apiKeys.findSecret(plaintext)?.id).toBe(apiKey.id);
    expect(stores.apiKeys.findSecretByHash(hashSecret(plaintext))?.id).toBe(apiKey.id);
    expect(stores.apiKeys.findPublishable(plaintext)).toBeUndefined();
  });

  it('revocation is immediate and idempotent, and hides the key from lookups', () => {
    const { stores, org } = setup();
    const pk = stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web' });
    const sk = stores.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'server' });
    const revoked = stores.apiKeys.revoke(sk.apiKey.id);
    expect(revoked?.revokedAt).toEqual(expect.any(String));
    expect(stores.apiKeys.revoke(sk.apiKey.id)?.revokedAt).toBe(revoked?.revokedAt);
    expect(stores.apiKeys.findSecret(sk.plaintext)).toBeUndefined();
    expect(stores.apiKeys.findSecret(sk.plaintext, { includeRevoked: true })?.id).toBe(sk.apiKey.id);
    stores.apiKeys.revoke(pk.apiKey.id);
    expect(stores.apiKeys.findPublishable(pk.plaintext)).toBeUndefined();
    expect(stores.apiKeys.list(org.id)).toEqual([]);
    expect(stores.apiKeys.list(org.id, { includeRevoked: true })).toHaveLength(2);
    expect(stores.apiKeys.revoke('nope')).toBeUndefined();
  });

  it('renames a key and changes its scopes and origins', () => {
    const { stores, org } = setup();
    const { apiKey } = stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web' });
    stores.apiKeys.rename(apiKey.id, 'mobile');
    stores.apiKeys.setScopes(apiKey.id, ['tiles']);
    const updated = stores.apiKeys.setAllowedOrigins(apiKey.id, ['https://app.example.com']);
    expect(updated).toMatchObject({ name: 'mobile', scopes: ['tiles'], allowedOrigins: ['https://app.example.com'] });
    expect(stores.apiKeys.get(apiKey.id)).toEqual(updated);
    expect(stores.apiKeys.update('nope', { name: 'x' })).toBeUndefined();
  });

  it('refuses unknown scopes, malformed origins, origins on a secret key and unknown organizations', () => {
    const { stores, org } = setup();
    expect(() => stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'x', scopes: ['admin' as never] })).toThrow(
      /unknown scope/,
    );
    expect(() => stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'x', allowedOrigins: ['example.com/path'] })).toThrow(
      /invalid allowed origin/,
    );
    expect(() => stores.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'x', allowedOrigins: ['https://a.com'] })).toThrow(
      /publishable keys only/,
    );
    expect(() => stores.apiKeys.create({ organizationId: 'nope', type: 'pk', name: 'x' })).toThrow(/FOREIGN KEY/);
  });

  it('lists an organization’s keys oldest first', () => {
    const { stores, org } = setup();
    const a = stores.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'a' });
    const b = stores.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'b' });
    const ids = stores.apiKeys.list(org.id).map((k) => k.id);
    expect(ids).toEqual([a.apiKey.id, b.apiKey.id]);
  });
});
