// The repository contract: what every adapter of data/repositories.ts must do, written against the
// interfaces alone (no SQL, no adapter type). An adapter's test file calls `repositoryContract` with a
// factory of fresh, migrated, empty repositories; a second adapter (PostgreSQL) runs the same suite unchanged.

import { describe, expect, it } from 'vitest';
import type { Repositories } from '../../data/repositories.js';
import { isConflict } from '../../data/stores/conflict.js';

export interface ContractSubject {
  repositories: Repositories;
  close(): Promise<void> | void;
}

const T0 = Date.UTC(2026, 0, 1);
const TTL = 120_000;

/** The value of a result that must not be a Conflict. */
function value<T>(result: T | { conflict: string }): T {
  if (isConflict(result)) throw new Error(`unexpected conflict with ${result.conflict}`);
  return result;
}

/** One organization, two members and an itinerary, made through the interfaces. */
async function world(r: Repositories) {
  const org = await r.organizations.create({ name: 'Contract', products: ['studio'], cardOnFile: true });
  const ana = await r.users.create({ email: 'ana@contract.test', password: 'ana-password-1' });
  const bo = await r.users.create({ email: 'bo@contract.test', password: 'bo-password-1' });
  await r.memberships.add(org.id, ana.id, 'owner');
  await r.memberships.add(org.id, bo.id, 'contributor');
  const itinerary = value(await r.itineraries.create({ organizationId: org.id, name: 'Ridge', createdBy: ana.id }));
  return { r, org, ana, bo, itinerary };
}

type World = Awaited<ReturnType<typeof world>>;

