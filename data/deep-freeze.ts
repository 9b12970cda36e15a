// Freezing shared results: a value kept in a cache and handed to every caller must not be changed by one.

/** Freezes `value` and everything reachable from it (plain data: objects and arrays), and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
