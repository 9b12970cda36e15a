// The planner (DESIGN §9): a signed-in member opens a collection's itinerary on the embed's map and edits it. Every
// action goes through the Studio API with the member's own token and rights, taking the soft locks it needs
// (./editor.js); the live channel shows who else is here, their locks and their edits (./live-channel.js); the agent
// panel talks with the organization's model (./agent-panel.js). A placement that routes through a toll or
// access-restricted way asks first, and Decline restores the last accepted shape; opening a saved itinerary that
// already crosses one does not ask. Undo and redo cover the member's own edits. This module wires the page's
// controls and starts.

import { wireAgentPanel } from './agent-panel.js';
import { $, field, say, sayRefusal } from './dom.js';
import { releaseLocks } from './edit-locks.js';
import { append, edit, finishLine, redo, remember, undo } from './editor.js';
import { api, base } from './planner-api.js';
import { wireScreens, start } from './planner-screens.js';
import { shownItinerary, editorMap, state } from './planner-state.js';
import { select } from './selection-panel.js';

function wireDrawing() {
  $('undo').addEventListener('click', () => undo().catch(sayRefusal));
  $('redo').addEventListener('click', () => redo().catch(sayRefusal));
  $('finish-line').addEventListener('click', () => finishLine().catch(sayRefusal));
  $('add-centre').addEventListener('click', () => {
    if (state.busy || state.asking) return;
    append(editorMap().getCenter()).catch(sayRefusal);
  });
  for (const mode of /** @type {const} */ (['smart', 'freehand'])) {
    $(`mode-${mode}`).addEventListener('click', () => {
      state.mode = mode;
      $('mode-smart').setAttribute('aria-pressed', String(mode === 'smart'));
      $('mode-freehand').setAttribute('aria-pressed', String(mode === 'freehand'));
    });
  }
}

/** Undo, redo, Escape (drop what is being drawn, and the selection) and Enter (finish the freehand line). */
function onKey(/** @type {KeyboardEvent} */ event) {
  if ($('editor').hidden || state.asking || event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  const z = event.key === 'z' || event.key === 'Z';
  if ((event.ctrlKey || event.metaKey) && z && !event.shiftKey) {
    event.preventDefault();
    undo().catch(sayRefusal);
  } else if ((event.ctrlKey || event.metaKey) && ((z && event.shiftKey) || event.key === 'y')) {
    event.preventDefault();
    redo().catch(sayRefusal);
  } else if (event.key === 'Escape') {
    state.pendingStart = null;
    state.sketch = [];
    select(null);
  } else if (event.key === 'Enter' && state.sketch.length) {
    event.preventDefault();
    finishLine().catch(sayRefusal);
  }
}

function wireItinerary() {
  $('itinerary-name').addEventListener('change', async () => {
    const before = shownItinerary().name;
    const after = field('itinerary-name').value;
    /** @param {string} name */
    const rename = (name) => () => api('PATCH', base(), { name });
    const answer = await edit(rename(after));
    if (answer) remember('rename', rename(before), rename(after));
    else field('itinerary-name').value = before;
  });
  $('publish').addEventListener('click', async () => {
    const answer = await edit(() => api('POST', `${base()}/publish`));
    if (answer) say(`Published (version ${answer.data.published_version}).`);
  });
  $('share').addEventListener('click', async () => {
    try {
      const link = (await api('POST', `${base()}/share`)).data;
      const itinerary = shownItinerary();
      field('share-url').value = link.url;
      field('embed-code').value =
        `<iframe src="${link.url}" width="100%" height="480" style="border:0" loading="lazy" title="${itinerary.name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"></iframe>`;
      $('share-out').hidden = false;
      if (!itinerary.published_version) say('The link shows the published itinerary: publish it first.');
    } catch (error) {
      sayRefusal(error);
    }
  });
}

wireScreens();
wireDrawing();
wireItinerary();
wireAgentPanel();
// In the capture phase: the map's own keyboard handling (arrows, +/-) must not swallow the planner's keys.
document.addEventListener('keydown', onKey, true);
window.addEventListener('pagehide', releaseLocks);
start().catch(sayRefusal);
