// The editor's edits: each goes through the Studio API with the member's own token and rights, taking the soft locks
// it needs, one at a time (./edit-queue.js); the itinerary as the server answered it becomes the one shown. A
// placement that routes through a restriction asks first, and Decline restores the last accepted shape. Each edit of
// the member's own is remembered for Undo and Redo (./undo-history.js).

import { ask } from './confirm-dialog.js';
import { $, field, say, sayRefusal } from './dom.js';
import { createEditQueue } from './edit-queue.js';
import { locked, takeLocks, waypointParts } from './edit-locks.js';
import { draw, fitTo } from './editor-map.js';
import { api, base } from './planner-api.js';
import { shownItinerary, state } from './planner-state.js';
import { drawProfile } from './profile.js';
import { restrictionQuestion } from './restrictions.js';
import { describeSelection, listParts, select } from './selection-panel.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */
/** @typedef {{ data: Itinerary }} Answer */

/**
 * Shows `view` as the itinerary being edited.
 * @param {Itinerary} view
 * @param {{ fit?: boolean }} [options] fit: move the map onto it
 */
export function setItinerary(view, options = {}) {
  state.itinerary = view;
  // The name being typed stays as typed; it is sent when the field is left.
  if (document.activeElement !== $('itinerary-name')) field('itinerary-name').value = view.name;
  const hours = view.duration / 3600;
  $('stats').textContent = `${(view.distance / 1000).toFixed(1)} km · ↑ ${Math.round(view.ascent)} m · ↓ ${Math.round(
    view.descent,
  )} m · ${Math.floor(hours)} h ${String(Math.round((hours % 1) * 60)).padStart(2, '0')} · version ${view.version}${
    view.published_version ? ` (published ${view.published_version})` : ''
  }`;
  if (options.fit) fitTo(view);
  draw();
  drawProfile(/** @type {HTMLCanvasElement} */ ($('profile-canvas')), view);
  describeSelection();
  listParts(view);
}

/**
 * Runs one edit; resolves the itinerary as it is after it, or undefined when it was refused (said on the page).
 * @param {() => Promise<any>} action
 * @returns {Promise<Answer | undefined>}
 */
async function runEdit(action) {
  state.busy = true;
  try {
    const result = await action();
    if (result?.data?.segments) {
      setItinerary(result.data);
      return result;
    }
    // An answer without the itinerary (204, or a group): read it, so the view and Undo see the edit's outcome.
    const view = (await api('GET', base())).data;
    setItinerary(view);
    return { data: view };
  } catch (error) {
    sayRefusal(error);
  } finally {
    state.busy = false;
    draw();
  }
}

/**
 * Runs an edit after the one under way; map gestures made while busy are ignored by their own handlers, since their
 * positions refer to the line being redrawn.
 */
export const edit = createEditQueue({ isBlocked: () => state.asking, perform: runEdit });

/**
 * Records an edit of the member's own for Undo (and clears Redo).
 * @param {string} label
 * @param {() => Promise<any>} undo
 * @param {() => Promise<any>} redo
 */
export const remember = (label, undo, redo) => state.history.remember(label, undo, redo);

/**
 * A placement that crosses a restriction asks first. `changed` are the segments the placement routed; `restore`
 * puts back the last accepted shape. Resolves true when the placement is kept.
 * @param {Itinerary} view
 * @param {string[]} changed
 * @param {() => Promise<any>} restore
 */
export async function confirmRestrictions(view, changed, restore) {
  const question = restrictionQuestion(view, changed);
  if (!question) return true;
  const keep = await ask(question.text);
  state.confirmations.push({ kinds: question.kinds, kept: keep });
  if (keep) return true;
  await edit(restore);
  say('Declined: the itinerary is back to its last accepted shape.');
  return false;
}

/**
 * A click on the map in the drawing mode: the next point of the freehand sketch, or the end of a routed segment
 * (an empty itinerary takes its start first).
 * @param {{ lng: number, lat: number }} lngLat
 */
export async function append(lngLat) {
  const view = shownItinerary();
  const to = [lngLat.lng, lngLat.lat];
  if (state.mode === 'freehand') {
    state.sketch.push(to);
    say(`Drawing: ${state.sketch.length} point(s). Finish line (Enter) to add it, Escape to drop it.`);
    draw();
    return;
  }
  if (view.segments.length === 0 && !state.pendingStart) {
    state.pendingStart = to;
    say('Start placed: click where the first segment should end.');
    draw();
    return;
  }
  await place(view.segments.length === 0 ? { engine: 'smart', from: state.pendingStart, to } : { engine: 'smart', to });
}

