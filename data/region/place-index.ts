// In-memory text search over a region's places: sorted token list, prefix match on every word.
import type { Place } from './places.js';
import type { PlaceKind } from '../../contracts/region-lookup.js';

export interface PlaceSearchOptions {
  limit?: number; // default 10
  kinds?: readonly PlaceKind[];
}

export interface PlaceIndex {
  /**
   * Places whose name, street or house number has a word starting with each word of `query`
   * (case and accents ignored). Ranked: exact name, then name prefix, then others; peaks, huts and
   * settlements before addresses; shorter names first; then place id (stable).
   */
  search(query: string, options?: PlaceSearchOptions): Place[];
}

/** Lower case, accents removed, split on anything but letters and digits. */
export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

const KIND_RANK: Readonly<Record<PlaceKind, number>> = {
  town: 0,
  village: 0,
  peak: 1,
  alpine_hut: 1,
  wilderness_hut: 1,
  hamlet: 2,
  shelter: 2,
  viewpoint: 3,
  address: 4,
};

export function createPlaceIndex(places: readonly Place[]): PlaceIndex {
  const byWord = new Map<string, number[]>();
  const normName: string[] = [];
  for (const p of places) {
    const nameWords = normalizeWords(p.name);
    normName.push(nameWords.join(' '));
    const words = new Set([...nameWords, ...normalizeWords(p.street ?? ''), ...normalizeWords(p.houseNumber ?? '')]);
    for (const w of words) {
      let list = byWord.get(w);
      if (!list) byWord.set(w, (list = []));
      list.push(p.id);
    }
  }
  const words = [...byWord.keys()].sort();
  const postings = words.map((w) => byWord.get(w)!);

  const lowerBound = (prefix: string): number => {
    let lo = 0;
    let hi = words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const matching = (prefix: string): Set<number> => {
    const out = new Set<number>();
    for (let i = lowerBound(prefix); i < words.length && words[i]!.startsWith(prefix); i++) {
      for (const id of postings[i]!) out.add(id);
    }
    return out;
  };

  return {
    search(query, options = {}) {
      const q = normalizeWords(query);
      if (q.length === 0) return [];
      let hits = matching(q[0]!);
      for (const w of q.slice(1)) {
        const m = matching(w);
        hits = new Set([...hits].filter((id) => m.has(id)));
      }
      const kinds = options.kinds ? new Set(options.kinds) : null;
      const qs = q.join(' ');
      const rank = (id: number): number => {
        const n = normName[id]!;
        return n === qs ? 0 : n.startsWith(qs) ? 1 : 2;
      };
      const result = [...hits]
        .map((id) => places[id]!)
        .filter((p) => kinds === null || kinds.has(p.kind))
        .sort((a, b) => rank(a.id) - rank(b.id) || KIND_RANK[a.kind] - KIND_RANK[b.kind] || a.name.length - b.name.length || a.id - b.id);
      return result.slice(0, options.limit ?? 10);
    },
  };
}
