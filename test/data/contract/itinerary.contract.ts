// Itineraries, on any engine (formerly the SQLite ItineraryStore's own tests).
import { describe, expect, it } from 'vitest';
import { type Conflict, isConflict } from '../../../data/model/conflict.js';
import type { Itinerary } from '../../../data/model/itinerary.js';
import { decodeLine, encodeLine } from '../../../data/model/line-blob.js';
import { type OpenSubject, onFresh } from './subject.js';

function created(result: Itinerary | Conflict): Itinerary {
  if (isConflict(result)) throw new Error(`unexpected conflict with ${result.conflict}`);
  return result;
}

export function itineraryContract(adapter: string, open: OpenSubject): void {
  describe(`itineraries: ${adapter}`, () => {
    it(
      'creates a never-published draft with the defaults',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'I' });
        const it0 = created(await r.itineraries.create({ organizationId: org.id, name: 'Ridge' }));
        expect(it0).toMatchObject({
          activity: 'HIKING_AND_TRAIL',
          privacy: 'private',
          draftVersion: 1,
          publishedVersion: null,
          publishedAt: null,
        });
        expect(await r.itineraries.get(it0.id)).toEqual(it0);
        expect(await r.itineraries.publishedSnapshot(it0.id)).toBeUndefined();
      }),
    );

    it(
      'a name is unique per organization',
      onFresh(open, async ({ repositories: r }) => {
        const a = await r.organizations.create({ name: 'A' });
        const b = await r.organizations.create({ name: 'B' });
        const ridge = created(await r.itineraries.create({ organizationId: a.id, name: 'Ridge' }));
        created(await r.itineraries.create({ organizationId: b.id, name: 'Ridge' }));
        expect(await r.itineraries.create({ organizationId: a.id, name: 'Ridge' })).toEqual({ conflict: ridge.id });
        const crest = created(await r.itineraries.create({ organizationId: a.id, name: 'Crest' }));
        expect(await r.itineraries.update(crest.id, { name: 'Ridge' })).toEqual({ conflict: ridge.id });
        expect((await r.itineraries.get(crest.id))?.name).toBe('Crest');
        expect((await r.itineraries.findByName(a.id, 'Ridge'))?.organizationId).toBe(a.id);
      }),
    );

    it(
      'publishing stores the snapshot of the current draft version',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'I' });
        const it0 = created(await r.itineraries.create({ organizationId: org.id, name: 'Ridge', privacy: 'public' }));
        expect((await r.itineraries.bumpDraftVersion(it0.id))?.draftVersion).toBe(2);
        const published = await r.itineraries.publish(it0.id, { segments: [], waypoints: [], groups: [] });
        expect(published).toMatchObject({ draftVersion: 2, publishedVersion: 2 });
        expect(await r.itineraries.publishedSnapshot(it0.id)).toEqual({ segments: [], waypoints: [], groups: [] });
        expect((await r.itineraries.list(org.id, { publicOnly: true })).total).toBe(1);
      }),
    );

    it(
      'a segment row accepts the blob and refuses a truncated one',
      onFresh(open, async ({ repositories: r, rows, blob, refused }) => {
        const org = await r.organizations.create({ name: 'I' });
        const it0 = created(await r.itineraries.create({ organizationId: org.id, name: 'R' }));
        // Hand-written rows: the repositories always encode whole positions, so only raw SQL can offer a truncated blob.
        const insert = (id: string, geometry: Uint8Array) =>
          rows(`INSERT INTO segments (id, itinerary_id, position, engine, geometry, created_at, updated_at)
                VALUES ('${id}', '${it0.id}', 0, 'freehand', ${blob(geometry)}, 'now', 'now') RETURNING id`);
        const line = encodeLine([
          [1, 2, 3],
          [4, 5, 6],
        ]);
        await insert('s1', line);
        const [row] = await rows('SELECT geometry FROM segments');
        expect(decodeLine((row?.geometry as Buffer | undefined) ?? Buffer.alloc(0))).toEqual([
          [1, 2, 3],
          [4, 5, 6],
        ]);
        await expect(insert('s2', new Uint8Array(20))).rejects.toThrow(refused.check);
      }),
    );
  });
}
