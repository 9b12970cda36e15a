// Itinerary views are cached per version: a read of an unchanged itinerary reuses its view, any change to
// the record (a draft edit, a publication, an update) builds it again, and the least recently read go first.

import { describe, expect, it } from 'vitest';
import type { Itinerary } from '../../../../data/model/itinerary.js';
import { ItineraryViewCache } from '../../../../server/studio/itineraries/itinerary-view-cache.js';
import type { ItineraryView } from '../../../../contracts/itinerary-view.js';

const record = (id: string, draftVersion = 1): Itinerary => ({
  id,
  organizationId: 'o',
  name: id,
  description: '',
  activity: 'HIKING_AND_TRAIL',
  privacy: 'public',
  createdBy: null,
  draftVersion,
  publishedVersion: null,
  publishedAt: null,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
});

function counting() {
  let builds = 0;
  const build = (it: Itinerary) => async () => {
    builds++;
    return { id: it.id, version: it.draftVersion, segments: [{ id: 's' }] } as unknown as ItineraryView;
  };
  return { build, builds: () => builds };
}

describe('ItineraryViewCache', () => {
  it('reuses the view of an unchanged version and rebuilds it after any change to the record', async () => {
    const cache = new ItineraryViewCache();
    const { build, builds } = counting();
    const v1 = record('a');
    const first = await cache.view(v1, 'draft', build(v1));
    expect(await cache.view(v1, 'draft', build(v1))).toBe(first);
    expect(builds()).toBe(1);
    const v2 = record('a', 2);
    expect((await cache.view(v2, 'draft', build(v2)))?.version).toBe(2);
    const published = { ...v2, publishedVersion: 2, publishedAt: '2026-11-24T01:00:00.000Z' };
    await cache.view(published, 'draft', build(published));
    const renamed = { ...published, updatedAt: '2026-11-24T02:00:00.000Z' };
    await cache.view(renamed, 'draft', build(renamed));
    expect(builds()).toBe(4);
    // The draft and the published view of one itinerary are cached apart.
    await cache.view(renamed, 'published', build(renamed));
    expect(builds()).toBe(5);
  });

  it('freezes what it shares and evicts the least recently read', async () => {
    const cache = new ItineraryViewCache(2);
    const { build, builds } = counting();
    const [a, b, c] = [record('a'), record('b'), record('c')];
    const view = (await cache.view(a, 'draft', build(a)))!;
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.segments[0])).toBe(true);
    await cache.view(b, 'draft', build(b));
    await cache.view(a, 'draft', build(a)); // a is now the most recent
    await cache.view(c, 'draft', build(c)); // evicts b
    expect(builds()).toBe(3);
    await cache.view(a, 'draft', build(a));
    expect(builds()).toBe(3);
    await cache.view(b, 'draft', build(b));
    expect(builds()).toBe(4);
  });

  it('keeps the view it just built even when every other view was read since it came', async () => {
    const cache = new ItineraryViewCache(2);
    const { build, builds } = counting();
    const [a, b, c] = [record('a'), record('b'), record('c')];
    for (const it of [a, b, a, b]) await cache.view(it, 'draft', build(it)); // both built, then both read
    await cache.view(c, 'draft', build(c));
    await cache.view(c, 'draft', build(c));
    expect(builds()).toBe(3);
  });

  it('caches nothing when there is no view', async () => {
    const cache = new ItineraryViewCache();
    let builds = 0;
    const missing = async () => {
      builds++;
      return undefined;
    };
    expect(await cache.view(record('x'), 'published', missing)).toBeUndefined();
    expect(await cache.view(record('x'), 'published', missing)).toBeUndefined();
    expect(builds).toBe(2);
  });
});
