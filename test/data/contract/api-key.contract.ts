// API keys, on any engine (formerly the SQLite ApiKeyStore's own tests).
import { describe, expect, it } from 'vitest';
import { hashSecret, PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN } from '../../../data/credentials.js';
import { type AggregateSubject, type OpenSubject, withFresh } from './subject.js';

async function setup(subject: AggregateSubject) {
  const r = subject.repositories;
  const org = await r.organizations.create({ name: 'Keys' });
  return { r, org, subject };
}

export function apiKeyContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, setup);

  describe(`api keys: ${adapter}`, () => {
    it(
      'creates a publishable key stored in clear and finds it by value',
      withSetup(async ({ r, org }) => {
        const { apiKey, plaintext } = await r.apiKeys.create({
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
        expect(await r.apiKeys.findPublishable(plaintext)).toEqual(apiKey);
        expect(await r.apiKeys.findSecret(plaintext)).toBeUndefined();
      }),
    );

    it(
      'stores a secret key only as its SHA-256 hash and finds it by plaintext or hash',
      withSetup(async ({ r, org, subject }) => {
        const { apiKey, plaintext } = await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'server' });
        expect(plaintext).toMatch(SECRET_KEY_PATTERN);
        expect(apiKey.key).toBeNull();
        const raw = await subject.rows('SELECT id, key_value, key_hash FROM api_keys');
        expect(raw).toEqual([{ id: apiKey.id, key_value: null, key_hash: hashSecret(plaintext) }]);
        expect(JSON.stringify(await subject.rows('SELECT * FROM api_keys'))).not.toContain(plaintext);
        expect((await r.apiKeys.findSecret(plaintext))?.id).toBe(apiKey.id);
        expect((await r.apiKeys.findSecretByHash(hashSecret(plaintext)))?.id).toBe(apiKey.id);
        expect(await r.apiKeys.findPublishable(plaintext)).toBeUndefined();
      }),
    );

    it(
      'revocation is immediate and idempotent, and hides the key from lookups',
      withSetup(async ({ r, org }) => {
        const pk = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web' });
        const sk = await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'server' });
        const revoked = await r.apiKeys.revoke(sk.apiKey.id);
        expect(revoked?.revokedAt).toEqual(expect.any(String));
        expect((await r.apiKeys.revoke(sk.apiKey.id))?.revokedAt).toBe(revoked?.revokedAt);
        expect(await r.apiKeys.findSecret(sk.plaintext)).toBeUndefined();
        expect((await r.apiKeys.findSecret(sk.plaintext, { includeRevoked: true }))?.id).toBe(sk.apiKey.id);
        await r.apiKeys.revoke(pk.apiKey.id);
        expect(await r.apiKeys.findPublishable(pk.plaintext)).toBeUndefined();
        expect(await r.apiKeys.list(org.id)).toEqual([]);
        expect(await r.apiKeys.list(org.id, { includeRevoked: true })).toHaveLength(2);
        expect(await r.apiKeys.revoke('nope')).toBeUndefined();
      }),
    );

    it(
      'renames a key and changes its scopes and origins',
      withSetup(async ({ r, org }) => {
        const { apiKey } = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web' });
        await r.apiKeys.rename(apiKey.id, 'mobile');
        await r.apiKeys.setScopes(apiKey.id, ['tiles']);
        const updated = await r.apiKeys.setAllowedOrigins(apiKey.id, ['https://app.example.com']);
        expect(updated).toMatchObject({ name: 'mobile', scopes: ['tiles'], allowedOrigins: ['https://app.example.com'] });
        expect(await r.apiKeys.get(apiKey.id)).toEqual(updated);
        expect(await r.apiKeys.update('nope', { name: 'x' })).toBeUndefined();
      }),
    );

    it(
      'refuses unknown scopes, malformed origins, origins on a secret key and unknown organizations',
      withSetup(async ({ r, org, subject }) => {
        await expect(r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'x', scopes: ['admin' as never] })).rejects.toThrow(
          /unknown scope/,
        );
        await expect(
          r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'x', allowedOrigins: ['example.com/path'] }),
        ).rejects.toThrow(/invalid allowed origin/);
        await expect(
          r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'x', allowedOrigins: ['https://a.com'] }),
        ).rejects.toThrow(/publishable keys only/);
        await expect(r.apiKeys.create({ organizationId: 'nope', type: 'pk', name: 'x' })).rejects.toThrow(subject.refused.foreignKey);
      }),
    );

    it(
      'lists an organization’s keys oldest first',
      withSetup(async ({ r, org }) => {
        const a = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'a' });
        const b = await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'b' });
        expect((await r.apiKeys.list(org.id)).map((k) => k.id)).toEqual([a.apiKey.id, b.apiKey.id]);
      }),
    );
  });
}
