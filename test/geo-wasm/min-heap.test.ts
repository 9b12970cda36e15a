// The plain-JS priority queue behind the reference router and the benchmark peers.

import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../geo-wasm/reference/min-heap.js';

describe('MinHeap', () => {
  it('pops values in key order, whatever order they were pushed in, duplicates included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const heap = new MinHeap();
    const keys: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const key = Math.floor(random() * 500); // many equal keys
      keys.push(key);
      heap.push(key, i);
    }
    const popped: number[] = [];
    while (heap.size > 0) {
      const key = heap.peekKey() as number;
      const value = heap.pop();
      expect(keys[value]).toBe(key);
      popped.push(key);
    }
    expect(popped).toEqual([...keys].sort((a, b) => a - b));
  });

  it('clear() empties it for reuse', () => {
    const heap = new MinHeap();
    heap.push(3, 1);
    heap.push(1, 2);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.peekKey()).toBeUndefined();
    heap.push(5, 9);
    expect(heap.pop()).toBe(9);
  });
});