/** Sends the freehand line drawn so far (an empty itinerary needs two points: its start and one more). */
export async function finishLine() {
  const points = state.sketch;
  if (points.length === 0) return;
  if (shownItinerary().segments.length === 0 && points.length < 2) return say('Draw at least two points for the first line.');
  state.sketch = [];
  await place({ engine: 'freehand', coordinates: points });
}

/**
 * Appends a segment, asks about restrictions it crosses, and remembers it for Undo.
 * @param {object} body
 */
async function place(body) {
  const answer = await edit(() => api('POST', `${base()}/segments`, body));
  if (!answer) return;
  state.pendingStart = null;
  const added = answer.data.segments[answer.data.segments.length - 1];
  const kept = await confirmRestrictions(answer.data, [added.id], () => api('DELETE', `${base()}/segments/${added.id}`));
  if (!kept) return draw();
  let segmentId = added.id;
  remember(
    'add segment',
    () => api('DELETE', `${base()}/segments/${segmentId}`),
    async () => {
      const again = await api('POST', `${base()}/segments`, body);
      segmentId = again.data.segments[again.data.segments.length - 1].id;
      return again;
    },
  );
  say(`Segment ${answer.data.segments.length} added.`);
}

/**
 * @param {string} waypointId
 * @param {number[]} to
 */
export async function moveWaypoint(waypointId, to) {
  const view = shownItinerary();
  const waypoint = /** @type {import('./types.js').Waypoint} */ (view.waypoints.find((w) => w.id === waypointId));
  const from = waypoint.coordinates.slice(0, 2);
  const parts = waypointParts(waypointId);
  /** @param {number[]} coordinates */
  const put = (coordinates) => () => api('PUT', `${base()}/waypoints/${waypointId}`, { coordinates });
  const answer = await edit(locked(parts, put(to)));
  if (!answer) return draw();
  const changed = parts.filter((p) => p.type === 'segment').map((p) => p.id);
  const kept = await confirmRestrictions(answer.data, changed, put(from));
  if (!kept) return;
  remember('move waypoint', put(from), put(to));
  say('Waypoint moved.');
}

/**
 * A new waypoint at `at` on the way of segment `segmentId`: the segment re-routes through it (what dragging a
 * segment does too). The API inserts after a segment's start; the first segment has none before it, so there the
 * segment is split where the point is nearest and the new waypoint moved to the point.
 * @param {string} segmentId
 * @param {number[]} at
 */
export async function insertWaypoint(segmentId, at) {
  const view = shownItinerary();
  const k = view.segments.findIndex((x) => x.id === segmentId);
  if (k < 0) return;
  const s = view.segments[k];
  const known = new Set(view.segments.map((x) => x.id));
  const insert = async () => {
    const current = shownItinerary();
    if (k === 0) {
      await takeLocks([{ type: 'segment', id: current.segments[0].id }]);
      const split = await api('POST', `${base()}/segments/${current.segments[0].id}/split`, { point: at });
      const middle = split.data.waypoints[1].id;
      await takeLocks([
        { type: 'waypoint', id: middle },
        { type: 'segment', id: split.data.segments[0].id },
        { type: 'segment', id: split.data.segments[1].id },
      ]);
      return api('PUT', `${base()}/waypoints/${middle}`, { coordinates: at });
    }
    const target = current.segments[k];
    await takeLocks([
      { type: 'segment', id: current.segments[k - 1].id },
      { type: 'segment', id: target.id },
    ]);
    return api('POST', `${base()}/segments/insert`, { before_segment_id: target.id, point: at, engine: target.engine });
  };
  const answer = await edit(insert);
  if (!answer) return;
  let inserted = answer.data.waypoints[k + 1].id;
  const removeInserted = async () => {
    await takeLocks(waypointParts(inserted));
    return api('DELETE', `${base()}/waypoints/${inserted}`);
  };
  const changed = answer.data.segments
    .filter((x) => !known.has(x.id) || x.id === s.id || x.id === view.segments[k - 1]?.id)
    .map((x) => x.id);
  const kept = await confirmRestrictions(answer.data, changed, removeInserted);
  select(null);
  if (!kept) return;
  remember('insert waypoint', removeInserted, async () => {
    const again = await insert();
    inserted = again.data.waypoints[k + 1].id;
    return again;
  });
}

/**
 * Undo or Redo: the entry moves from one stack to the other once its edit went through.
 * @param {'undo' | 'redo'} direction
 */
async function step(direction) {
  const entry = await state.history.step(direction, edit);
  if (entry) say(`${direction === 'undo' ? 'Undone' : 'Redone'}: ${entry.label}.`);
  draw();
}
export const undo = () => step('undo');
export const redo = () => step('redo');