export function repositoryContract(adapter: string, open: () => Promise<ContractSubject> | ContractSubject): void {
  /** Runs `body` on fresh repositories holding the world above. */
  const withWorld = (body: (world: World) => Promise<void>) => async () => {
    const subject = await open();
    try {
      await body(await world(subject.repositories));
    } finally {
      await subject.close();
    }
  };

  describe(`repository contract: ${adapter}`, () => {
    it(
      'organizations, users and memberships: create, read, change, list',
      withWorld(async ({ r, org, ana, bo }) => {
        expect((await r.organizations.get(org.id))?.name).toBe('Contract');
        expect((await r.organizations.updateSettings(org.id, { quotaData: 77 }))?.quotaData).toBe(77);
        expect((await r.organizations.setCardOnFile(org.id, false))?.cardOnFile).toBe(false);
        expect(await r.organizations.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
        expect((await r.users.getByEmail('ana@contract.test'))?.id).toBe(ana.id);
        expect((await r.users.verifyPassword('ana@contract.test', 'ana-password-1'))?.id).toBe(ana.id);
        expect(await r.users.verifyPassword('ana@contract.test', 'wrong-password')).toBeUndefined();
        expect((await r.memberships.get(org.id, bo.id))?.role).toBe('contributor');
        expect((await r.memberships.setRole(org.id, bo.id, 'viewer'))?.role).toBe('viewer');
        expect((await r.memberships.listByOrganization(org.id)).map((m) => m.userId).sort()).toEqual([ana.id, bo.id].sort());
        expect((await r.memberships.listByUser(ana.id)).map((m) => m.organizationId)).toEqual([org.id]);
        expect(await r.memberships.remove(org.id, bo.id)).toBe(true);
        expect(await r.memberships.get(org.id, bo.id)).toBeUndefined();
      }),
    );

    it(
      'keys: a publishable key is found by value, a secret by its plaintext; a revoked key by neither',
      withWorld(async ({ r, org }) => {
        const pk = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'web', scopes: ['resources'] });
        const sk = await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'server' });
        expect((await r.apiKeys.findPublishable(pk.plaintext))?.id).toBe(pk.apiKey.id);
        expect((await r.apiKeys.findSecret(sk.plaintext))?.id).toBe(sk.apiKey.id);
        expect(await r.apiKeys.findPublishable(sk.plaintext)).toBeUndefined();
        expect((await r.apiKeys.update(pk.apiKey.id, { name: 'site' }))?.name).toBe('site');
        expect((await r.apiKeys.revoke(pk.apiKey.id))?.revokedAt).not.toBeNull();
        expect(await r.apiKeys.findPublishable(pk.plaintext)).toBeUndefined();
        expect((await r.apiKeys.list(org.id)).map((k) => k.id)).toEqual([sk.apiKey.id]);
      }),
    );

    it(
      'collections: a taken name is a conflict naming its holder; items are filed and unfiled',
      withWorld(async ({ r, org, ana, itinerary }) => {
        const alps = value(await r.collections.create({ organizationId: org.id, name: 'Alps', privacy: 'public', createdBy: ana.id }));
        expect(await r.collections.create({ organizationId: org.id, name: 'Alps' })).toEqual({ conflict: alps.id });
        const mine = value(await r.collections.create({ organizationId: org.id, scope: 'personal', ownerUserId: ana.id, name: 'Alps' }));
        const other = value(await r.collections.create({ organizationId: org.id, name: 'Pyrenees' }));
        expect(await r.collections.update(other.id, { name: 'Alps' })).toEqual({ conflict: alps.id });
        expect((await r.collections.findByName(org.id, 'personal', ana.id, 'Alps'))?.id).toBe(mine.id);
        expect((await r.collections.list(org.id, { scope: 'organization' })).total).toBe(2);
        expect((await r.collections.list(org.id, { scope: 'organization', publicOnly: true })).items.map((c) => c.id)).toEqual([alps.id]);
        await r.collections.addItinerary(alps.id, itinerary.id);
        await r.collections.addItinerary(alps.id, itinerary.id);
        expect(await r.collections.itineraryIds(alps.id)).toEqual([itinerary.id]);
        expect(await r.collections.removeItinerary(alps.id, itinerary.id)).toBe(true);
        expect(await r.collections.removeItinerary(alps.id, itinerary.id)).toBe(false);
        expect(await r.collections.delete(alps.id)).toBe(true);
        expect(await r.collections.get(alps.id)).toBeUndefined();
      }),
    );

    it(
      'itineraries: names unique per organization, draft versions, publication in the stored shape, delete',
      withWorld(async ({ r, org, itinerary }) => {
        expect(itinerary.draftVersion).toBe(1);
        expect(await r.itineraries.create({ organizationId: org.id, name: 'Ridge' })).toEqual({ conflict: itinerary.id });
        const crest = value(await r.itineraries.create({ organizationId: org.id, name: 'Crest' }));
        expect(await r.itineraries.update(crest.id, { name: 'Ridge' })).toEqual({ conflict: itinerary.id });
        expect((await r.itineraries.get(crest.id))?.name).toBe('Crest');
        const bumped = await r.itineraries.bumpDraftVersion(itinerary.id);
        expect(bumped?.draftVersion).toBe(2);
        expect(bumped?.name).toBe(itinerary.name);
        const snapshot = { format: 'contract', chain: { segments: [1, 2, 3] } };
        const published = await r.itineraries.publish(itinerary.id, snapshot);
        expect(published?.publishedVersion).toBe(2);
        expect(await r.itineraries.publishedSnapshot(itinerary.id)).toEqual(snapshot);
        expect(await r.itineraries.publishedSnapshot(crest.id)).toBeUndefined();
        expect((await r.itineraries.list(org.id)).total).toBe(2);
        expect(await r.itineraries.delete(crest.id)).toBe(true);
        expect(await r.itineraries.get(crest.id)).toBeUndefined();
      }),
    );

    it(
      'chain rows: upserted, listed in chain order, never moved to another itinerary',
      withWorld(async ({ r, org, itinerary }) => {
        const other = value(await r.itineraries.create({ organizationId: org.id, name: 'Other' }));
        const segment = {
          id: '33333333-3333-4333-8333-333333333333',
          itineraryId: itinerary.id,
          position: 0,
          engine: 'freehand' as const,
          geometry: [
            [1.56, 42.5, 1000],
            [1.57, 42.51, 1100],
          ] as [number, number, number][],
          distance: 1400,
          ascent: 100,
          descent: 0,
          duration: 1200,
          name: null,
          description: null,
          groupId: null,
        };
        await r.segments.upsert(segment);
        await r.waypoints.upsert({
          id: '11111111-1111-4111-8111-111111111111',
          itineraryId: itinerary.id,
          position: 1,
          lon: 1.57,
          lat: 42.51,
          ele: null,
          name: null,
          kind: null,
        });
        await r.waypoints.upsert({
          id: '22222222-2222-4222-8222-222222222222',
          itineraryId: itinerary.id,
          position: 0,
          lon: 1.56,
          lat: 42.5,
          ele: 1000,
          name: 'Start',
          kind: null,
        });
        await r.segmentGroups.upsert({
          id: '44444444-4444-4444-8444-444444444444',
          itineraryId: itinerary.id,
          name: 'Climb',
          color: '#ff0000',
          speed: null,
        });
        expect((await r.segments.listByItinerary(itinerary.id))[0]).toMatchObject({
          id: segment.id,
          distance: 1400,
          geometry: segment.geometry,
        });
        expect((await r.waypoints.listByItinerary(itinerary.id)).map((w) => w.name)).toEqual(['Start', null]);
        expect((await r.segmentGroups.listByItinerary(itinerary.id)).map((g) => g.name)).toEqual(['Climb']);
        await r.segments.upsert({ ...segment, itineraryId: other.id, name: 'hijack' });
        expect(await r.segments.listByItinerary(other.id)).toEqual([]);
        expect(await r.segments.delete(other.id, segment.id)).toBe(false);
        expect(await r.segments.delete(itinerary.id, segment.id)).toBe(true);
        expect(await r.segments.listByItinerary(itinerary.id)).toEqual([]);
      }),
    );

    it(
      'zones: create, read, change, list public ones, count',
      withWorld(async ({ r, org }) => {
        const zone = await r.zones.create({
          organizationId: org.id,
          name: 'Rockfall',
          level: 'DANGER',
          mode: 'CIRCLE',
          geometry: { type: 'Point', coordinates: [1.5, 42.5] },
          radiusM: 50,
          privacy: 'private',
        });
        expect((await r.zones.get(zone.id))?.radiusM).toBe(50);
        expect((await r.zones.update(zone.id, { name: 'Rockfall zone' }))?.name).toBe('Rockfall zone');
        expect((await r.zones.list(org.id, { publicOnly: true })).total).toBe(0);
        expect(await r.zones.countByOrganization(org.id)).toBe(1);
        expect(await r.zones.delete(zone.id)).toBe(true);
        expect(await r.zones.countByOrganization(org.id)).toBe(0);
      }),
    );

    it(
      'share links: a token finds its link until rotated or disabled',
      withWorld(async ({ r, org, ana, itinerary }) => {
        const { token, link } = await r.shareLinks.mint({
          organizationId: org.id,
          resourceKind: 'itinerary',
          resourceId: itinerary.id,
          createdBy: ana.id,
        });
        expect((await r.shareLinks.findByToken(token))?.id).toBe(link.id);
        const rotated = await r.shareLinks.rotate('itinerary', itinerary.id, ana.id);
        expect(rotated?.token).not.toBe(token);
        expect(await r.shareLinks.findByToken(token)).toBeUndefined();
        expect(await r.shareLinks.disable('itinerary', itinerary.id)).toBe(true);
        expect(await r.shareLinks.findByToken(rotated!.token)).toBeUndefined();
      }),
    );

    it(
      'locks: all or nothing, the blocking holder named, released and expired locks returned',
      withWorld(async ({ r, ana, bo, itinerary }) => {
        const s1 = { type: 'segment', id: 's1' } as const;
        const s2 = { type: 'segment', id: 's2' } as const;
        expect((await r.locks.acquire(itinerary.id, ana.id, [s1], T0)).ok).toBe(true);
        expect(await r.locks.acquire(itinerary.id, bo.id, [s2, s1], T0 + 1000)).toEqual({ ok: false, part: s1, holderUserId: ana.id });
        expect(await r.locks.get(itinerary.id, s2, T0 + 1000)).toBeUndefined();
        expect(await r.locks.blockingHolder(itinerary.id, bo.id, [s1], T0 + 1000)).toBe(ana.id);
        expect((await r.locks.heldByOther(itinerary.id, bo.id, T0 + 1000))?.holderUserId).toBe(ana.id);
        expect((await r.locks.acquire(itinerary.id, bo.id, [s2], T0 + 1000)).ok).toBe(true);
        expect((await r.locks.release(itinerary.id, bo.id)).map((l) => l.id)).toEqual(['s2']);
        const lapsed = await r.locks.expire(T0 + TTL + 1);
        expect(lapsed.map((l) => [l.id, l.holderUserId])).toEqual([['s1', ana.id]]);
        expect(await r.locks.list(itinerary.id, T0)).toEqual([]);
      }),
    );

    it(
      'usage and settings: counts add up per minute; a setting is created once',
      withWorld(async ({ r, org }) => {
        expect(await r.usage.increment(org.id, 'data', 100)).toBe(1);
        expect(await r.usage.increment(org.id, 'data', 100, 4)).toBe(5);
        expect(await r.usage.get(org.id, 'data', 100)).toBe(5);
        expect((await r.usage.query({ organizationId: org.id, fromMinute: 0, toMinute: 200 })).map((b) => b.count)).toEqual([5]);
        const first = await r.settings.getOrCreate('contract', () => 'one');
        expect(await r.settings.getOrCreate('contract', () => 'two')).toBe(first);
        expect(await r.settings.get('contract')).toBe('one');
      }),
    );
  });
}
