// Soft locks on itinerary parts: one holder per part, with an expiry renewed by each guarded write.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

export const LOCK_PART_TYPES = ['segment', 'waypoint', 'segment_group'] as const;
export type LockPartType = (typeof LOCK_PART_TYPES)[number];

/** Lock lifetime (DESIGN §6): 120 s, renewed by each guarded write. */
export const LOCK_TTL_MS = 120_000;

/** Holder id reported when nobody holds the lock a write needs (the caller must take it first). */
export const NO_HOLDER = '00000000-0000-0000-0000-000000000000';

export interface LockPart {
  type: LockPartType;
  id: string;
}

export interface Lock extends LockPart {
  itineraryId: string;
  holderUserId: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

export type AcquireResult = { ok: true; locks: Lock[] } | { ok: false; part: LockPart; holderUserId: string };

export interface LockRow {
  itinerary_id: string;
  part_type: LockPartType;
  part_id: string;
  holder_user_id: string;
  expires_at: string;
}

export function toLock(row: LockRow): Lock {
  return {
    itineraryId: row.itinerary_id,
    type: row.part_type,
    id: row.part_id,
    holderUserId: row.holder_user_id,
    expiresAt: row.expires_at,
  };
}

export const COLUMNS = 'itinerary_id, part_type, part_id, holder_user_id, expires_at';
