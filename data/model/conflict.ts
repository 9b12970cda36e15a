// A write refused because another record already holds a unique value (a name in its organization): the
// store answers with that record's id instead of throwing the database's constraint error, so callers
// decide what a conflict means (a 409 with the holder's id) without knowing the database.

export interface Conflict {
  /** Id of the record that holds the value. */
  conflict: string;
}

export function isConflict(result: unknown): result is Conflict {
  return typeof result === 'object' && result !== null && 'conflict' in result;
}
