import { describe, expect, it } from 'vitest';
import { memoryStores, created } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'C' });
  const user = stores.users.createWithHash({ email: 'c@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  return { stores, org, user };
}

describe('CollectionStore', () => {
  it('creates organization and personal collections and reads them back', () => {
    const { stores, org, user } = setup();
    const shared = created(stores.collections.create({ organizationId: org.id, name: 'Alps', privacy: 'public' }));
    const mine = created(stores.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' }));
    expect(shared).toMatchObject({ scope: 'organization', ownerUserId: null, privacy: 'public', description: '' });
    expect(mine).toMatchObject({ scope: 'personal', ownerUserId: user.id, privacy: 'private' });
    expect(stores.collections.get(mine.id)).toEqual(mine);
  });

  it('a name is unique per organization, scope and owner', () => {
    const { stores, org, user } = setup();
    const first = created(stores.collections.create({ organizationId: org.id, name: 'Alps' }));
    expect(stores.collections.create({ organizationId: org.id, name: 'Alps' })).toEqual({ conflict: first.id });
    const personal = created(stores.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' }));
    expect(stores.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' })).toEqual({
      conflict: personal.id,
    });
    const other = created(stores.collections.create({ organizationId: org.id, name: 'Dolomites' }));
    expect(stores.collections.update(other.id, { name: 'Alps' })).toEqual({ conflict: first.id });
    expect(stores.collections.get(other.id)?.name).toBe('Dolomites');
    expect(stores.collections.findByName(org.id, 'organization', null, 'Alps')?.scope).toBe('organization');
  });

  it('a personal collection without an owner is refused', () => {
    const { stores, org } = setup();
    expect(() => created(stores.collections.create({ organizationId: org.id, scope: 'personal', name: 'x' }))).toThrow(/CHECK/);
  });

  it('lists with filters, a page and the total', () => {
    const { stores, org } = setup();
    for (let i = 0; i < 5; i++) {
      created(stores.collections.create({ organizationId: org.id, name: `c${i}`, privacy: i % 2 ? 'public' : 'private' }));
    }
    const page = stores.collections.list(org.id, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.items.map((c) => c.name)).toEqual(['c1', 'c2']);
    expect(stores.collections.list(org.id, { publicOnly: true }).items.map((c) => c.name)).toEqual(['c1', 'c3']);
  });

  it('files itineraries and zones idempotently and deleting the collection keeps them', () => {
    const { stores, org } = setup();
    const c = created(stores.collections.create({ organizationId: org.id, name: 'C' }));
    const i = created(stores.itineraries.create({ organizationId: org.id, name: 'I' }));
    stores.collections.addItinerary(c.id, i.id);
    stores.collections.addItinerary(c.id, i.id);
    expect(stores.collections.itineraryIds(c.id)).toEqual([i.id]);
    expect(stores.itineraries.listByCollection(c.id).map((x) => x.id)).toEqual([i.id]);
    stores.db
      .prepare(
        `INSERT INTO zones (id, organization_id, name, level, mode, geometry, radius_m, created_at, updated_at)
         VALUES ('z1', ?, 'Z', 'WARNING', 'CIRCLE', '{"type":"Point","coordinates":[1,2]}', 50, 'now', 'now')`,
      )
      .run(org.id);
    stores.collections.addZone(c.id, 'z1');
    expect(stores.collections.zoneIds(c.id)).toEqual(['z1']);
    expect(stores.collections.delete(c.id)).toBe(true);
    expect(stores.itineraries.get(i.id)).toBeDefined();
    expect(stores.collections.itineraryIds(c.id)).toEqual([]);
  });
});
