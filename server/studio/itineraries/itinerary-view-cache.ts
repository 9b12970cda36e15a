// Itinerary views by version. Building a view reads the whole chain (every segment's line) and assembles it,
// which a popular itinerary read thousands of times a second would repeat for nothing: the view of one
// version never changes. The cache keeps the most recently read views, each under the stamp of the record
// it was built from (draft and published versions, last update), so a view is rebuilt exactly when its
// itinerary changed. Cached views are deeply frozen: shared between callers, never mutated (and the REST
// adapter serializes a frozen result once).

import type { Itinerary } from '../../../data/stores/itinerary-store.js';
import type { ItineraryView } from './itinerary-view.js';
import { freezeShared } from '../../../data/deep-freeze.js';

/** Views kept (a 50-segment view is some tens of kilobytes). */
export const VIEW_CACHE_ENTRIES = 256;

/** What identifies one version of an itinerary's view: any change to the record changes it. */
function stampOf(itinerary: Itinerary): string {
  return `${itinerary.draftVersion}:${itinerary.publishedVersion}:${itinerary.publishedAt}:${itinerary.updatedAt}`;
}

interface Entry {
  stamp: string;
  view: ItineraryView;
  /** When it was last read (a counter): the least recently read entry is the one evicted. */
  used: number;
}

export class ItineraryViewCache {
  // Entries are updated in place (a hit marks `used`, a new version replaces the value under the same key):
  // re-inserting on every read would make the long-lived map rebuild its table over and over, and each table
  // it leaves behind keeps the views it held alive past the next young-generation collection.
  readonly #entries = new Map<string, Entry>();
  #clock = 0;

  constructor(private readonly capacity = VIEW_CACHE_ENTRIES) {}

  /** The cached view of `itinerary`'s draft or published version, if it is still the current one. */
  cached(itinerary: Itinerary, version: 'draft' | 'published'): ItineraryView | undefined {
    const hit = this.#entries.get(`${itinerary.id}:${version}`);
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
    if (hit && hit.stamp === stamp) {
      hit.used = ++this.#clock;
      return hit.view;
    }
    const view = await build();
    if (!view) return undefined;
    const entry: Entry = { stamp, view: freezeShared(view), used: ++this.#clock };
    const replaces = this.#entries.has(key);
    this.#entries.set(key, entry);
    if (!replaces && this.#entries.size > this.capacity) this.#evictLeastRecent();
    return view;
  }

  #evictLeastRecent(): void {
    let oldest: string | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.#entries) {
      if (entry.used < oldestUse) {
        oldestUse = entry.used;
        oldest = key;
      }
    }
    if (oldest !== undefined) this.#entries.delete(oldest);
  }
}
