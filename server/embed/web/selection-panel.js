// The editor's panel: the itinerary's parts as buttons (everything the map's clicks select can be reached from the
// keyboard too), and what can be done with the part selected.

import { $, button } from './dom.js';
import { locked, takeLocks, waypointParts } from './edit-locks.js';
import { edit, moveWaypoint, remember } from './editor.js';
import { draw } from './editor-map.js';
import { typedGroupValues } from './group-editor.js';
import { api, base } from './planner-api.js';
import { editorMap, state } from './planner-state.js';
import { segmentActions } from './segment-actions.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */
/** @typedef {import('./planner-state.js').Selection} Selection */

/** @param {Selection} selection */
export function select(selection) {
  state.selected = selection;
  draw();
  describeSelection();
}

/**
 * @param {string} label
 * @param {Selection} selection
 */
function partButton(label, selection) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => select(selection));
  return b;
}

/** @param {Itinerary} view */
export function listParts(view) {
  /** @type {HTMLButtonElement[]} */
  const items = [];
  view.waypoints.forEach((w, k) => {
    items.push(partButton(`Waypoint ${k + 1}${w.name ? `: ${w.name}` : ''}`, { type: 'waypoint', id: w.id }));
    const s = view.segments[k];
    if (s) {
      const c = s.geometry.coordinates[Math.floor(s.geometry.coordinates.length / 2)];
      items.push(
        partButton(`Segment ${k + 1} (${s.engine}, ${(s.distance / 1000).toFixed(1)} km)`, { type: 'segment', id: s.id, at: [c[0], c[1]] }),
      );
    }
  });
  $('parts').replaceChildren(...items);
}

/** Redraws the panel of the selected part (keeping what was typed into an open group form). */
export function describeSelection() {
  const box = $('selection');
  const typed = typedGroupValues(box);
  box.replaceChildren();
  const selection = state.selected;
  const view = state.itinerary;
  if (!selection || !view) return;
  if (selection.type === 'waypoint') {
    const k = view.waypoints.findIndex((w) => w.id === selection.id);
    if (k < 0) return select(null);
    box.append(`Waypoint ${k + 1}`, document.createElement('br'), ...waypointActions(view, k));
    return;
  }
  const k = view.segments.findIndex((s) => s.id === selection.id);
  if (k < 0) return select(null);
  const s = view.segments[k];
  box.append(`Segment ${k + 1}: ${s.engine}, ${(s.distance / 1000).toFixed(2)} km`, document.createElement('br'));
  box.append(...segmentActions(view, k, /** @type {number[]} */ (selection.at), typed));
}

/**
 * What can be done with the `k`th waypoint: move it to the map centre, delete it.
 * @param {Itinerary} view
 * @param {number} k
 */
function waypointActions(view, k) {
  const id = view.waypoints[k].id;
  const moveToCentre = button('Move it to the map centre', () => {
    const centre = editorMap().getCenter();
    return moveWaypoint(id, [centre.lng, centre.lat]);
  });
  const remove = button('Delete waypoint', async () => {
    const at = view.waypoints[k].coordinates.slice(0, 2);
    const last = k === view.waypoints.length - 1;
    const before = view.segments[k - 1];
    const engine = (last ? before : view.segments[k])?.engine ?? 'smart';
    const answer = await edit(locked(waypointParts(id), () => api('DELETE', `${base()}/waypoints/${id}`)));
    select(null);
    if (!answer) return;
    // Undo puts a waypoint back where it was (a new one: ids are not reused), Redo deletes that one.
    let restored = ''; // set by Undo, which runs before Redo
    remember(
      'delete waypoint',
      async () => {
        const current = /** @type {Itinerary} */ (state.itinerary);
        let again;
        if (last) again = await api('POST', `${base()}/segments`, engine === 'smart' ? { engine, to: at } : { engine, coordinates: [at] });
        else {
          const target = current.segments[Math.max(0, k - 1)];
          await takeLocks([
            { type: 'segment', id: target.id },
            ...(k > 1 ? [{ type: /** @type {const} */ ('segment'), id: current.segments[k - 2].id }] : []),
          ]);
          again = await api('POST', `${base()}/segments/insert`, {
            before_segment_id: k === 0 ? current.segments[0].id : target.id,
            point: at,
            engine,
          });
        }
        restored = again.data.waypoints[k].id;
        return again;
      },
      async () => {
        await takeLocks(waypointParts(restored));
        return api('DELETE', `${base()}/waypoints/${restored}`);
      },
    );
  });
  return [moveToCentre, remove];
}
