import { describe, expect, it } from 'vitest';
import { minuteOf } from '../../../data/model/usage.js';
import { memoryStores } from '../memory-db.js';

describe('UsageStore', () => {
  it('increments a counter per organization, API and minute and returns the new count', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'U' });
    const other = stores.organizations.create({ name: 'V' });
    const m = minuteOf(Date.UTC(2026, 0, 2, 3, 4, 59_999 / 1000));
    expect(stores.usage.increment(org.id, 'data', m)).toBe(1);
    expect(stores.usage.increment(org.id, 'data', m)).toBe(2);
    expect(stores.usage.increment(org.id, 'data', m, 5)).toBe(7);
    expect(stores.usage.increment(org.id, 'tiles', m)).toBe(1);
    expect(stores.usage.increment(org.id, 'data', m + 1)).toBe(1);
    expect(stores.usage.increment(other.id, 'data', m)).toBe(1);
    expect(stores.usage.get(org.id, 'data', m)).toBe(7);
    expect(stores.usage.get(org.id, 'data', m + 5)).toBe(0);
  });

  it('queries per-minute buckets and per-day totals over a range', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'U' });
    const day = minuteOf(Date.UTC(2026, 0, 2));
    stores.usage.increment(org.id, 'data', day - 1, 4); // previous day
    stores.usage.increment(org.id, 'data', day, 2);
    stores.usage.increment(org.id, 'data', day + 60, 3);
    stores.usage.increment(org.id, 'tiles', day + 1, 10);
    expect(stores.usage.query({ organizationId: org.id, api: 'data', fromMinute: day, toMinute: day + 1440 })).toEqual([
      { api: 'data', minute: day, count: 2 },
      { api: 'data', minute: day + 60, count: 3 },
    ]);
    expect(stores.usage.query({ organizationId: org.id, fromMinute: day, toMinute: day + 2 })).toEqual([
      { api: 'data', minute: day, count: 2 },
      { api: 'tiles', minute: day + 1, count: 10 },
    ]);
    expect(stores.usage.queryDaily({ organizationId: org.id, fromMinute: day - 1, toMinute: day + 1440 })).toEqual([
      { api: 'data', day: '2026-01-01', count: 4 },
      { api: 'data', day: '2026-01-02', count: 5 },
      { api: 'tiles', day: '2026-01-02', count: 10 },
    ]);
    expect(stores.usage.prune(day)).toBe(1);
  });

  it('minuteOf is the floor of epoch milliseconds over 60000', () => {
    expect(minuteOf(0)).toBe(0);
    expect(minuteOf(59_999)).toBe(0);
    expect(minuteOf(60_000)).toBe(1);
  });
});
