// Soft locks on itinerary parts (DESIGN §6): take all-or-nothing, list, release; and the guard every
// lock-guarded write runs inside its unit of work (409 with `holder.id` when the caller lacks a lock).

import { type Lock, type LockPart, NO_HOLDER } from '../../../data/model/lock.js';
import type { Access } from '../../auth/access.js';
import type { ChangeEvent } from '../../core/change-events.js';
import type { WriteScope } from '../../core/unit-of-work.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Chain, loadChain } from './chain.js';

export interface LockView {
  type: LockPart['type'];
  id: string;
  holder: { id: string };
  expires_at: string;
}

/** 409 CONFLICT with ResponseMetadataLockConflict (`holder.id`, all zeros when nobody holds the part). */
export function lockConflict(holderId: string): ApiError {
  const key = holderId === NO_HOLDER ? 'CONFLICT.lock_missing' : 'CONFLICT.lock_held';
  return new ApiError('CONFLICT', [{ code: 'CONFLICT', messageKey: key }], { holder: { id: holderId } });
}

/** Throws the lock conflict unless `actor` holds a live lock on every part. */
export async function requireLocks(
  deps: StudioDeps,
  itineraryId: string,
  actor: string,
  parts: readonly LockPart[],
  now = Date.now(),
): Promise<void> {
  const holder = await deps.stores.locks.blockingHolder(itineraryId, actor, parts, now);
  if (holder !== undefined) throw lockConflict(holder);
}

type LockEventType = 'lock.taken' | 'lock.released' | 'lock.expired';

/** One event per itinerary and holder for `locks` (taken, released or expired together). */
export function lockEvents(type: LockEventType, locks: readonly Lock[]): ChangeEvent[] {
  const byHolder = new Map<string, { itineraryId: string; holderId: string; parts: LockPart[] }>();
  for (const lock of locks) {
    const key = `${lock.itineraryId} ${lock.holderUserId}`;
    let event = byHolder.get(key);
    if (!event) byHolder.set(key, (event = { itineraryId: lock.itineraryId, holderId: lock.holderUserId, parts: [] }));
    event.parts.push({ type: lock.type, id: lock.id });
  }
  return [...byHolder.values()].map((event) => ({ type, ...event }));
}

/** Removes the itinerary's lapsed locks inside a write, announcing whose they were. */
export async function expireLocks(deps: StudioDeps, itineraryId: string, now: number, { emit }: WriteScope): Promise<void> {
  for (const event of lockEvents('lock.expired', await deps.stores.locks.expire(now, itineraryId))) emit(event);
}

/** Takes or renews the caller's locks on `parts` (after a guarded write, and on parts a write created). */
export async function renewLocks(
  deps: StudioDeps,
  itineraryId: string,
  actor: string,
  parts: readonly LockPart[],
  now: number,
  { emit }: WriteScope,
): Promise<void> {
  if (parts.length === 0) return;
  const result = await deps.stores.locks.acquire(itineraryId, actor, parts, now);
  if (!result.ok) throw lockConflict(result.holderUserId);
  for (const event of lockEvents('lock.taken', result.locks)) emit(event);
}

/** Every part of the chain, as lock parts. */
export function allParts(chain: Chain): LockPart[] {
  return [
    ...chain.segments.map((s) => ({ type: 'segment' as const, id: s.id })),
    ...chain.waypoints.map((w) => ({ type: 'waypoint' as const, id: w.id })),
    ...chain.groups.map((g) => ({ type: 'segment_group' as const, id: g.id })),
  ];
}

function view(lock: { type: LockPart['type']; id: string; holderUserId: string; expiresAt: string }): LockView {
  return { type: lock.type, id: lock.id, holder: { id: lock.holderUserId }, expires_at: lock.expiresAt };
}

/** getItineraryLocks: every live lock and its holder. */
export async function listLocks(deps: StudioDeps, access: Access, itineraryId: string): Promise<LockView[]> {
  await deps.writes.settled();
  await deps.policy.readableItinerary(access, itineraryId);
  return (await deps.stores.locks.list(itineraryId, Date.now())).map(view);
}

/** postItineraryLock: all or nothing; 409 naming the holder when another member holds any part. */
export async function takeLocks(
  deps: StudioDeps,
  access: Access,
  itineraryId: string,
  parts: readonly LockPart[] | 'all',
): Promise<LockView[]> {
  const { actor } = await deps.policy.writableItinerary(access, itineraryId);
  return deps.writes.write(async (scope) => {
    const now = Date.now();
    await expireLocks(deps, itineraryId, now, scope);
    const chain = await loadChain(deps.stores, itineraryId);
    const existing = new Set(allParts(chain).map((p) => `${p.type}:${p.id}`));
    let wanted: LockPart[];
    if (parts === 'all') wanted = allParts(chain);
    else {
      const unknown = parts.flatMap((p, i) => (existing.has(`${p.type}:${p.id}`) ? [] : [{ path: ['parts', i, 'id'] }]));
      if (unknown.length > 0) throw ApiError.validation(unknown);
      wanted = [...new Map(parts.map((p) => [`${p.type}:${p.id}`, { type: p.type, id: p.id }])).values()];
    }
    const result = await deps.stores.locks.acquire(itineraryId, actor, wanted, now);
    if (!result.ok) throw lockConflict(result.holderUserId);
    for (const event of lockEvents('lock.taken', result.locks)) scope.emit(event);
    return result.locks.map(view);
  });
}

/** deleteItineraryLock: releases the caller's locks (all of them, or the parts named). */
export async function releaseLocks(deps: StudioDeps, access: Access, itineraryId: string, parts?: readonly LockPart[]): Promise<void> {
  const { actor } = await deps.policy.writableItinerary(access, itineraryId);
  await deps.writes.write(async ({ emit }) => {
    for (const event of lockEvents('lock.released', await deps.stores.locks.release(itineraryId, actor, parts))) emit(event);
  });
}

/** Publish guard: 409 when any other member holds a lock anywhere on the itinerary. */
export async function requireNoOtherLocks(deps: StudioDeps, itineraryId: string, actor: string): Promise<void> {
  const other = await deps.stores.locks.heldByOther(itineraryId, actor, Date.now());
  if (other) throw lockConflict(other.holderUserId);
}

export { NO_HOLDER };
