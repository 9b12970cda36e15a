// The live channel of the open itinerary: who else is here, the locks they take and let go, and their edits (the
// itinerary is read again, once for a burst of changes). A dropped connection is opened again, waiting longer each
// time; the hello that answers tells what changed meanwhile.

import { $, say, sayRefusal } from './dom.js';
import { setItinerary } from './editor.js';
import { draw } from './editor-map.js';
import { applyLockMessage, behind, locksOfHello, reconnectDelay, refusedForGood, replacesShown } from './live-merge.js';
import { api, base } from './planner-api.js';
import { browse } from './planner-screens.js';
import { state } from './planner-state.js';

let reconnect = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let refetch;
/** The live channel closed since its last hello: the member was told, and is told again when it is back. */
let interrupted = false;

/** @param {string} itineraryId */
export function openLive(itineraryId) {
  closeLive();
  const url = `${location.origin.replace(/^http/, 'ws')}/studio/live?itinerary_id=${itineraryId}&auth_token=${encodeURIComponent(
    /** @type {string} */ (state.token),
  )}`;
  const socket = new WebSocket(url);
  state.live = socket;
  socket.onmessage = (event) => onLive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (state.live !== socket) return;
    state.live = null;
    interrupted = true;
    state.liveCloses.push({ code: event.code, reason: event.reason });
    if (refusedForGood(event.code)) {
      say(`Live updates stopped: ${event.reason || `refused (${event.code})`}. Open the itinerary again to retry.`);
      return;
    }
    const wait = reconnectDelay(reconnect++);
    say(`Live updates interrupted (${event.code}): reconnecting in ${wait / 1000} s.`);
    setTimeout(() => {
      if (!$('editor').hidden && state.itinerary?.id === itineraryId) openLive(itineraryId);
    }, wait);
  };
}

export function closeLive() {
  clearTimeout(refetch);
  state.agentRun?.abort();
  const socket = state.live;
  state.live = null;
  socket?.close();
}

/** @param {'editing' | 'viewing'} mode */
export function sendPresence(mode) {
  if (state.live?.readyState === WebSocket.OPEN) state.live.send(JSON.stringify({ type: 'presence', mode }));
}

/** @param {any} message */
function onLive(message) {
  state.liveMessages.push(message);
  if (applyLockMessage(state.locks, message)) {
    state.lockEvents.push(message);
    draw();
    return;
  }
  switch (message.type) {
    case 'hello':
      reconnect = 0;
      if (interrupted) say('Live updates are back.');
      interrupted = false;
      state.locks = locksOfHello(message);
      showPresence(message);
      if (state.itinerary && behind(message.version, state.itinerary)) scheduleRefetch();
      break;
    case 'presence':
      showPresence(message);
      break;
    case 'itinerary.changed':
      if (behind(message.version, state.itinerary)) scheduleRefetch();
      break;
    case 'itinerary.published':
      if (state.itinerary) {
        state.itinerary.published_version = message.version;
        say(`Published (version ${message.version}).`);
      }
      break;
    case 'itinerary.deleted':
      say('This itinerary was deleted.');
      browse().catch(sayRefusal);
      break;
  }
}

/** Another member's edit: read the itinerary again (once for a burst of changes). */
function scheduleRefetch() {
  clearTimeout(refetch);
  const id = state.itinerary?.id;
  refetch = setTimeout(async () => {
    if (!state.itinerary || state.itinerary.id !== id) return;
    if (state.busy || state.asking) return scheduleRefetch();
    try {
      const view = (await api('GET', base())).data;
      if (replacesShown(view, state.itinerary)) setItinerary(view);
    } catch (error) {
      sayRefusal(error);
    }
  }, 80);
}

/** @param {{ presence?: any[], anonymous?: number }} message */
function showPresence(message) {
  state.presence = message.presence || [];
  state.anonymous = message.anonymous || 0;
  const box = $('presence');
  box.replaceChildren(
    ...state.presence.map((p) => {
      const chip = document.createElement('span');
      chip.style.background = p.colour;
      chip.textContent = `${p.user.id === state.me?.user.id ? 'You' : p.user.name}${p.mode === 'editing' ? ' ✎' : ''}`;
      chip.title = `${p.user.name}: ${p.mode}`;
      return chip;
    }),
  );
  if (state.anonymous) box.append(` +${state.anonymous} viewing`);
}
