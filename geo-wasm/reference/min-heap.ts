// A binary min-heap of (key, value) number pairs in two parallel arrays: the priority queue of the
// plain-JS searches (the reference router, the benchmark peers). Lazy deletion is the caller's job.

export class MinHeap {
  readonly keys: number[] = [];
  readonly values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The smallest key (undefined when empty). */
  peekKey(): number | undefined {
    return this.keys[0];
  }

  clear(): void {
    this.keys.length = 0;
    this.values.length = 0;
  }

  push(key: number, value: number): void {
    const { keys, values } = this;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((keys[parent] as number) <= key) break;
      keys[i] = keys[parent] as number;
      values[i] = values[parent] as number;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Removes the entry with the smallest key and returns its value (call only when size > 0). */
  pop(): number {
    const { keys, values } = this;
    const top = values[0] as number;
    const key = keys.pop() as number;
    const value = values.pop() as number;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && (keys[c + 1] as number) < (keys[c] as number)) c++;
        if ((keys[c] as number) >= key) break;
        keys[i] = keys[c] as number;
        values[i] = values[c] as number;
        i = c;
      }
      keys[i] = key;
      values[i] = value;
    }
    return top;
  }
}
