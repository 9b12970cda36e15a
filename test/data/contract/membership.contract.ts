// Memberships, on any engine (formerly the SQLite MembershipStore's own tests).
import { describe, expect, it } from 'vitest';
import type { Repositories } from '../../../data/repositories.js';
import { type AggregateSubject, type OpenSubject, withFresh } from './subject.js';

async function setup(subject: AggregateSubject) {
  const r: Repositories = subject.repositories;
  const org = await r.organizations.create({ name: 'Org' });
  const user = await r.users.createWithHash({ email: 'm@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  return { r, org, user, refused: subject.refused };
}

export function membershipContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, setup);

  describe(`memberships: ${adapter}`, () => {
    it(
      'adds a member, lists it from both sides and changes its role',
      withSetup(async ({ r, org, user }) => {
        const m = await r.memberships.add(org.id, user.id, 'contributor');
        expect(m).toMatchObject({ organizationId: org.id, userId: user.id, role: 'contributor' });
        expect((await r.memberships.get(org.id, user.id))?.role).toBe('contributor');
        expect(await r.memberships.listByOrganization(org.id)).toEqual([{ ...m, email: 'm@example.com', name: null }]);
        expect(await r.memberships.listByUser(user.id)).toEqual([{ ...m, organizationName: 'Org' }]);
        expect((await r.memberships.setRole(org.id, user.id, 'viewer'))?.role).toBe('viewer');
      }),
    );

    it(
      'adding an existing member again changes the role and keeps the creation time',
      withSetup(async ({ r, org, user }) => {
        const first = await r.memberships.add(org.id, user.id, 'viewer');
        const second = await r.memberships.add(org.id, user.id, 'owner');
        expect(second.role).toBe('owner');
        expect(second.createdAt).toBe(first.createdAt);
        expect(await r.memberships.listByOrganization(org.id)).toHaveLength(1);
      }),
    );

    it(
      'refuses unknown roles, organizations and users',
      withSetup(async ({ r, org, user, refused }) => {
        await expect(r.memberships.add(org.id, user.id, 'guest' as never)).rejects.toThrow(/unknown role/);
        await expect(r.memberships.add('nope', user.id, 'viewer')).rejects.toThrow(refused.foreignKey);
        await expect(r.memberships.add(org.id, 'nope', 'viewer')).rejects.toThrow(refused.foreignKey);
      }),
    );

    it(
      'removes a member',
      withSetup(async ({ r, org, user }) => {
        await r.memberships.add(org.id, user.id, 'admin');
        expect(await r.memberships.remove(org.id, user.id)).toBe(true);
        expect(await r.memberships.get(org.id, user.id)).toBeUndefined();
        expect(await r.memberships.setRole(org.id, user.id, 'admin')).toBeUndefined();
      }),
    );
  });
}
