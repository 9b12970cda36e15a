// Each kind of write announces its change on the event bus after its commit, never before, and a refused
// write announces nothing. Operations are called directly (no transport); the listener records whether a
// transaction was still open and what the database held when the event arrived.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_TTL_MS } from '../../../data/model/lock.js';
import { createStores } from '../../../data/stores/stores.js';
import type { Access } from '../../../server/auth/access.js';
import type { ChangeEvent } from '../../../server/core/change-events.js';
import { managementOperations } from '../../../server/management/management-operations.js';
import { SecretBox } from '../../../server/management/secret-box.js';
import { sweepLapsedLocks } from '../../../server/studio/itineraries/lock-sweeper.js';
import { networkPoints } from '../studio/itineraries/chain-helpers.js';
import { type InProcessStudio, startInProcessStudio } from '../studio/itineraries/in-process-studio.js';

let studio: InProcessStudio;
let owner: Access;
let other: Access;
const context = { origin: 'http://localhost', lang: 'en' as const };

interface Seen {
  event: ChangeEvent;
  /** A transaction was open when the event arrived (it must never be). */
  inTransaction: boolean;
  /** The itinerary's versions as committed when the event arrived. */
  versions?: { draft: number; published: number | null } | null;
  /** Live locks of the itinerary when the event arrived. */
  lockCount?: number;
}
const seen: Seen[] = [];
const types = () => seen.map((s) => s.event.type);

function asMember(userId: string, organizationId: string, role: 'owner' | 'contributor'): Access {
  return { kind: 'user', user: createStores(studio.db).users.get(userId)!, memberships: new Map([[organizationId, role]]) };
}

beforeAll(async () => {
  studio = await startInProcessStudio();
  const { app, seeded } = studio;
  owner = asMember(seeded.owner.id, seeded.organization.id, 'owner');
  other = asMember(studio.otherId, seeded.organization.id, 'contributor');
  // The listener reads directly on the connection: it runs synchronously, right after the commit.
  const stores = createStores(studio.db);
  app.events.subscribe((event) => {
    const itineraryId = 'itineraryId' in event ? event.itineraryId : undefined;
    const itinerary = itineraryId ? stores.itineraries.get(itineraryId) : undefined;
    seen.push({
      event,
      inTransaction: studio.db.inTransaction,
      ...(itineraryId
        ? {
            versions: itinerary ? { draft: itinerary.draftVersion, published: itinerary.publishedVersion } : null,
            lockCount: stores.locks.list(itineraryId, Date.now()).length,
          }
        : {}),
    });
  });
});

afterAll(() => studio.close());
beforeEach(() => {
  seen.length = 0;
});

async function newItinerary(name: string) {
  const ops = studio.app.operations.itineraries;
  const created = await ops.postItinerary.run(owner, { name, privacy: 'private', collection_id: studio.seeded.collection.id }, context);
  const [a, b] = networkPoints();
  return ops.postItinerarySegment.run(owner, { itinerary_id: created.id, engine: 'freehand', coordinates: [a!, b!] }, context);
}

