// The form of a segment group: its name, colour and speed (km/h, blank: the activity's own), saved with the group's
// lock, and Ungroup. What the member typed and did not save survives the panel being redrawn.

import { button, sayRefusal } from './dom.js';
import { locked } from './edit-locks.js';
import { edit, remember } from './editor.js';
import { api, base } from './planner-api.js';

/** @typedef {import('./types.js').SegmentGroup} SegmentGroup */

/**
 * What the member has typed into the open group form and not saved, by field, so that redrawing the panel (a
 * colleague's edit arriving, the own edit answering) does not throw it away.
 * @param {HTMLElement} box
 * @returns {{ groupId: string, values: Record<string, string> } | null}
 */
export function typedGroupValues(box) {
  /** @type {HTMLFormElement | null} */
  const form = box.querySelector('form.group');
  if (!form) return null;
  /** @type {Record<string, string>} */
  const values = {};
  for (const input of form.querySelectorAll('input[name]')) {
    const i = /** @type {HTMLInputElement} */ (input);
    // A colour input reports its value in lower case whatever case the saved one had.
    const same = i.type === 'color' ? i.value === i.defaultValue.toLowerCase() : i.value === i.defaultValue;
    if (!same) values[i.name] = i.value;
  }
  return { groupId: /** @type {string} */ (form.dataset.groupId), values };
}

/**
 * `typed` holds values the member typed before the panel was redrawn; they win over the saved ones until saved.
 * @param {SegmentGroup} group
 * @param {Record<string, string>} [typed]
 */
export function groupEditor(group, typed = {}) {
  const form = document.createElement('form');
  form.className = 'group';
  form.dataset.groupId = group.id;
  /**
   * @param {string} label
   * @param {HTMLInputElement} input
   */
  const field = (label, input) => {
    const l = document.createElement('label');
    l.textContent = label;
    l.append(input);
    return l;
  };
  // defaultValue holds the saved value (what typedGroupValues compares with); value what is typed.
  /**
   * @param {string} name
   * @param {string} saved
   * @param {Record<string, string | number | boolean>} attributes
   * @returns {HTMLInputElement}
   */
  const input = (name, saved, attributes) => {
    const element = document.createElement('input');
    Object.assign(element, attributes, { name, defaultValue: saved });
    if (typed[name] !== undefined) element.value = typed[name];
    return element;
  };
  const name = input('name', group.name, { maxLength: 200, required: true });
  const color = input('color', group.color.length === 7 ? group.color : '#d9480f', { type: 'color' });
  const speed = input('speed', group.speed === null ? '' : String(group.speed), { type: 'number', min: '0.5', max: '100', step: '0.5' });
  form.append(field('Group name', name), field('Colour', color), field('Speed (km/h)', speed));
  const save = document.createElement('button');
  save.type = 'submit';
  save.textContent = 'Save group';
  form.append(save);
  const lock = [{ type: /** @type {const} */ ('segment_group'), id: group.id }];
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    /** @param {{ name: string, color: string, speed: number | null }} values */
    const put = (values) => locked(lock, () => api('PUT', `${base()}/segment-groups/${group.id}`, values));
    const before = { name: group.name, color: group.color, speed: group.speed };
    const after = { name: name.value, color: color.value, speed: speed.value === '' ? null : Number(speed.value) };
    const answer = await edit(put(after)).catch(sayRefusal);
    if (answer) remember('edit group', put(before), put(after));
  });
  form.append(button('Ungroup', () => edit(locked(lock, () => api('DELETE', `${base()}/segment-groups/${group.id}`)))));
  return form;
}
