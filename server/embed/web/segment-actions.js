// What can be done with a selected segment: switch its engine, split it, insert a waypoint, delete it, group it (or
// edit its group), merge it with the next; each remembered for Undo where it can be put back.

import { button, say } from './dom.js';
import { locked, takeLocks } from './edit-locks.js';
import { confirmRestrictions, edit, insertWaypoint, remember } from './editor.js';
import { groupEditor } from './group-editor.js';
import { api, base } from './planner-api.js';
import { select } from './selection-panel.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */
/** @typedef {import('./types.js').Segment} Segment */

/** Colours of new groups, in turn. */
const GROUP_COLOURS = ['#2f9e44', '#ae3ec9', '#0c8599', '#f08c00'];

/**
 * @param {Itinerary} view
 * @param {number} k the segment's index
 * @param {number[]} at where it was selected
 * @param {{ groupId: string, values: Record<string, string> } | null} typed unsaved values of its group's form
 * @returns {HTMLElement[]}
 */
export function segmentActions(view, k, at, typed) {
  const s = view.segments[k];
  const next = view.segments[k + 1];
  const segment = () => [{ type: /** @type {const} */ ('segment'), id: s.id }];
  /** @param {'smart' | 'freehand'} engine */
  const setEngine = (engine) => () => api('PATCH', `${base()}/segments/${s.id}/mode`, { engine });
  const other = s.engine === 'smart' ? 'freehand' : 'smart';
  /** @type {HTMLElement[]} */
  const actions = [
    button(`Switch to ${other}`, async () => {
      const answer = await edit(locked(segment(), setEngine(other)));
      if (!answer) return;
      remember('switch engine', setEngine(s.engine), setEngine(other));
      if (other === 'smart') await confirmRestrictions(answer.data, [s.id], setEngine('freehand'));
    }),
    button('Split here', () => split(view, k, at)),
    button('Insert a waypoint here', () => insertWaypoint(s.id, at)),
    button('Delete segment', () => deleteSegment(view, k)),
  ];
  if (!s.groupId) {
    actions.push(button('Group this segment', () => group(view, [s.id])));
    if (next && !next.groupId) actions.push(button('Group with the next segment', () => group(view, [s.id, next.id])));
  } else {
    const current = view.groups.find((g) => g.id === s.groupId);
    if (current) actions.push(groupEditor(current, typed?.groupId === current.id ? typed.values : {}));
  }
  if (next && next.engine === s.engine) actions.push(button('Merge with next', () => mergeWithNext(view, k)));
  return actions;
}

/**
 * Undo merges the two parts back (the first keeps its id); Redo splits it again at the same point.
 * @param {Itinerary} view
 * @param {number} k
 * @param {number[]} at
 */
async function split(view, k, at) {
  const s = view.segments[k];
  const splitAt = () => api('POST', `${base()}/segments/${s.id}/split`, { point: at });
  const answer = await edit(locked([{ type: 'segment', id: s.id }], splitAt));
  if (!answer) return;
  let tail = answer.data.segments[k + 1].id;
  remember(
    'split',
    async () => {
      await takeLocks([
        { type: 'segment', id: s.id },
        { type: 'segment', id: tail },
      ]);
      return api('POST', `${base()}/segments/${s.id}/merge`, { with_segment_id: tail });
    },
    async () => {
      await takeLocks([{ type: 'segment', id: s.id }]);
      const again = await splitAt();
      tail = again.data.segments[k + 1].id;
      return again;
    },
  );
  select(null);
}

/**
 * The last segment comes back as it was drawn or routed to its end; a middle one cannot be put back as it was.
 * @param {Itinerary} view
 * @param {number} k
 */
async function deleteSegment(view, k) {
  const s = view.segments[k];
  const answer = await edit(locked([{ type: 'segment', id: s.id }], () => api('DELETE', `${base()}/segments/${s.id}`)));
  select(null);
  if (!answer || k !== view.segments.length - 1 || k === 0) {
    if (answer) say('Segment deleted (this one cannot be undone).');
    return;
  }
  const coords = s.geometry.coordinates.map((c) => [c[0], c[1]]);
  const body =
    s.engine === 'smart' ? { engine: 'smart', to: coords[coords.length - 1] } : { engine: 'freehand', coordinates: coords.slice(1) };
  let restored = ''; // set by Undo, which runs before Redo
  remember(
    'delete segment',
    async () => {
      const again = await api('POST', `${base()}/segments`, body);
      restored = again.data.segments[again.data.segments.length - 1].id;
      return again;
    },
    async () => {
      await takeLocks([{ type: 'segment', id: restored }]);
      return api('DELETE', `${base()}/segments/${restored}`);
    },
  );
}

/**
 * A new group of the segments `ids`. Undo ungroups (the group goes, the segments stay); Redo makes the group again.
 * @param {Itinerary} view
 * @param {string[]} ids
 */
async function group(view, ids) {
  const body = { name: `Group ${view.groups.length + 1}`, color: GROUP_COLOURS[view.groups.length % 4], segment_ids: ids };
  let groupId = ''; // set once the group is made
  const create = async () => {
    await takeLocks(ids.map((id) => ({ type: 'segment', id })));
    const made = await api('POST', `${base()}/segment-groups`, body);
    groupId = made.data.id;
    return made;
  };
  if (!(await edit(create))) return;
  remember(
    'group',
    async () => {
      await takeLocks([{ type: 'segment_group', id: groupId }]);
      return api('DELETE', `${base()}/segment-groups/${groupId}`);
    },
    create,
  );
}

/**
 * Undo splits the merged segment at the old junction; Redo merges the parts again.
 * @param {Itinerary} view
 * @param {number} k
 */
async function mergeWithNext(view, k) {
  const s = view.segments[k];
  const junction = view.waypoints[k + 1].coordinates.slice(0, 2);
  let second = view.segments[k + 1].id;
  const merge = async () => {
    await takeLocks([
      { type: 'segment', id: s.id },
      { type: 'segment', id: second },
    ]);
    return api('POST', `${base()}/segments/${s.id}/merge`, { with_segment_id: second });
  };
  const answer = await edit(merge);
  if (!answer) return;
  remember(
    'merge',
    async () => {
      await takeLocks([{ type: 'segment', id: s.id }]);
      const again = await api('POST', `${base()}/segments/${s.id}/split`, { point: junction });
      second = again.data.segments[k + 1].id;
      return again;
    },
    merge,
  );
  select(null);
}
