import { describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN } from '../../data/credentials.js';
import { DEMO_OWNER_EMAIL, seedDemo, seedDemoIfEmpty } from '../../data/seed.js';
import { sqliteStorage } from '../../server/storage.js';
import { memoryStores } from './memory-db.js';

/** Fresh stores, and the repositories and unit of work seeding writes through (the same connection). */
function fresh() {
  const stores = memoryStores();
  const storage = sqliteStorage(stores.db);
  return { stores, repositories: storage.repositories, writes: storage.unitOfWork() };
}

describe('demo seeding', () => {
  it('seeds an empty database with an organization, an owner, two keys and a public demo collection', async () => {
    const { stores, repositories, writes } = fresh();
    const seeded = await seedDemoIfEmpty(repositories, writes);
    expect(seeded).toBeDefined();
    if (!seeded) return;
    const org = stores.organizations.get(seeded.organization.id);
    expect(org).toMatchObject({ products: ['studio', 'data', 'intelligence'], cardOnFile: true, status: 'active' });
    expect(org?.limits.itineraries).toBeNull();
    expect(seeded.owner.email).toBe(DEMO_OWNER_EMAIL);
    expect(stores.users.verifyPasswordSync(DEMO_OWNER_EMAIL, seeded.owner.password)?.id).toBe(seeded.owner.id);
    expect(stores.memberships.get(seeded.organization.id, seeded.owner.id)?.role).toBe('owner');
    expect(seeded.publishableKey.key).toMatch(PUBLISHABLE_KEY_PATTERN);
    expect(stores.apiKeys.findPublishable(seeded.publishableKey.key)?.scopes).toEqual(['embedding', 'data', 'mcp']);
    expect(seeded.secretKey.key).toMatch(SECRET_KEY_PATTERN);
    expect(stores.apiKeys.findSecret(seeded.secretKey.key)?.organizationId).toBe(seeded.organization.id);
    expect(stores.collections.get(seeded.collection.id)).toMatchObject({ name: 'Demo valley', privacy: 'public' });
  });

  it('does nothing when an organization already exists', async () => {
    const { stores, repositories, writes } = fresh();
    stores.organizations.create({ name: 'Existing' });
    expect(await seedDemoIfEmpty(repositories, writes)).toBeUndefined();
    expect(stores.organizations.count()).toBe(1);
    expect(stores.users.count()).toBe(0);
  });

  it('seedDemo always creates a new organization and picks a free owner email', async () => {
    const { stores, repositories, writes } = fresh();
    const a = await seedDemoIfEmpty(repositories, writes);
    const b = await seedDemo(repositories, writes);
    expect(b.organization.id).not.toBe(a?.organization.id);
    expect(b.owner.email).not.toBe(DEMO_OWNER_EMAIL);
    expect(b.owner.email).toMatch(/^owner-[0-9a-z]{8}@demo\.cairn\.local$/);
    expect(stores.organizations.count()).toBe(2);
  });

  it('a failure while seeding leaves nothing behind', async () => {
    const { stores, repositories, writes } = fresh();
    await expect(seedDemo(repositories, writes, { ownerEmail: 'not an email' })).rejects.toThrow(TypeError);
    expect(stores.organizations.count()).toBe(0);
    expect(stores.users.count()).toBe(0);
  });
});
