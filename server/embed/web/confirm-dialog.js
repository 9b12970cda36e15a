// A yes/no question over the editor; nothing else can be edited until it is answered.

import { $ } from './dom.js';
import { state } from './planner-state.js';

/**
 * Resolves true for Keep, false for Decline (or Escape).
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export function ask(text) {
  state.asking = true;
  const returnTo = document.activeElement;
  const keep = $('confirm-keep');
  const decline = $('confirm-decline');
  return new Promise((resolve) => {
    $('confirm-text').textContent = text;
    $('confirm').hidden = false;
    keep.focus();
    // Escape declines; Tab stays between the two answers.
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        done(false);
      } else if (event.key === 'Tab') {
        event.preventDefault();
        (document.activeElement === keep ? decline : keep).focus();
      }
    };
    /** @param {boolean} answer */
    const done = (answer) => {
      state.asking = false;
      $('confirm').hidden = true;
      keep.onclick = null;
      decline.onclick = null;
      document.removeEventListener('keydown', onKey, true);
      if (returnTo instanceof HTMLElement) returnTo.focus();
      resolve(answer);
    };
    document.addEventListener('keydown', onKey, true);
    keep.onclick = () => done(true);
    decline.onclick = () => done(false);
  });
}
