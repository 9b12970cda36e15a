// The eviction order of the server's in-memory caches (itinerary views, encoded tiles): least recently used first,
// by the clock rule. A hit only marks its entry, and eviction gives a marked entry a second chance (moved to the end,
// unmarked) before it drops an unmarked one. Neither a hit nor a new value under a known key rewrites the map: a
// cache that re-inserted on every hit made its long-lived map rebuild its table every few dozen requests, and each
// table left behind kept what it held alive past young-generation collections (docs/architecture.md).

interface Slot<V> {
  value: V;
  /** Read since it was set or last given a second chance. */
  used: boolean;
}

export class SecondChanceMap<V> {
  readonly #slots = new Map<string, Slot<V>>();

  get size(): number {
    return this.#slots.size;
  }

  /** The value under `key`, marked as used. */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  /** The value under `key`, without marking it. */
  peek(key: string): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /** Sets `value` under `key`, unmarked (in place when the key is known); returns the value it replaced. */
  set(key: string, value: V): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot) {
      this.#slots.set(key, { value, used: false });
      return undefined;
    }
    const replaced = slot.value;
    slot.value = value;
    slot.used = false;
    return replaced;
  }

  /** Removes and returns the least recently used entry; undefined when empty. */
  evict(): [key: string, value: V] | undefined {
    // Each marked entry is passed over once: after `size` second chances every entry is unmarked.
    let chances = this.#slots.size;
    for (const [key, slot] of this.#slots) {
      this.#slots.delete(key);
      if (slot.used && chances-- > 0) {
        slot.used = false;
        this.#slots.set(key, slot);
        continue;
      }
      return [key, slot.value];
    }
    return undefined;
  }

  /** Removes every entry whose key `matches`, handing each removed value to `removed`. */
  deleteWhere(matches: (key: string) => boolean, removed: (value: V) => void): void {
    for (const [key, slot] of this.#slots) {
      if (!matches(key)) continue;
      this.#slots.delete(key);
      removed(slot.value);
    }
  }
}
