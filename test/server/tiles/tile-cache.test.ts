// The encoded-tile cache: bounded by bytes with the least recently used dropped first, one encoding shared by
// concurrent requests, a failed encoding not kept, and a resource's tiles forgotten at once.

import { describe, expect, it } from 'vitest';
import { type EncodedTile, TileCache } from '../../../server/tiles/tile-cache.js';
import { matchesEtag } from '../../../server/tiles/tile-routes.js';

const tile = (bytes: number, etag = '"e"'): EncodedTile => ({ raw: new Uint8Array(bytes), gzip: undefined, etag });

describe('TileCache', () => {
  it('keeps tiles within its byte bound, dropping the least recently used', async () => {
    const cache = new TileCache(3 * (1000 + 64 + 3));
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => tile(1000));
    await cache.get('a', async () => tile(1)); // a hit: `a` becomes the most recently used
    await cache.get('d', async () => tile(1000));
    expect(cache.size).toBe(3);
    let made = 0;
    const make = async () => {
      made++;
      return tile(1000);
    };
    await cache.get('b', make); // `b` was the oldest: dropped, made again
    await cache.get('a', make);
    expect(made).toBe(1);
    expect(cache.bytes).toBeLessThanOrEqual(3 * (1000 + 64 + 3));
  });

  it('keeps the tile it just made even when every other tile was read since it came', async () => {
    const cache = new TileCache(2 * (1000 + 64 + 3));
    for (const key of ['a', 'b']) await cache.get(key, async () => tile(1000));
    for (const key of ['a', 'b']) await cache.get(key, async () => tile(1)); // both read: both marked
    let made = 0;
    const make = async () => {
      made++;
      return tile(1000);
    };
    await cache.get('c', make);
    await cache.get('c', make);
    expect(made).toBe(1);
    expect(cache.size).toBe(2);
  });

  it('makes a tile once for requests that ask at the same time, and does not keep a failure', async () => {
    const cache = new TileCache(1 << 20);
    let made = 0;
    const make = async () => {
      made++;
      await new Promise((r) => setTimeout(r, 5));
      return tile(10);
    };
    const [a, b] = await Promise.all([cache.get('k', make), cache.get('k', make)]);
    expect(made).toBe(1);
    expect(a).toBe(b);
    await expect(cache.get('bad', async () => Promise.reject(new Error('worker failed')))).rejects.toThrow('worker failed');
    expect(await cache.get('bad', async () => tile(1))).toMatchObject({ etag: '"e"' });
  });

  it('forgets every tile of a prefix', async () => {
    const cache = new TileCache(1 << 20);
    await cache.get('itinerary:1@3/0/0/0', async () => tile(10));
    await cache.get('itinerary:1@3/1/0/0', async () => tile(10));
    await cache.get('itinerary:2@1/0/0/0', async () => tile(10));
    cache.forget('itinerary:1@');
    expect(cache.size).toBe(1);
  });
});

describe('matchesEtag', () => {
  it('matches a listed tag, its weak form and *, nothing else', () => {
    expect(matchesEtag('"a", "b"', '"b"')).toBe(true);
    expect(matchesEtag('W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"bb"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});
