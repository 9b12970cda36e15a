// Usage counters per organization, API and minute (reporting; the hot-path quota counters live in the server).
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

/** Epoch minute of a time in epoch milliseconds: the bucket key of usage_counters. */
export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / 60_000);
}

export interface UsageBucket {
  api: string;
  /** Epoch minute (floor(epoch ms / 60000)). */
  minute: number;
  count: number;
}

export interface UsageDay {
  api: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  count: number;
}

export interface UsageQuery {
  organizationId: string;
  api?: string;
  /** Inclusive epoch minute. */
  fromMinute: number;
  /** Exclusive epoch minute. */
  toMinute: number;
}
