// Per-organization, per-API, per-minute quotas across all keys of the organization (spec, Limits),
// and the usage counts behind the usage report.

import type { Organization } from '../../data/model/organization.js';
import type { UsageRepository } from '../../data/repositories.js';
import { minuteOf } from '../../data/model/usage.js';
import { ApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import type { WindowCounter } from './window-counter.js';

export type MeteredApi = 'data' | 'tiles';

/** Where an organization stands in the current one-minute window of a metered API. */
export interface QuotaState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in this window (0 once spent). */
  remaining: number;
  /** Whole seconds until the window refills (1–60). */
  resetSeconds: number;
}

/** The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers of a quota state. */
export function rateLimitHeaders(state: QuotaState): [string, string][] {
  return [
    ['RateLimit-Limit', String(state.limit)],
    ['RateLimit-Remaining', String(state.remaining)],
    ['RateLimit-Reset', String(state.resetSeconds)],
  ];
}

const WINDOW_MS = 60_000;

export interface QuotaGate {
  /**
   * Counts one request of `api` for the organization and resolves to where it stands; rejects with 429
   * (carrying the RateLimit-* headers, never Retry-After) once its per-minute quota is spent.
   */
  charge(organization: Organization, api: MeteredApi): Promise<QuotaState>;
  /** Writes buffered usage counts to the store (called on a timer and at shutdown, before the batch flush). */
  flush(): void;
}

/**
 * Quota counts live in `counter` (shared by every node once it is Redis). Usage is aggregated in memory
 * and flushed to SQLite once per `flushMs`, so a metered request costs no write of its own.
 */
export function createQuotaGate(deps: {
  counter: WindowCounter;
  usage: UsageRepository;
  writes: UnitOfWork;
  logger: Logger;
  now?: () => number;
}): QuotaGate {
  const now = deps.now ?? Date.now;
  let pending = new Map<string, { organizationId: string; api: MeteredApi; minute: number; count: number }>();
  return {
    async charge(organization, api) {
      const limit = api === 'data' ? organization.quotaData : organization.quotaTiles;
      const t = now();
      const count = await deps.counter.increment(`${organization.id}:${api}`, t);
      // Windows start on the minute (window-counter.ts), so every counter refills at the same instant.
      const state = { limit, remaining: Math.max(0, limit - count), resetSeconds: Math.ceil((WINDOW_MS - (t % WINDOW_MS)) / 1000) };
      if (count > limit) throw new ApiError('TOO_MANY_REQUESTS').withHeaders(rateLimitHeaders(state));
      const minute = minuteOf(t);
      const key = `${organization.id}:${api}:${minute}`;
      const entry = pending.get(key);
      if (entry) entry.count++;
      else pending.set(key, { organizationId: organization.id, api, minute, count: 1 });
      return state;
    },
    flush() {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      // One transaction (and one fsync) for the whole batch of counts.
      deps.writes
        .write(async () => {
          for (const e of batch.values()) await deps.usage.increment(e.organizationId, e.api, e.minute, e.count);
        })
        .catch((error: unknown) => deps.logger.error('usage flush failed', { error: String(error) }));
    },
  };
}
