// The planner's handles on its page (server/embed/web/planner.html) and the status line.

import { Refusal } from './api-client.js';
import { state } from './planner-state.js';

/**
 * An element of the page by id.
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A form field of the page by id (an input, a select or a text area).
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export const field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {string} text */
export function say(text) {
  $('status').textContent = text;
}

/**
 * A member's name as the planner shows it.
 * @param {string} userId
 */
export function nameOf(userId) {
  if (state.me && userId === state.me.user.id) return 'you';
  const entry = state.presence.find((p) => p.user.id === userId);
  return entry ? entry.user.name : 'another member';
}

/**
 * A refusal said in words a member can act on; a 409 names who holds the part.
 * @param {any} error
 */
export function sayRefusal(error) {
  if (!(error instanceof Refusal)) {
    state.errors.push(String(error?.message || error));
    say(String(error?.message || error));
    return;
  }
  if (error.status === 409 && error.body?.extensions?.metadata?.holder) {
    const holder = error.body.extensions.metadata.holder.id;
    const who = holder === '00000000-0000-0000-0000-000000000000' ? 'nobody yet (take the lock first)' : nameOf(holder);
    say(`That part is held by ${who}: wait for them to finish, or pick another part.`);
    return;
  }
  say(error.message);
}

/**
 * A button that runs `action`, saying what refused it.
 * @param {string} label
 * @param {() => Promise<unknown>} action
 */
export function button(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => action().catch(sayRefusal));
  return b;
}
