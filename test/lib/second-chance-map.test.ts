import { describe, expect, it } from 'vitest';
import { SecondChanceMap } from '../../lib/second-chance-map.js';

/** A map holding `entries`, set in their order, none read. */
function mapOf(entries: Record<string, number>): SecondChanceMap<number> {
  const map = new SecondChanceMap<number>();
  for (const [key, value] of Object.entries(entries)) map.set(key, value);
  return map;
}

describe('SecondChanceMap', () => {
  it('evicts the least recently used: unread entries in the order they came, a read one after them', () => {
    const map = mapOf({ a: 1, b: 2, c: 3 });
    expect(map.get('a')).toBe(1); // a read: a goes last
    expect(map.evict()).toEqual(['b', 2]);
    expect(map.peek('c')).toBe(3); // a peek is not a read
    expect(map.evict()).toEqual(['c', 3]);
    expect(map.evict()).toEqual(['a', 1]);
    expect(map.evict()).toBeUndefined();
  });

  it('evicts even when every entry was read, and a new value under a known key is unread and in place', () => {
    const map = new SecondChanceMap<string>();
    map.set('a', 'a1');
    map.set('b', 'b1');
    map.get('a');
    map.get('b');
    expect(map.set('a', 'a2')).toBe('a1');
    expect(map.size).toBe(2);
    expect(map.evict()).toEqual(['a', 'a2']);
    expect(map.evict()).toEqual(['b', 'b1']);
  });

  it('removes the entries whose key matches, handing over each value', () => {
    const map = mapOf({ 'x:1': 1, 'y:2': 2, 'x:3': 3 });
    const removed: number[] = [];
    map.deleteWhere(
      (key) => key.startsWith('x:'),
      (v) => removed.push(v),
    );
    expect(removed).toEqual([1, 3]);
    expect(map.size).toBe(1);
    expect(map.peek('y:2')).toBe(2);
  });
});
