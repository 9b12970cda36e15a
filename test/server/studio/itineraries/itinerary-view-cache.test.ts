// Itinerary views are cached per version: a read of an unchanged itinerary reuses its view, any change to
// the record (a draft edit, a publication, an update) builds it again, and the least recently read go first.

import { describe, expect, it } from 'vitest';
import type { Itinerary } from '../../../../data/stores/itinerary-store.js';
import { ItineraryViewCache } from '../../../../server/studio/itineraries/itinerary-view-cache.js';
import type { ItineraryView } from '../../../../server/studio/itineraries/itinerary-view.js';

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
  const build = (it: Itinerary) => () => {
    builds++;
    return { id: it.id, version: it.draftVersion, segments: [{ id: 's' }] } as unknown as ItineraryView;
  };
  return { build, builds: () => builds };
}

describe('ItineraryViewCache', () => {
  it('reuses the view of an unchanged version and rebuilds it after any change to the record', () => {
    const cache = new ItineraryViewCache();
    const { build, builds } = counting();
    const v1 = record('a');
    const first = cache.view(v1, 'draft', build(v1));
    expect(cache.view(v1, 'draft', build(v1))).toBe(first);
    expect(builds()).toBe(1);
    const v2 = record('a', 2);
    expect(cache.view(v2, 'draft', build(v2))?.version).toBe(2);
    const published = { ...v2, publishedVersion: 2, publishedAt: '2026-11-24T01:00:00.000Z' };
    cache.view(published, 'draft', build(published));
    const renamed = { ...published, updatedAt: '2026-11-24T02:00:00.000Z' };
    cache.view(renamed, 'draft', build(renamed));
    expect(builds()).toBe(4);
    // The draft and the published view of one itinerary are cached apart.
    cache.view(renamed, 'published', build(renamed));
    expect(builds()).toBe(5);
  });

  it('freezes what it shares and evicts the least recently read', () => {
    const cache = new ItineraryViewCache(2);
    const { build, builds } = counting();
    const [a, b, c] = [record('a'), record('b'), record('c')];
    const view = cache.view(a, 'draft', build(a))!;
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.segments[0])).toBe(true);
    cache.view(b, 'draft', build(b));
    cache.view(a, 'draft', build(a)); // a is now the most recent
    cache.view(c, 'draft', build(c)); // evicts b
    expect(builds()).toBe(3);
    cache.view(a, 'draft', build(a));
    expect(builds()).toBe(3);
    cache.view(b, 'draft', build(b));
    expect(builds()).toBe(4);
  });

  it('caches nothing when there is no view', () => {
    const cache = new ItineraryViewCache();
    let builds = 0;
    const missing = () => {
      builds++;
      return undefined;
    };
    expect(cache.view(record('x'), 'published', missing)).toBeUndefined();
    expect(cache.view(record('x'), 'published', missing)).toBeUndefined();
    expect(builds).toBe(2);
  });
});
