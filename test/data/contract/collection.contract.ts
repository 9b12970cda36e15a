// Collections, on any engine (formerly the SQLite CollectionStore's own tests).
import { describe, expect, it } from 'vitest';
import { type Conflict, isConflict } from '../../../data/model/conflict.js';
import { type AggregateSubject, type OpenSubject, withFresh } from './subject.js';

/** The record created or updated; fails the case when the repository answered a Conflict. */
function created<T>(result: T | Conflict): T {
  if (isConflict(result)) throw new Error(`unexpected conflict with ${result.conflict}`);
  return result;
}

async function setup(subject: AggregateSubject) {
  const r = subject.repositories;
  const org = await r.organizations.create({ name: 'C' });
  const user = await r.users.createWithHash({ email: 'c@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  return { r, org, user, refused: subject.refused };
}

export function collectionContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, setup);

  describe(`collections: ${adapter}`, () => {
    it(
      'creates organization and personal collections and reads them back',
      withSetup(async ({ r, org, user }) => {
        const shared = created(await r.collections.create({ organizationId: org.id, name: 'Alps', privacy: 'public' }));
        const mine = created(await r.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' }));
        expect(shared).toMatchObject({ scope: 'organization', ownerUserId: null, privacy: 'public', description: '' });
        expect(mine).toMatchObject({ scope: 'personal', ownerUserId: user.id, privacy: 'private' });
        expect(await r.collections.get(mine.id)).toEqual(mine);
      }),
    );

    it(
      'a name is unique per organization, scope and owner',
      withSetup(async ({ r, org, user }) => {
        const first = created(await r.collections.create({ organizationId: org.id, name: 'Alps' }));
        expect(await r.collections.create({ organizationId: org.id, name: 'Alps' })).toEqual({ conflict: first.id });
        const personal = created(
          await r.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' }),
        );
        expect(await r.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: user.id, name: 'Alps' })).toEqual({
          conflict: personal.id,
        });
        const other = created(await r.collections.create({ organizationId: org.id, name: 'Dolomites' }));
        expect(await r.collections.update(other.id, { name: 'Alps' })).toEqual({ conflict: first.id });
        expect((await r.collections.get(other.id))?.name).toBe('Dolomites');
        expect((await r.collections.findByName(org.id, 'organization', null, 'Alps'))?.scope).toBe('organization');
      }),
    );

    it(
      'a personal collection without an owner is refused',
      withSetup(async ({ r, org, refused }) => {
        await expect(r.collections.create({ organizationId: org.id, scope: 'personal', name: 'x' })).rejects.toThrow(refused.check);
      }),
    );

    it(
      'lists with filters, a page and the total',
      withSetup(async ({ r, org }) => {
        for (let i = 0; i < 5; i++) {
          created(await r.collections.create({ organizationId: org.id, name: `c${i}`, privacy: i % 2 ? 'public' : 'private' }));
        }
        const page = await r.collections.list(org.id, { limit: 2, offset: 1 });
        expect(page.total).toBe(5);
        expect(page.items.map((c) => c.name)).toEqual(['c1', 'c2']);
        expect((await r.collections.list(org.id, { publicOnly: true })).items.map((c) => c.name)).toEqual(['c1', 'c3']);
      }),
    );

    it(
      'files itineraries and zones idempotently and deleting the collection keeps them',
      withSetup(async ({ r, org }) => {
        const c = created(await r.collections.create({ organizationId: org.id, name: 'C' }));
        const i = created(await r.itineraries.create({ organizationId: org.id, name: 'I' }));
        await r.collections.addItinerary(c.id, i.id);
        await r.collections.addItinerary(c.id, i.id);
        expect(await r.collections.itineraryIds(c.id)).toEqual([i.id]);
        expect((await r.itineraries.listByCollection(c.id)).map((x) => x.id)).toEqual([i.id]);
        const zone = await r.zones.create({
          organizationId: org.id,
          name: 'Z',
          level: 'WARNING',
          mode: 'CIRCLE',
          geometry: { type: 'Point', coordinates: [1, 2] },
          radiusM: 50,
        });
        await r.collections.addZone(c.id, zone.id);
        expect(await r.collections.zoneIds(c.id)).toEqual([zone.id]);
        expect(await r.collections.delete(c.id)).toBe(true);
        expect(await r.itineraries.get(i.id)).toBeDefined();
        expect(await r.collections.itineraryIds(c.id)).toEqual([]);
      }),
    );
  });
}
