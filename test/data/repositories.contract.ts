// The repository contract: what every adapter of data/repositories.ts must do, written against the
// interfaces alone (no SQL, no adapter type). An adapter's test file calls `repositoryContract` with a
// factory of fresh, migrated, empty repositories; a second adapter (PostgreSQL) runs the same suite unchanged.

import { describe, expect, it, vi } from 'vitest';
import type { Repositories } from '../../data/repositories.js';
import { isConflict } from '../../data/model/conflict.js';
import { NO_HOLDER } from '../../data/model/lock.js';

export interface ContractSubject {
  repositories: Repositories;
  close(): Promise<void> | void;
}

const T0 = Date.UTC(2026, 0, 1);
const TTL = 120_000;

/** Runs `body` with Date frozen at `now`, so rows written meanwhile tie on their creation time. */
async function frozenAt<T>(now: number, body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now });
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

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
          description: null,
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
          description: 'Car park\n\nFree — fills by 9 ☃',
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
        expect((await r.waypoints.listByItinerary(itinerary.id)).map((w) => [w.name, w.description])).toEqual([
          ['Start', 'Car park\n\nFree — fills by 9 ☃'],
          [null, null],
        ]);
        // Upserting a waypoint again replaces its description: null clears it.
        const [start] = await r.waypoints.listByItinerary(itinerary.id);
        await r.waypoints.upsert({ ...start!, description: null });
        expect((await r.waypoints.listByItinerary(itinerary.id))[0]?.description).toBeNull();
        await r.waypoints.upsert({ ...start! });
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
      'collections: ties list in creation order; a taken name, on create or update or by racing creates, is a conflict and nothing breaks',
      withWorld(async ({ r, org }) => {
        const [c, b, a] = await frozenAt(Date.now() + 1000, async () => [
          value(await r.collections.create({ organizationId: org.id, name: 'c' })),
          value(await r.collections.create({ organizationId: org.id, name: 'b' })),
          value(await r.collections.create({ organizationId: org.id, name: 'a' })),
        ]);
        expect((await r.collections.list(org.id, { limit: 2, offset: 1 })).items.map((x) => x.name)).toEqual(['b', 'a']);
        expect(await r.collections.create({ organizationId: org.id, name: 'a' })).toEqual({ conflict: a.id });
        expect(await r.collections.update(c.id, { name: 'b', privacy: 'public' })).toEqual({ conflict: b.id });
        expect(await r.collections.get(c.id)).toEqual(c);
        expect(await r.collections.update(c.id, { description: 'kept' })).toMatchObject({
          name: 'c',
          description: 'kept',
          privacy: 'private',
        });
        const racing = await Promise.all([1, 2, 3].map(() => r.collections.create({ organizationId: org.id, name: 'race' })));
        const holder = (await r.collections.findByName(org.id, 'organization', null, 'race'))?.id;
        expect(racing.map((x) => (isConflict(x) ? x.conflict : x.id))).toEqual([holder, holder, holder]);
        expect(racing.filter(isConflict)).toHaveLength(2);
        expect(await r.collections.countByOrganization(org.id)).toBe(4);
      }),
    );

    it(
      'itineraries: ties list in creation order; a taken name, on create or update or by racing creates, is a conflict and nothing breaks',
      withWorld(async ({ r, org, itinerary }) => {
        const [y, x] = await frozenAt(Date.now() + 1000, async () => [
          value(await r.itineraries.create({ organizationId: org.id, name: 'y' })),
          value(await r.itineraries.create({ organizationId: org.id, name: 'x' })),
        ]);
        expect(await r.itineraries.list(org.id, { limit: 2, offset: 1 })).toEqual({ items: [y, x], total: 3 });
        expect(await r.itineraries.create({ organizationId: org.id, name: 'Ridge' })).toEqual({ conflict: itinerary.id });
        expect(await r.itineraries.update(x.id, { name: 'y' }, { bumpDraft: true })).toEqual({ conflict: y.id });
        expect(await r.itineraries.get(x.id)).toEqual(x);
        expect(await r.itineraries.update(x.id, { privacy: 'public' }, { bumpDraft: true })).toMatchObject({ name: 'x', draftVersion: 2 });
        const racing = await Promise.all([1, 2, 3].map(() => r.itineraries.create({ organizationId: org.id, name: 'race' })));
        const holder = (await r.itineraries.findByName(org.id, 'race'))?.id;
        expect(racing.map((i) => (isConflict(i) ? i.conflict : i.id))).toEqual([holder, holder, holder]);
        expect(racing.filter(isConflict)).toHaveLength(2);
        expect(await r.itineraries.publish(x.id, null)).toMatchObject({ publishedVersion: 2 });
        expect(await r.itineraries.publishedSnapshot(x.id)).toBeNull();
      }),
    );

    it(
      'collections: personal listings and the collections holding an item, as the viewer may see them; limit -1 is no limit',
      withWorld(async ({ r, org, ana, bo, itinerary }) => {
        const zone = await r.zones.create({ organizationId: org.id, name: 'Z', level: 'INFO', mode: 'POLYGON', geometry: {} });
        const make = async (name: string, extra: object = {}) =>
          value(await r.collections.create({ organizationId: org.id, name, ...extra }));
        const pub = await make('pub', { privacy: 'public' });
        const priv = await make('priv');
        const anas = await make('anas', { scope: 'personal', ownerUserId: ana.id, privacy: 'public' });
        const bos = await make('bos', { scope: 'personal', ownerUserId: bo.id });
        for (const c of [pub, priv, anas, bos]) {
          await r.collections.addItinerary(c.id, itinerary.id);
          await r.collections.addZone(c.id, zone.id);
        }
        const page = { limit: 10, offset: 0 };
        expect(await r.collections.listHolding('itinerary', itinerary.id, { ...page, publicOnly: false, viewerUserId: ana.id })).toEqual({
          items: [pub, priv, anas],
          total: 3,
        });
        expect(await r.collections.listHolding('zone', zone.id, { ...page, publicOnly: true, viewerUserId: null })).toEqual({
          items: [pub],
          total: 1,
        });
        expect(await r.collections.listHolding('zone', zone.id, { publicOnly: false, viewerUserId: bo.id, limit: 1, offset: 1 })).toEqual({
          items: [priv],
          total: 3,
        });
        expect(await r.collections.listPersonal(ana.id, { organizationId: org.id })).toEqual({ items: [anas], total: 1 });
        expect(await r.collections.listPersonal(bo.id, { publicOnly: true })).toEqual({ items: [], total: 0 });
        expect(await r.collections.listPersonal(bo.id, { limit: -1 })).toEqual({ items: [bos], total: 1 });
        expect((await r.collections.list(org.id, { limit: -1 })).items).toEqual([pub, priv, anas, bos]);
        expect(await r.collections.list(org.id, { scope: 'personal', ownerUserId: bo.id })).toEqual({ items: [bos], total: 1 });
        expect([await r.collections.holdsZone(bos.id, zone.id), await r.collections.holdsItinerary(bos.id, zone.id)]).toEqual([
          true,
          false,
        ]);
      }),
    );

    it(
      'itineraries: grouped by the first grouping collection holding each, the ungrouped last, with the total; pages of a collection',
      withWorld(async ({ r, org }) => {
        const a = value(await r.collections.create({ organizationId: org.id, name: 'A' }));
        const b = value(await r.collections.create({ organizationId: org.id, name: 'B' }));
        const [i1, i2, i3] = await frozenAt(Date.now() + 1000, async () => [
          value(await r.itineraries.create({ organizationId: org.id, name: 'i1', privacy: 'public' })),
          value(await r.itineraries.create({ organizationId: org.id, name: 'i2' })),
          value(await r.itineraries.create({ organizationId: org.id, name: 'i3', privacy: 'public' })),
        ]);
        for (const [c, i] of [
          [b, i1],
          [b, i2],
          [a, i2],
          [a, i3],
        ] as const)
          await r.collections.addItinerary(c.id, i.id);
        const grouped = (list: { items: { itinerary: { name: string }; group: number | null }[] }) =>
          list.items.map(({ itinerary: i, group }) => [i.name, group]);
        const options = { organizationIds: [org.id], collectionIds: [a.id, b.id], publicOnly: false, limit: 10, offset: 0 };
        expect(grouped(await r.itineraries.listGrouped(options))).toEqual([
          ['i2', 0],
          ['i3', 0],
          ['i1', 1],
          ['Ridge', null],
        ]);
        const page = await r.itineraries.listGrouped({ ...options, collectionIds: [b.id, a.id], publicOnly: true, limit: 1, offset: 1 });
        expect([grouped(page), page.total]).toEqual([[['i3', 1]], 2]);
        const ungrouped = await r.itineraries.listGrouped({ ...options, collectionIds: [] });
        expect([grouped(ungrouped), ungrouped.total]).toEqual([
          [
            ['Ridge', null],
            ['i1', null],
            ['i2', null],
            ['i3', null],
          ],
          4,
        ]);
        await r.itineraries.publish(i2.id, { v: 1 });
        const filed = { publicOnly: false, publishedOnly: false, limit: 10, offset: 0 };
        expect(await r.itineraries.listInCollection(a.id, { ...filed, publishedOnly: true })).toMatchObject({
          items: [{ id: i2.id }],
          total: 1,
        });
        expect(await r.itineraries.listInCollection(b.id, { ...filed, publicOnly: true })).toEqual({ items: [i1], total: 1 });
        expect((await r.itineraries.listByCollection(b.id)).map((i) => i.name)).toEqual(['i1', 'i2']);
      }),
    );

    it(
      'zones: ties list in creation order, with the public filter and pages; a refused change changes nothing',
      withWorld(async ({ r, org }) => {
        const base = {
          organizationId: org.id,
          level: 'INFO' as const,
          mode: 'POLYGON' as const,
          geometry: { type: 'Polygon', coordinates: [] },
        };
        const [z3, z1, z2] = await frozenAt(Date.now() + 1000, async () => [
          await r.zones.create({ ...base, name: 'z3', privacy: 'public' }),
          await r.zones.create({ ...base, name: 'z1' }),
          await r.zones.create({ ...base, name: 'z2', privacy: 'public' }),
        ]);
        expect(await r.zones.list(org.id)).toEqual({ items: [z3, z1, z2], total: 3 });
        expect(await r.zones.list(org.id, { publicOnly: true, limit: 1, offset: 1 })).toEqual({ items: [z2], total: 2 });
        const c = value(await r.collections.create({ organizationId: org.id, name: 'Z' }));
        for (const z of [z3, z1, z2]) await r.collections.addZone(c.id, z.id);
        expect(await r.zones.listInCollection(c.id, { publicOnly: true, limit: 10, offset: 0 })).toEqual({ items: [z3, z2], total: 2 });
        await expect(r.zones.update(z1.id, { mode: 'CIRCLE' })).rejects.toThrow();
        expect(await r.zones.get(z1.id)).toEqual(z1);
        const circle = await r.zones.update(z1.id, { mode: 'CIRCLE', radiusM: 25, geometry: { type: 'Point', coordinates: [1, 2] } });
        expect(await r.zones.get(z1.id)).toEqual(circle);
      }),
    );

    it(
      'chain rows: geometry round trips bit for bit, a NaN elevation reads back as a 2D position; ties in insertion order',
      withWorld(async ({ r, itinerary }) => {
        const geometry: [number, number, number][] = [
          [-180, -90, Number.NaN],
          [-0, 0.1 + 0.2, -420.5],
          [179.99999999999997, 5e-324, 8848.86],
        ];
        const hazards = [{ kind: 'TOLLWAY' as const, from: 0, to: 12.5 }];
        const base = {
          itineraryId: itinerary.id,
          position: 0,
          engine: 'smart' as const,
          distance: 0.1,
          ascent: 0,
          descent: 0,
          duration: 0,
        };
        const segment = { ...base, id: 's-1', geometry, name: 'é ☃', description: null, groupId: null, hazards };
        await r.segments.upsert(segment);
        await r.segments.upsert({ ...segment, id: 's-0', geometry: [], hazards: undefined });
        const [first, second] = await r.segments.listByItinerary(itinerary.id);
        expect(first).toEqual({ ...segment, geometry: [[-180, -90], geometry[1], geometry[2]] });
        expect(Object.is(first?.geometry[1]?.[0], -0)).toBe(true);
        expect(second).toMatchObject({ id: 's-0', geometry: [], hazards: [] });
        const point = { itineraryId: itinerary.id, position: 0, lon: 0, lat: 0, name: null, kind: null, description: null };
        await r.waypoints.upsert({ ...point, id: 'w-1', ele: Number.NaN });
        await r.waypoints.upsert({ ...point, id: 'w-0', ele: 1 });
        expect((await r.waypoints.listByItinerary(itinerary.id)).map((w) => [w.id, w.ele])).toEqual([
          ['w-1', null],
          ['w-0', 1],
        ]);
        const group = { itineraryId: itinerary.id, color: '#000', speed: null };
        await frozenAt(Date.now() + 1000, async () => {
          await r.segmentGroups.upsert({ ...group, id: 'g-b', name: 'b' });
          await r.segmentGroups.upsert({ ...group, id: 'g-a', name: 'a' });
        });
        await r.segmentGroups.upsert({ ...group, id: 'g-b', name: 'renamed', speed: 4.5 });
        expect(await r.segmentGroups.listByItinerary(itinerary.id)).toEqual([
          { ...group, id: 'g-b', name: 'renamed', speed: 4.5 },
          { ...group, id: 'g-a', name: 'a' },
        ]);
      }),
    );

    it(
      'share links: minting again, even at once, leaves one live link; deleting the resource removes its links',
      withWorld(async ({ r, org, ana, itinerary }) => {
        const collection = value(await r.collections.create({ organizationId: org.id, name: 'Shared' }));
        const mint = (resourceKind: 'collection' | 'itinerary', resourceId: string) =>
          r.shareLinks.mint({ organizationId: org.id, resourceKind, resourceId, createdBy: ana.id });
        const minted = [
          await mint('collection', collection.id),
          ...(await Promise.all([1, 2, 3].map(() => mint('collection', collection.id)))),
        ];
        const live = await r.shareLinks.getActive('collection', collection.id);
        expect(live).toMatchObject({ resourceKind: 'collection', resourceId: collection.id, createdBy: ana.id, disabledAt: null });
        expect((await Promise.all(minted.map((m) => r.shareLinks.findByToken(m.token)))).filter(Boolean)).toEqual([live]);
        const rotated = await r.shareLinks.rotate('collection', collection.id, null);
        expect(rotated?.link).toMatchObject({ organizationId: org.id, createdBy: null });
        expect(await r.shareLinks.findByToken(rotated!.token)).toEqual(rotated?.link);
        const other = await mint('itinerary', itinerary.id);
        expect(await r.shareLinks.findByToken(other.token.toUpperCase())).toBeUndefined();
        expect(await r.collections.delete(collection.id)).toBe(true);
        expect(await r.shareLinks.getActive('collection', collection.id)).toBeUndefined();
        expect(await r.shareLinks.findByToken(rotated!.token)).toBeUndefined();
        expect([await r.shareLinks.disable('collection', collection.id), await r.shareLinks.rotate('collection', collection.id)]).toEqual([
          false,
          undefined,
        ]);
        expect(await r.shareLinks.findByToken(other.token)).toEqual(other.link);
        expect(await r.itineraries.delete(itinerary.id)).toBe(true);
        expect(await r.shareLinks.getActive('itinerary', itinerary.id)).toBeUndefined();
      }),
    );

    it(
      'locks: one of two members racing for a part gets it; renewals; lapsed locks reported once even when swept at once',
      withWorld(async ({ r, org, ana, bo, itinerary }) => {
        const other = value(await r.itineraries.create({ organizationId: org.id, name: 'Other' }));
        const w1 = { type: 'waypoint', id: 'w1' } as const;
        const w2 = { type: 'waypoint', id: 'w2' } as const;
        const s9 = { type: 'segment', id: 's9' } as const;
        const race = await Promise.all([ana.id, bo.id].map((u) => r.locks.acquire(itinerary.id, u, [w2, w1], T0)));
        expect(race.filter((x) => x.ok)).toHaveLength(1);
        const holder = (await r.locks.get(itinerary.id, w1, T0))!.holderUserId;
        const loser = holder === ana.id ? bo.id : ana.id;
        expect(race).toContainEqual({ ok: false, part: w2, holderUserId: holder });
        expect((await r.locks.acquire(itinerary.id, holder, [w2, s9], T0 + 60_000)).ok).toBe(true);
        expect(await r.locks.acquire(itinerary.id, loser, [s9], T0 + TTL)).toEqual({ ok: false, part: s9, holderUserId: holder });
        expect((await r.locks.list(itinerary.id, T0 + TTL)).map((l) => l.id)).toEqual(['s9', 'w2']);
        await r.locks.acquire(other.id, loser, [s9], T0);
        const sweeps = await Promise.all([1, 2, 3, 4].map(() => r.locks.expire(T0 + TTL)));
        expect(
          sweeps
            .flat()
            .map((l) => `${l.itineraryId === other.id ? 'other' : 'this'} ${l.id} ${l.holderUserId === holder}`)
            .sort(),
        ).toEqual(['other s9 false', 'this w1 true']);
        expect(await r.locks.expire(T0 + TTL, itinerary.id)).toEqual([]);
        expect(await r.locks.blockingHolder(itinerary.id, loser, [s9, w1], T0 + TTL)).toBe(holder);
        expect(await r.locks.blockingHolder(itinerary.id, holder, [s9, w1], T0 + TTL)).toBe(NO_HOLDER);
        expect((await r.locks.dropParts(itinerary.id, [s9, s9])).map((l) => l.id)).toEqual(['s9']);
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

    it(
      'users: emails are found, verified and kept unique without regard to case, stored trimmed',
      withWorld(async ({ r }) => {
        const cleo = await r.users.create({ email: ' Cleo@Contract.Test ', password: 'cleo-password-1', name: 'Cleo' });
        expect(cleo.email).toBe('Cleo@Contract.Test');
        expect(await r.users.getByEmail('cleo@contract.test')).toEqual(cleo);
        expect((await r.users.verifyPassword('CLEO@CONTRACT.TEST', 'cleo-password-1'))?.id).toBe(cleo.id);
        await expect(r.users.create({ email: 'cleo@CONTRACT.test', password: 'other-password-1' })).rejects.toThrow();
        await expect(r.users.create({ email: 'not-an-email', password: 'other-password-1' })).rejects.toThrow(TypeError);
        expect(await r.users.getByEmail('nobody@contract.test')).toBeUndefined();
        expect(await r.users.count()).toBe(3);
      }),
    );

    it(
      'organizations: limits, products and AI settings round trip; bad values are refused and change nothing',
      withWorld(async ({ r }) => {
        const org = await r.organizations.create({
          name: 'Limits',
          limits: { zones: 3, itineraries: null },
          products: ['intelligence', 'studio'],
        });
        expect(org.products).toEqual(['studio', 'intelligence']);
        expect(await r.organizations.get(org.id)).toEqual(org);
        expect(Object.keys((await r.organizations.get(org.id))!.limits)).toEqual(['zones', 'itineraries']);
        await r.organizations.setLimit(org.id, 'zones', undefined);
        expect((await r.organizations.setLimit(org.id, 'collections', null))?.limits).toEqual({ itineraries: null, collections: null });
        await expect(r.organizations.setLimit(org.id, 'keys', -1)).rejects.toThrow(TypeError);
        await expect(r.organizations.setProducts(org.id, ['maps' as never])).rejects.toThrow(TypeError);
        await expect(r.organizations.setStatus(org.id, 'paused' as never)).rejects.toThrow();
        const ai = { endpoint: 'http://localhost:11434/v1', model: 'm', enabledTools: ['plan_route'], nested: { n: 1.5, off: false } };
        await r.organizations.setAiSettings(org.id, ai);
        const settled = await r.organizations.updateSettings(org.id, {
          embedLayers: ['trails'],
          embedPlanner: true,
          defaultAllowedOrigins: ['https://a.example'],
          requireSessionToken: true,
        });
        expect(settled).toMatchObject({
          limits: { itineraries: null, collections: null },
          aiSettings: ai,
          status: 'active',
          embedPlanner: true,
        });
        expect(await r.organizations.get(org.id)).toEqual(settled);
        expect(await r.organizations.setLimit('00000000-0000-4000-8000-000000000000', 'zones', 1)).toBeUndefined();
      }),
    );

    it(
      'organizations and keys list oldest first, ties in creation order',
      withWorld(async ({ r, org }) => {
        const made = await frozenAt(Date.now() + 1000, async () => ({
          zeta: await r.organizations.create({ name: 'Zeta' }),
          alpha: await r.organizations.create({ name: 'Alpha' }),
          first: await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'c' }),
          second: await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'b' }),
          third: await r.apiKeys.create({ organizationId: org.id, type: 'sk', name: 'a' }),
        }));
        expect((await r.organizations.list()).map((o) => o.name)).toEqual(['Contract', 'Zeta', 'Alpha']);
        expect(await r.organizations.count()).toBe(3);
        await r.apiKeys.revoke(made.second.apiKey.id);
        expect((await r.apiKeys.list(org.id)).map((k) => k.id)).toEqual([made.first.apiKey.id, made.third.apiKey.id]);
        expect((await r.apiKeys.list(org.id, { includeRevoked: true })).map((k) => k.name)).toEqual(['c', 'b', 'a']);
      }),
    );

    it(
      'memberships list by creation, then organization name (a user) or email without regard to case (an organization)',
      withWorld(async ({ r, ana }) => {
        const t = Date.now() + 1000;
        const zeta = await r.organizations.create({ name: 'Zeta' });
        const alpha = await r.organizations.create({ name: 'alpha' });
        const beta = await r.organizations.create({ name: 'Beta' });
        const zed = await r.users.create({ email: 'Zed@contract.test', password: 'zed-password-1' });
        const amy = await r.users.create({ email: 'amy@contract.test', password: 'amy-password-1' });
        await frozenAt(t, async () => {
          await r.memberships.add(zeta.id, ana.id, 'viewer');
          await r.memberships.add(alpha.id, ana.id, 'admin');
          await r.memberships.add(zeta.id, zed.id, 'viewer');
          await r.memberships.add(zeta.id, amy.id, 'viewer');
        });
        await frozenAt(t + 1, () => r.memberships.add(beta.id, ana.id, 'owner'));
        const names = (await r.memberships.listByUser(ana.id)).map((m) => m.organizationName);
        expect(names.slice(1)).toEqual(['Zeta', 'alpha', 'Beta']);
        expect((await r.memberships.listByOrganization(zeta.id)).map((m) => m.email)).toEqual([
          'amy@contract.test',
          'ana@contract.test',
          'Zed@contract.test',
        ]);
      }),
    );

    it(
      'usage: concurrent increments each get their own count; minute and daily ranges; prune',
      withWorld(async ({ r, org }) => {
        const counts = await Promise.all(Array.from({ length: 8 }, () => r.usage.increment(org.id, 'mcp', 5)));
        expect(counts.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        const day = Math.floor(Date.UTC(2026, 0, 2) / 60_000);
        await r.usage.increment(org.id, 'data', day - 1, 4);
        await r.usage.increment(org.id, 'tiles', day, 10);
        await r.usage.increment(org.id, 'data', day, 2);
        await r.usage.increment(org.id, 'Embed', day, 1);
        await r.usage.increment(org.id, 'data', day + 60, 3);
        expect(await r.usage.query({ organizationId: org.id, fromMinute: day, toMinute: day + 1 })).toEqual([
          { api: 'Embed', minute: day, count: 1 },
          { api: 'data', minute: day, count: 2 },
          { api: 'tiles', minute: day, count: 10 },
        ]);
        expect(
          (await r.usage.query({ organizationId: org.id, api: 'data', fromMinute: day - 1, toMinute: day + 1440 })).map((b) => b.count),
        ).toEqual([4, 2, 3]);
        expect(await r.usage.queryDaily({ organizationId: org.id, fromMinute: day - 1, toMinute: day + 1440 })).toEqual([
          { api: 'data', day: '2026-01-01', count: 4 },
          { api: 'Embed', day: '2026-01-02', count: 1 },
          { api: 'data', day: '2026-01-02', count: 5 },
          { api: 'tiles', day: '2026-01-02', count: 10 },
        ]);
        expect(await r.usage.prune(day)).toBe(2);
        expect(await r.usage.get(org.id, 'data', day - 1)).toBe(0);
        expect(await r.usage.get(org.id, 'data', day)).toBe(2);
      }),
    );

    it(
      'oauth: a code redeems once, even presented twice at once; a reused refresh token revokes its family',
      withWorld(async ({ r, org, ana }) => {
        const client = await r.oauth.registerClient({
          name: 'Agent',
          redirectUris: ['http://localhost:3000/cb'],
          metadata: { b: 1, a: [2] },
        });
        expect(await r.oauth.getClient(client.id)).toEqual(client);
        const pk = await r.apiKeys.create({ organizationId: org.id, type: 'pk', name: 'mcp', scopes: ['mcp'] });
        const input = {
          clientId: client.id,
          userId: ana.id,
          organizationId: org.id,
          apiKeyId: pk.apiKey.id,
          redirectUri: 'http://localhost:3000/cb',
          codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        };
        const { code, record } = await r.oauth.createCode(input, T0);
        expect(await r.oauth.codeRedeemed(code)).toBe(false);
        const redeemed = await Promise.all([r.oauth.consumeCode(code, T0 + 1), r.oauth.consumeCode(code, T0 + 1)]);
        expect(redeemed.filter((c) => c !== undefined)).toEqual([record]);
        expect(await r.oauth.codeRedeemed(code)).toBe(true);
        expect(await r.oauth.consumeCode((await r.oauth.createCode(input, T0)).code, T0 + 60_000)).toBeUndefined();

        const grant = {
          familyId: 'fam',
          clientId: client.id,
          userId: ana.id,
          organizationId: org.id,
          apiKeyId: pk.apiKey.id,
          scope: 'mcp',
          resource: null,
        };
        const first = (await r.oauth.issueRefreshToken(grant, TTL, T0))!;
        const both = await Promise.all([
          r.oauth.rotateRefreshToken(first, client.id, TTL, T0 + 1),
          r.oauth.rotateRefreshToken(first, client.id, TTL, T0 + 1),
        ]);
        expect(both.map((x) => (x.ok ? 'ok' : x.reason)).sort()).toEqual(['ok', 'reused']);
        expect(both.find((x) => x.ok)).toEqual({ ok: true, grant, refreshToken: expect.stringMatching(/^mcpr_/) });
        expect(await r.oauth.familyRevoked('fam')).toBe(true);
        const successor = both.find((x) => x.ok) as { refreshToken: string };
        expect(await r.oauth.rotateRefreshToken(successor.refreshToken, client.id, TTL, T0 + 2)).toEqual({ ok: false, reason: 'invalid' });
        expect(await r.oauth.issueRefreshToken(grant, TTL, T0 + 2)).toBeUndefined();
        expect(await r.oauth.purgeExpiredCodes(T0 + 60_000)).toBe(2);
      }),
    );
  });
}
