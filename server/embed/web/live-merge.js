// How the live channel's messages change what the planner holds: the locks others hold, whether the itinerary shown
// must be read again, and whether a view read again may replace the one shown.

/** @typedef {import('./types.js').Itinerary} Itinerary */
/** @typedef {import('./types.js').Part} Part */
/** @typedef {Map<string, string>} Locks "type:id" → the holder's user id */

/** @param {Part} part */
export const lockKey = (part) => `${part.type}:${part.id}`;

/**
 * The locks a hello lists (the channel's state when it opens).
 * @param {{ locks?: { type: string, id: string, holder: { id: string } }[] }} hello
 * @returns {Locks}
 */
export function locksOfHello(hello) {
  return new Map((hello.locks || []).map((l) => [lockKey(/** @type {Part} */ (l)), l.holder.id]));
}

/**
 * Applies a lock message to `locks`; false when the message is not about locks.
 * @param {Locks} locks
 * @param {{ type: string, parts?: Part[], holder?: { id: string } }} message
 */
export function applyLockMessage(locks, message) {
  if (message.type === 'lock.taken') {
    const holder = /** @type {{ id: string }} */ (message.holder).id;
    for (const p of message.parts ?? []) locks.set(lockKey(p), holder);
    return true;
  }
  if (message.type === 'lock.released' || message.type === 'lock.expired') {
    for (const p of message.parts ?? []) locks.delete(lockKey(p));
    return true;
  }
  return false;
}

/**
 * Whether a part is held by someone other than `me`.
 * @param {Locks} locks
 * @param {Part} part
 * @param {string | undefined} me
 */
export function heldByOther(locks, part, me) {
  const holder = locks.get(lockKey(part));
  return holder !== undefined && holder !== me;
}

/**
 * Whether a message announcing `version` means the itinerary shown (`current`) is behind.
 * @param {number} version
 * @param {Itinerary | null} current
 */
export function behind(version, current) {
  return !current || version !== current.version;
}

/**
 * Whether `view`, read again after a change elsewhere, may replace `current`: only the itinerary still open, and only
 * ever forward (an own edit may have answered meanwhile; the same version again would only redraw what is shown).
 * @param {Itinerary} view
 * @param {Itinerary | null} current
 */
export function replacesShown(view, current) {
  if (!current || view.id !== current.id) return false;
  return (
    view.version > current.version || (view.version === current.version && (view.published_version ?? 0) > (current.published_version ?? 0))
  );
}

/**
 * Milliseconds before reconnecting after the `attempt`th dropped connection in a row (1, 2, 4 … 30 s).
 * @param {number} attempt
 */
export const reconnectDelay = (attempt) => Math.min(30000, 1000 * 2 ** attempt);

/**
 * A close the server would answer the same way again (4401, 4403, 4404…: it refused or ended what let the socket in).
 * @param {number} code
 */
export const refusedForGood = (code) => code >= 4400 && code < 4500;
