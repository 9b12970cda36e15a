import { describe, expect, it } from 'vitest';
import { memoryStores } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'Org' });
  const user = stores.users.createWithHash({ email: 'm@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  return { stores, org, user };
}

describe('MembershipStore', () => {
  it('adds a member, lists it from both sides and changes its role', () => {
    const { stores, org, user } = setup();
    const m = stores.memberships.add(org.id, user.id, 'contributor');
    expect(m).toMatchObject({ organizationId: org.id, userId: user.id, role: 'contributor' });
    expect(stores.memberships.get(org.id, user.id)?.role).toBe('contributor');
    expect(stores.memberships.listByOrganization(org.id)).toEqual([{ ...m, email: 'm@example.com', name: null }]);
    expect(stores.memberships.listByUser(user.id)).toEqual([{ ...m, organizationName: 'Org' }]);
    expect(stores.memberships.setRole(org.id, user.id, 'viewer')?.role).toBe('viewer');
  });

  it('adding an existing member again changes the role and keeps the creation time', () => {
    const { stores, org, user } = setup();
    const first = stores.memberships.add(org.id, user.id, 'viewer');
    const second = stores.memberships.add(org.id, user.id, 'owner');
    expect(second.role).toBe('owner');
    expect(second.createdAt).toBe(first.createdAt);
    expect(stores.memberships.listByOrganization(org.id)).toHaveLength(1);
  });

  it('refuses unknown roles, organizations and users', () => {
    const { stores, org, user } = setup();
    expect(() => stores.memberships.add(org.id, user.id, 'guest' as never)).toThrow(/unknown role/);
    expect(() => stores.memberships.add('nope', user.id, 'viewer')).toThrow(/FOREIGN KEY/);
    expect(() => stores.memberships.add(org.id, 'nope', 'viewer')).toThrow(/FOREIGN KEY/);
  });

  it('removes a member', () => {
    const { stores, org, user } = setup();
    stores.memberships.add(org.id, user.id, 'admin');
    expect(stores.memberships.remove(org.id, user.id)).toBe(true);
    expect(stores.memberships.get(org.id, user.id)).toBeUndefined();
    expect(stores.memberships.setRole(org.id, user.id, 'admin')).toBeUndefined();
  });
});