describe('change events', () => {
  it('a create announces the new draft and the collection it was filed in, after the commit', async () => {
    const ops = studio.app.operations.itineraries;
    const it1 = await ops.postItinerary.run(
      owner,
      { name: 'Events one', privacy: 'private', collection_id: studio.seeded.collection.id },
      context,
    );
    expect(seen.map((s) => s.event)).toEqual([
      { type: 'itinerary.draft_changed', organizationId: studio.seeded.organization.id, itineraryId: it1.id, version: 1 },
      {
        type: 'collection.changed',
        organizationId: studio.seeded.organization.id,
        collectionId: studio.seeded.collection.id,
        change: 'items',
      },
    ]);
    expect(seen.every((s) => !s.inTransaction)).toBe(true);
    expect(seen[0]!.versions).toEqual({ draft: 1, published: null });
  });

  it('a chain edit announces the new draft version and the locks it took on the parts it created', async () => {
    const view = await newItinerary('Events two');
    const changed = seen.filter((s) => s.event.type === 'itinerary.draft_changed').at(-1)!;
    expect(changed.event).toMatchObject({ itineraryId: view.id, version: view.version });
    expect(changed.versions?.draft).toBe(view.version);
    const taken = seen.find((s) => s.event.type === 'lock.taken')!;
    expect(taken.event).toMatchObject({ itineraryId: view.id, holderId: studio.seeded.owner.id });
    // Committed before announced: the locks are already there when the listener runs.
    expect(taken.lockCount).toBe(3);
    expect(seen.every((s) => !s.inTransaction)).toBe(true);
  });

  it('locks taken and released are announced; a refused lock announces nothing', async () => {
    const view = await newItinerary('Events three');
    const ops = studio.app.operations.itineraries;
    seen.length = 0;
    const refused = await ops.postItineraryLock.run(other, { itinerary_id: view.id, parts: 'all' }, context).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(seen).toEqual([]);
    await ops.deleteItineraryLock.run(owner, { itinerary_id: view.id }, context);
    expect(types()).toEqual(['lock.released']);
    expect(seen[0]!.event).toMatchObject({ holderId: studio.seeded.owner.id });
    expect((seen[0]!.event as { parts: unknown[] }).parts).toHaveLength(3);
    expect(seen[0]!.lockCount).toBe(0);
    seen.length = 0;
    await ops.postItineraryLock.run(other, { itinerary_id: view.id, parts: 'all' }, context);
    expect(types()).toEqual(['lock.taken']);
    expect(seen[0]!.event).toMatchObject({ holderId: studio.otherId });
  });

  it('the sweeper expires lapsed locks and announces whose they were', async () => {
    const view = await newItinerary('Events four');
    seen.length = 0;
    expect(await sweepLapsedLocks(studio.app, Date.now())).toBe(0);
    expect(seen).toEqual([]);
    const swept = await sweepLapsedLocks(studio.app, Date.now() + LOCK_TTL_MS + 1);
    expect(swept).toBeGreaterThanOrEqual(3);
    const mine = seen.filter((s) => s.event.type === 'lock.expired' && s.event.itineraryId === view.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.event).toMatchObject({ holderId: studio.seeded.owner.id });
    expect(await studio.app.stores.locks.list(view.id, 0)).toEqual([]);
  });

  it('publish and delete are announced after their commits; a refused publish announces nothing', async () => {
    const view = await newItinerary('Events five');
    const ops = studio.app.operations.itineraries;
    await ops.postItineraryLock.run(owner, { itinerary_id: view.id, parts: 'all' }, context);
    seen.length = 0;
    // Another member may not publish while the owner holds locks.
    await expect(ops.postItineraryPublish.run(other, { itinerary_id: view.id }, context)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(seen).toEqual([]);
    const published = await ops.postItineraryPublish.run(owner, { itinerary_id: view.id }, context);
    expect(seen.map((s) => s.event)).toEqual([
      {
        type: 'itinerary.published',
        organizationId: studio.seeded.organization.id,
        itineraryId: view.id,
        version: published.published_version,
      },
    ]);
    expect(seen[0]!.versions?.published).toBe(published.published_version);
    seen.length = 0;
    await ops.deleteItinerary.run(owner, { itinerary_id: view.id }, context);
    expect(seen.map((s) => s.event)).toEqual([
      { type: 'itinerary.deleted', organizationId: studio.seeded.organization.id, itineraryId: view.id },
    ]);
    expect(seen[0]!.versions).toBeNull();
  });

  it('collections, keys and organization settings announce their changes; refused ones do not', async () => {
    const { app, seeded } = studio;
    const collections = app.operations.collections;
    const made = await collections.postCollection.run(owner, { name: 'Events', privacy: 'public' }, context);
    expect(seen.map((s) => s.event)).toEqual([
      { type: 'collection.changed', organizationId: seeded.organization.id, collectionId: made.id, change: 'created' },
    ]);
    seen.length = 0;
    await expect(collections.postCollection.run(owner, { name: 'Events', privacy: 'public' }, context)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(seen).toEqual([]);

    const management = managementOperations({
      stores: app.stores,
      writes: app.writes,
      secrets: new SecretBox('test secret of thirty-two chars!!', 'test'),
    });
    await management.patchManagementSettings.run(owner, { quota_data: 1234 }, context);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'organization.settings_changed', organizationId: seeded.organization.id }]);
    expect((await app.stores.organizations.get(seeded.organization.id))?.quotaData).toBe(1234);
    seen.length = 0;
    const key = await management.postManagementKey.run(owner, { type: 'pk', name: 'events', scopes: ['resources'] }, context);
    expect(seen).toEqual([]);
    await management.deleteManagementKey.run(owner, { key_id: key.id }, context);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'key.revoked', organizationId: seeded.organization.id, keyId: key.id }]);
    seen.length = 0;
    await expect(management.deleteManagementKey.run(owner, { key_id: key.id }, context)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(seen).toEqual([]);
  });
});
