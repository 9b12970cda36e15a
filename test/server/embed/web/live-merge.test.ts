import { describe, expect, it } from 'vitest';
import {
  applyLockMessage,
  behind,
  heldByOther,
  locksOfHello,
  reconnectDelay,
  refusedForGood,
  replacesShown,
} from '../../../../server/embed/web/live-merge.js';
import type { Itinerary } from '../../../../server/embed/web/types.js';

const view = (version: number, published: number | null = null, id = 'it-1') =>
  ({ id, version, published_version: published, segments: [], waypoints: [], groups: [] }) as unknown as Itinerary;

describe('merging the live channel into what the planner holds', () => {
  it('starts from the locks the hello lists, then follows taken, released and expired locks', () => {
    const locks = locksOfHello({ locks: [{ type: 'segment', id: 's1', holder: { id: 'ann' } }] });
    expect([...locks]).toEqual([['segment:s1', 'ann']]);
    expect(
      applyLockMessage(locks, {
        type: 'lock.taken',
        holder: { id: 'bob' },
        parts: [
          { type: 'waypoint', id: 'w2' },
          { type: 'segment', id: 's2' },
        ],
      }),
    ).toBe(true);
    expect(locks.get('waypoint:w2')).toBe('bob');
    applyLockMessage(locks, { type: 'lock.released', parts: [{ type: 'segment', id: 's1' }] });
    applyLockMessage(locks, { type: 'lock.expired', parts: [{ type: 'waypoint', id: 'w2' }] });
    expect([...locks]).toEqual([['segment:s2', 'bob']]);
    expect(applyLockMessage(locks, { type: 'presence' })).toBe(false);
    expect(locksOfHello({})).toEqual(new Map());
  });

  it('shows a part as locked only when someone else holds it', () => {
    const locks = new Map([['segment:s1', 'ann']]);
    expect(heldByOther(locks, { type: 'segment', id: 's1' }, 'bob')).toBe(true);
    expect(heldByOther(locks, { type: 'segment', id: 's1' }, 'ann')).toBe(false);
    expect(heldByOther(locks, { type: 'segment', id: 's2' }, 'bob')).toBe(false);
  });

  it('reads the itinerary again when a change names another version than the one shown', () => {
    expect(behind(4, view(3))).toBe(true);
    expect(behind(3, view(3))).toBe(false);
    expect(behind(1, null)).toBe(true);
  });

  it('replaces the itinerary shown only by a newer one of the same itinerary', () => {
    expect(replacesShown(view(4), view(3))).toBe(true);
    expect(replacesShown(view(3), view(3))).toBe(false);
    // An own edit answered while the read was under way: the older read is dropped.
    expect(replacesShown(view(3), view(4))).toBe(false);
    // Published since, at the same version.
    expect(replacesShown(view(3, 3), view(3, null))).toBe(true);
    expect(replacesShown(view(3, 2), view(3, 2))).toBe(false);
    // Another itinerary was opened meanwhile.
    expect(replacesShown(view(9, null, 'it-2'), view(3))).toBe(false);
    expect(replacesShown(view(9), null)).toBe(false);
  });

  it('reconnects after 1, 2, 4 … seconds up to 30, and not at all after a refusal', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(refusedForGood(4401)).toBe(true);
    expect(refusedForGood(4404)).toBe(true);
    expect(refusedForGood(1006)).toBe(false);
    expect(refusedForGood(1001)).toBe(false);
  });
});
