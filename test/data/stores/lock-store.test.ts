import { describe, expect, it } from 'vitest';
import { LOCK_TTL_MS, NO_HOLDER } from '../../../data/model/lock.js';
import { memoryStores, created } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'L' });
  const ana = stores.users.createWithHash({ email: 'ana@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const bo = stores.users.createWithHash({ email: 'bo@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const itinerary = created(stores.itineraries.create({ organizationId: org.id, name: 'I' }));
  return { stores, ana, bo, itinerary };
}

const T0 = Date.UTC(2026, 0, 1);
const s1 = { type: 'segment', id: 's1' } as const;
const s2 = { type: 'segment', id: 's2' } as const;

describe('LockStore', () => {
  it('takes locks all or nothing and reports the other holder', () => {
    const { stores, ana, bo, itinerary } = setup();
    expect(stores.locks.acquire(itinerary.id, ana.id, [s1], T0).ok).toBe(true);
    const refused = stores.locks.acquire(itinerary.id, bo.id, [s2, s1], T0 + 1000);
    expect(refused).toEqual({ ok: false, part: s1, holderUserId: ana.id });
    expect(stores.locks.get(itinerary.id, s2, T0 + 1000)).toBeUndefined();
    expect(stores.locks.list(itinerary.id, T0 + 1000).map((l) => l.id)).toEqual(['s1']);
  });

  it('a lock expires after its lifetime and can then be taken by someone else', () => {
    const { stores, ana, bo, itinerary } = setup();
    stores.locks.acquire(itinerary.id, ana.id, [s1], T0);
    expect(stores.locks.acquire(itinerary.id, bo.id, [s1], T0 + LOCK_TTL_MS - 1).ok).toBe(false);
    const taken = stores.locks.acquire(itinerary.id, bo.id, [s1], T0 + LOCK_TTL_MS);
    expect(taken.ok).toBe(true);
    expect(stores.locks.get(itinerary.id, s1, T0 + LOCK_TTL_MS)?.holderUserId).toBe(bo.id);
  });

  it('names the blocking holder for a guarded write, or the all-zero id when nobody holds the part', () => {
    const { stores, ana, bo, itinerary } = setup();
    expect(stores.locks.blockingHolder(itinerary.id, ana.id, [s1], T0)).toBe(NO_HOLDER);
    stores.locks.acquire(itinerary.id, ana.id, [s1], T0);
    expect(stores.locks.blockingHolder(itinerary.id, ana.id, [s1], T0)).toBeUndefined();
    expect(stores.locks.blockingHolder(itinerary.id, bo.id, [s1], T0)).toBe(ana.id);
    expect(stores.locks.heldByOther(itinerary.id, bo.id, T0)?.holderUserId).toBe(ana.id);
    expect(stores.locks.heldByOther(itinerary.id, ana.id, T0)).toBeUndefined();
  });

  it('releases some or all of the caller’s locks, never another member’s', () => {
    const { stores, ana, bo, itinerary } = setup();
    stores.locks.acquire(itinerary.id, ana.id, [s1, s2], T0);
    expect(stores.locks.release(itinerary.id, bo.id)).toEqual([]);
    expect(stores.locks.release(itinerary.id, ana.id, [s1]).map((l) => l.id)).toEqual(['s1']);
    expect(stores.locks.release(itinerary.id, ana.id).map((l) => l.id)).toEqual(['s2']);
    expect(stores.locks.list(itinerary.id, T0)).toEqual([]);
  });

  it('expires lapsed locks (of one itinerary or all) and says whose they were', () => {
    const { stores, ana, bo, itinerary } = setup();
    const other = created(stores.itineraries.create({ organizationId: itinerary.organizationId, name: 'J' }));
    stores.locks.acquire(itinerary.id, ana.id, [s1], T0);
    stores.locks.acquire(other.id, bo.id, [s2], T0 + 1000);
    expect(stores.locks.expire(T0 + LOCK_TTL_MS - 1)).toEqual([]);
    const lapsed = stores.locks.expire(T0 + LOCK_TTL_MS, other.id);
    expect(lapsed).toEqual([]);
    const all = stores.locks.expire(T0 + LOCK_TTL_MS + 1000).map((l) => `${l.itineraryId} ${l.holderUserId} ${l.id}`);
    expect(all.sort()).toEqual([`${itinerary.id} ${ana.id} s1`, `${other.id} ${bo.id} s2`].sort());
    expect(stores.locks.expire(T0 + LOCK_TTL_MS * 2)).toEqual([]);
  });
});
