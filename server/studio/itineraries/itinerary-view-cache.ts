// Itinerary views by version. Building a view reads the whole chain (every segment's line) and assembles it,
// which a popular itinerary read thousands of times a second would repeat for nothing: the view of one
// version never changes. The cache keeps the most recently read views, each under the stamp of the record
// it was built from (draft and published versions, last update), so a view is rebuilt exactly when its
// itinerary changed. Cached views are deeply frozen: shared between callers, never mutated (and the REST
// adapter serializes a frozen result once).

import type { Itinerary } from '../../../data/model/itinerary.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { freezeShared } from '../../../data/deep-freeze.js';
import { SecondChanceMap } from '../../../lib/second-chance-map.js';

/** Views kept (a 50-segment view is some tens of kilobytes). */
export const VIEW_CACHE_ENTRIES = 256;

/** What identifies one version of an itinerary's view: any change to the record changes it. */
function stampOf(itinerary: Itinerary): string {
  return `${itinerary.draftVersion}:${itinerary.publishedVersion}:${itinerary.publishedAt}:${itinerary.updatedAt}`;
}

interface Entry {
  stamp: string;
  view: ItineraryView;
}

export class ItineraryViewCache {
  /** Least recently read evicted first, without rewriting the map on a read (lib/second-chance-map.ts). */
  readonly #entries = new SecondChanceMap<Entry>();

  constructor(private readonly capacity = VIEW_CACHE_ENTRIES) {}

  /** The cached view of `itinerary`'s draft or published version, if it is still the current one. */
  cached(itinerary: Itinerary, version: 'draft' | 'published'): ItineraryView | undefined {
    const hit = this.#entries.peek(`${itinerary.id}:${version}`);
    return hit && hit.stamp === stampOf(itinerary) ? hit.view : undefined;
  }

  /** The view of `itinerary`'s draft or published version: cached, or built by `build` and cached. */
  async view(
    itinerary: Itinerary,
    version: 'draft' | 'published',
    build: () => Promise<ItineraryView | undefined>,
  ): Promise<ItineraryView | undefined> {
    const key = `${itinerary.id}:${version}`;
    const stamp = stampOf(itinerary);
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp) return hit.view;
    const view = await build();
    if (!view) return undefined;
    // Room first, then the view: the one just built is never the one evicted. A new version replaces in place.
    if (this.#entries.peek(key) === undefined && this.#entries.size >= this.capacity) this.#entries.evict();
    this.#entries.set(key, { stamp, view: freezeShared(view) });
    return view;
  }
}
