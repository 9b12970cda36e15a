// Freezing shared results: a value kept in a cache and handed to every caller must not be changed by one.

/** Freezes `value` and everything reachable from it (plain data: objects and arrays), and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

const DERIVED = Symbol('derived');

/**
 * Deep-freezes a value that a cache shares between callers, with one mutable box of its own for what a
 * transport derives from it once (the REST adapter's encoded envelope), so that each request does not
 * redo it. The box is a hidden property of the value (a symbol, not enumerable: no serializer or deep
 * comparison sees it) rather than a WeakMap entry: a long-lived WeakMap keyed by short-lived values keeps
 * them past the young-generation collections that would otherwise free them.
 */
export function freezeShared<T extends object>(value: T): T {
  if (!Object.isFrozen(value)) Object.defineProperty(value, DERIVED, { value: {} });
  return deepFreeze(value);
}

/** The box `freezeShared` gave `value`, or undefined for any other value. */
export function derivedOf(value: object): Record<string, unknown> | undefined {
  return (value as { [DERIVED]?: Record<string, unknown> })[DERIVED];
}
