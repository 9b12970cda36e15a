// Column values as either driver hands them over: better-sqlite3 gives json columns as text and flags as 0/1,
// node-postgres gives json already parsed and flags as booleans. Row mapping in ./ reads both through these.

/** A json column's value: parsed when the driver handed over text. */
export function fromJson<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** A flag column's value: 1 or true. */
export function isSet(flag: number | boolean): boolean {
  return flag === true || flag === 1;
}
