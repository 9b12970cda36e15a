// Usage counters, on any engine (formerly the SQLite UsageStore's own tests).
import { describe, expect, it } from 'vitest';
import { minuteOf } from '../../../data/model/usage.js';
import { onFresh, type OpenSubject } from './subject.js';

export function usageContract(adapter: string, open: OpenSubject): void {
  describe(`usage: ${adapter}`, () => {
    it(
      'increments a counter per organization, API and minute and returns the new count',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'U' });
        const other = await r.organizations.create({ name: 'V' });
        const m = minuteOf(Date.UTC(2026, 0, 2, 3, 4, 59_999 / 1000));
        expect(await r.usage.increment(org.id, 'data', m)).toBe(1);
        expect(await r.usage.increment(org.id, 'data', m)).toBe(2);
        expect(await r.usage.increment(org.id, 'data', m, 5)).toBe(7);
        expect(await r.usage.increment(org.id, 'tiles', m)).toBe(1);
        expect(await r.usage.increment(org.id, 'data', m + 1)).toBe(1);
        expect(await r.usage.increment(other.id, 'data', m)).toBe(1);
        expect(await r.usage.get(org.id, 'data', m)).toBe(7);
        expect(await r.usage.get(org.id, 'data', m + 5)).toBe(0);
      }),
    );

    it(
      'queries per-minute buckets and per-day totals over a range',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'U' });
        const day = minuteOf(Date.UTC(2026, 0, 2));
        await r.usage.increment(org.id, 'data', day - 1, 4); // previous day
        await r.usage.increment(org.id, 'data', day, 2);
        await r.usage.increment(org.id, 'data', day + 60, 3);
        await r.usage.increment(org.id, 'tiles', day + 1, 10);
        expect(await r.usage.query({ organizationId: org.id, api: 'data', fromMinute: day, toMinute: day + 1440 })).toEqual([
          { api: 'data', minute: day, count: 2 },
          { api: 'data', minute: day + 60, count: 3 },
        ]);
        expect(await r.usage.query({ organizationId: org.id, fromMinute: day, toMinute: day + 2 })).toEqual([
          { api: 'data', minute: day, count: 2 },
          { api: 'tiles', minute: day + 1, count: 10 },
        ]);
        expect(await r.usage.queryDaily({ organizationId: org.id, fromMinute: day - 1, toMinute: day + 1440 })).toEqual([
          { api: 'data', day: '2026-01-01', count: 4 },
          { api: 'data', day: '2026-01-02', count: 5 },
          { api: 'tiles', day: '2026-01-02', count: 10 },
        ]);
        expect(await r.usage.prune(day)).toBe(1);
      }),
    );
  });
}
