import { describe, expect, it } from 'vitest';
import { decodeLine, decodeLineFlat, encodeLine } from '../../../data/model/line-blob.js';
import { memoryStores, created } from '../memory-db.js';

describe('ItineraryStore', () => {
  it('creates a never-published draft with the defaults', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'I' });
    const it0 = created(stores.itineraries.create({ organizationId: org.id, name: 'Ridge' }));
    expect(it0).toMatchObject({
      activity: 'HIKING_AND_TRAIL',
      privacy: 'private',
      draftVersion: 1,
      publishedVersion: null,
      publishedAt: null,
    });
    expect(stores.itineraries.get(it0.id)).toEqual(it0);
    expect(stores.itineraries.publishedSnapshot(it0.id)).toBeUndefined();
  });

  it('a name is unique per organization', () => {
    const stores = memoryStores();
    const a = stores.organizations.create({ name: 'A' });
    const b = stores.organizations.create({ name: 'B' });
    const ridge = created(stores.itineraries.create({ organizationId: a.id, name: 'Ridge' }));
    created(stores.itineraries.create({ organizationId: b.id, name: 'Ridge' }));
    expect(stores.itineraries.create({ organizationId: a.id, name: 'Ridge' })).toEqual({ conflict: ridge.id });
    const crest = created(stores.itineraries.create({ organizationId: a.id, name: 'Crest' }));
    expect(stores.itineraries.update(crest.id, { name: 'Ridge' })).toEqual({ conflict: ridge.id });
    expect(stores.itineraries.get(crest.id)?.name).toBe('Crest');
    expect(stores.itineraries.findByName(a.id, 'Ridge')?.organizationId).toBe(a.id);
  });

  it('publishing stores the snapshot of the current draft version', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'I' });
    const it0 = created(stores.itineraries.create({ organizationId: org.id, name: 'Ridge', privacy: 'public' }));
    expect(stores.itineraries.bumpDraftVersion(it0.id)?.draftVersion).toBe(2);
    const published = stores.itineraries.publish(it0.id, { segments: [], waypoints: [], groups: [] });
    expect(published).toMatchObject({ draftVersion: 2, publishedVersion: 2 });
    expect(stores.itineraries.publishedSnapshot(it0.id)).toEqual({ segments: [], waypoints: [], groups: [] });
    expect(stores.itineraries.list(org.id, { publicOnly: true }).total).toBe(1);
  });
});

describe('line blob', () => {
  it('round-trips positions with and without elevation as 24 bytes each', () => {
    const line: [number, number, number?][] = [
      [1.5, 42.5, 1200.25],
      [1.51, 42.51],
    ];
    const blob = encodeLine(line as never);
    expect(blob.byteLength).toBe(48);
    expect(decodeLine(blob)).toEqual([
      [1.5, 42.5, 1200.25],
      [1.51, 42.51],
    ]);
    expect(Array.from(decodeLineFlat(blob)).slice(0, 3)).toEqual([1.5, 42.5, 1200.25]);
  });

  it('a segment row accepts the blob and refuses a truncated one', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'I' });
    const it0 = created(stores.itineraries.create({ organizationId: org.id, name: 'R' }));
    const insert = stores.db.prepare(
      `INSERT INTO segments (id, itinerary_id, position, engine, geometry, created_at, updated_at)
       VALUES (?, ?, 0, 'freehand', ?, 'now', 'now')`,
    );
    insert.run(
      's1',
      it0.id,
      encodeLine([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    );
    const row = stores.db.prepare<[], { geometry: Buffer }>('SELECT geometry FROM segments').get();
    expect(decodeLine(row?.geometry ?? Buffer.alloc(0))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(() => insert.run('s2', it0.id, Buffer.alloc(20))).toThrow(/CHECK/);
  });
});
