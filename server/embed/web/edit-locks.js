// The soft locks an edit takes before it changes parts of the itinerary. They last while the member works: 20 s
// after their last edit they are let go (and presence says viewing); leaving the page lets them go at once.

import { sendPresence } from './live-channel.js';
import { api, base } from './planner-api.js';
import { shownItinerary, state } from './planner-state.js';

/** @typedef {import('./types.js').Part} Part */

const LOCK_IDLE_MS = 20_000;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let idleRelease;

/** @param {Part[]} parts */
export async function takeLocks(parts) {
  await api('POST', `${base()}/locks`, { parts });
  sendPresence('editing');
  clearTimeout(idleRelease);
  idleRelease = setTimeout(releaseLocks, LOCK_IDLE_MS);
}

export function releaseLocks() {
  clearTimeout(idleRelease);
  if (!state.itinerary || !state.token) return;
  // keepalive: the request outlives the page when it is being closed.
  fetch(`${location.origin}${base()}/locks`, {
    method: 'DELETE',
    keepalive: true,
    headers: { Authorization: `Bearer ${state.token}` },
  }).catch(() => undefined);
  sendPresence('viewing');
}

/**
 * The parts a waypoint edit needs: the waypoint and the segments either side.
 * @param {string} waypointId
 * @returns {Part[]}
 */
export function waypointParts(waypointId) {
  const view = shownItinerary();
  const k = view.waypoints.findIndex((w) => w.id === waypointId);
  /** @type {Part[]} */
  const parts = [{ type: 'waypoint', id: waypointId }];
  if (k > 0) parts.push({ type: 'segment', id: view.segments[k - 1].id });
  if (k < view.segments.length) parts.push({ type: 'segment', id: view.segments[k].id });
  return parts;
}

/**
 * Runs `call` once the `parts` are locked.
 * @param {Part[]} parts
 * @param {() => Promise<any>} call
 */
export const locked = (parts, call) => async () => {
  await takeLocks(parts);
  return call();
};
