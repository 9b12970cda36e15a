// Soft locks on itinerary parts, on any engine (formerly the SQLite LockStore's own tests).
import { describe, expect, it } from 'vitest';
import { isConflict } from '../../../data/model/conflict.js';
import { LOCK_TTL_MS, NO_HOLDER } from '../../../data/model/lock.js';
import type { Repositories } from '../../../data/repositories.js';
import { type OpenSubject, withFresh } from './subject.js';

async function setup(r: Repositories) {
  const org = await r.organizations.create({ name: 'L' });
  const ana = await r.users.createWithHash({ email: 'ana@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const bo = await r.users.createWithHash({ email: 'bo@example.com', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
  const itinerary = await r.itineraries.create({ organizationId: org.id, name: 'I' });
  if (isConflict(itinerary)) throw new Error('unexpected conflict');
  return { r, ana, bo, itinerary };
}

const T0 = Date.UTC(2026, 0, 1);
const s1 = { type: 'segment', id: 's1' } as const;
const s2 = { type: 'segment', id: 's2' } as const;

export function lockContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, ({ repositories }) => setup(repositories));

  describe(`locks: ${adapter}`, () => {
    it(
      'takes locks all or nothing and reports the other holder',
      withSetup(async ({ r, ana, bo, itinerary }) => {
        expect((await r.locks.acquire(itinerary.id, ana.id, [s1], T0)).ok).toBe(true);
        const refused = await r.locks.acquire(itinerary.id, bo.id, [s2, s1], T0 + 1000);
        expect(refused).toEqual({ ok: false, part: s1, holderUserId: ana.id });
        expect(await r.locks.get(itinerary.id, s2, T0 + 1000)).toBeUndefined();
        expect((await r.locks.list(itinerary.id, T0 + 1000)).map((l) => l.id)).toEqual(['s1']);
      }),
    );

    it(
      'a lock expires after its lifetime and can then be taken by someone else',
      withSetup(async ({ r, ana, bo, itinerary }) => {
        await r.locks.acquire(itinerary.id, ana.id, [s1], T0);
        expect((await r.locks.acquire(itinerary.id, bo.id, [s1], T0 + LOCK_TTL_MS - 1)).ok).toBe(false);
        const taken = await r.locks.acquire(itinerary.id, bo.id, [s1], T0 + LOCK_TTL_MS);
        expect(taken.ok).toBe(true);
        expect((await r.locks.get(itinerary.id, s1, T0 + LOCK_TTL_MS))?.holderUserId).toBe(bo.id);
      }),
    );

    it(
      'names the blocking holder for a guarded write, or the all-zero id when nobody holds the part',
      withSetup(async ({ r, ana, bo, itinerary }) => {
        expect(await r.locks.blockingHolder(itinerary.id, ana.id, [s1], T0)).toBe(NO_HOLDER);
        await r.locks.acquire(itinerary.id, ana.id, [s1], T0);
        expect(await r.locks.blockingHolder(itinerary.id, ana.id, [s1], T0)).toBeUndefined();
        expect(await r.locks.blockingHolder(itinerary.id, bo.id, [s1], T0)).toBe(ana.id);
        expect((await r.locks.heldByOther(itinerary.id, bo.id, T0))?.holderUserId).toBe(ana.id);
        expect(await r.locks.heldByOther(itinerary.id, ana.id, T0)).toBeUndefined();
      }),
    );

    it(
      'releases some or all of the caller’s locks, never another member’s',
      withSetup(async ({ r, ana, bo, itinerary }) => {
        await r.locks.acquire(itinerary.id, ana.id, [s1, s2], T0);
        expect(await r.locks.release(itinerary.id, bo.id)).toEqual([]);
        expect((await r.locks.release(itinerary.id, ana.id, [s1])).map((l) => l.id)).toEqual(['s1']);
        expect((await r.locks.release(itinerary.id, ana.id)).map((l) => l.id)).toEqual(['s2']);
        expect(await r.locks.list(itinerary.id, T0)).toEqual([]);
      }),
    );

    it(
      'expires lapsed locks (of one itinerary or all) and says whose they were',
      withSetup(async ({ r, ana, bo, itinerary }) => {
        const other = await r.itineraries.create({ organizationId: itinerary.organizationId, name: 'J' });
        if (isConflict(other)) throw new Error('unexpected conflict');
        await r.locks.acquire(itinerary.id, ana.id, [s1], T0);
        await r.locks.acquire(other.id, bo.id, [s2], T0 + 1000);
        expect(await r.locks.expire(T0 + LOCK_TTL_MS - 1)).toEqual([]);
        const lapsed = await r.locks.expire(T0 + LOCK_TTL_MS, other.id);
        expect(lapsed).toEqual([]);
        const all = (await r.locks.expire(T0 + LOCK_TTL_MS + 1000)).map((l) => `${l.itineraryId} ${l.holderUserId} ${l.id}`);
        expect(all.sort()).toEqual([`${itinerary.id} ${ana.id} s1`, `${other.id} ${bo.id} s2`].sort());
        expect(await r.locks.expire(T0 + LOCK_TTL_MS * 2)).toEqual([]);
      }),
    );
  });
}
