// What the planner holds while it runs: one object, also shown to the page's browser tests as window.cairnPlanner.

import { UndoHistory } from './undo-history.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */
/** @typedef {import('./types.js').Part} Part */
/** @typedef {{ type: 'waypoint' | 'segment', id: string, at?: number[] } | null} Selection */

/**
 * The sign-in kept for this tab. Inside another site's frame a browser that blocks third-party storage (an incognito
 * window) throws on any sessionStorage access: the member then signs in again on reload.
 */
export const keptToken = {
  /** @returns {string | null} */
  get: () => {
    try {
      return sessionStorage.getItem('cairn.token');
    } catch {
      return null;
    }
  },
  /** @param {string | null} token */
  set: (token) => {
    try {
      if (token) sessionStorage.setItem('cairn.token', token);
      else sessionStorage.removeItem('cairn.token');
    } catch {
      // not kept: see above
    }
  },
};

export const state = {
  token: keptToken.get(),
  /** @type {any} GET /studio/me: the member and their organizations */
  me: null,
  /** @type {string | null} */
  organizationId: null,
  /** @type {{ id: string, title: string }[]} */
  activities: [],
  /** @type {Itinerary | null} */
  itinerary: null,
  /** @type {maplibregl.Map | null} */
  map: null,
  mapReady: false,
  /** @type {'smart' | 'freehand'} */
  mode: 'smart',
  /** @type {number[] | null} The first click on an empty itinerary: where its first segment starts. */
  pendingStart: null,
  /** @type {number[][]} Freehand mode: the points clicked so far, drawn dashed until Finish line (Enter) sends them. */
  sketch: [],
  /** @type {Selection} */
  selected: null,
  /** @type {any[]} */
  presence: [],
  anonymous: 0,
  /** @type {Map<string, string>} "type:id" → holder id */
  locks: new Map(),
  /** @type {any[]} */
  lockEvents: [],
  history: new UndoHistory(),
  /** An edit is under way. */
  busy: false,
  /** A question is open: nothing else can be edited until it is answered. */
  asking: false,
  /** A press began on a waypoint or a segment: the click the map fires after it is not a placement. */
  pressedPoint: false,
  dragging: false,
  /** @type {any} The waypoints as drawn (a drag moves one of them before the edit is sent). */
  pointsData: null,
  /** @type {WebSocket | null} */
  live: null,
  /** @type {any[]} */
  liveMessages: [],
  /** @type {{ code: number, reason: string }[]} Each close of the live channel the planner saw. */
  liveCloses: [],
  /** @type {{ kinds: string[], kept: boolean }[]} */
  confirmations: [],
  /** @type {{ role: string, content: string }[]} */
  chat: [],
  /** @type {any} */
  agent: null,
  /** @type {AbortController | null} */
  agentRun: null,
  /** @type {string[]} */
  errors: [],
};
window.cairnPlanner = state;

/**
 * The open itinerary (the editor's actions run only with one open).
 * @returns {Itinerary}
 */
export function shownItinerary() {
  return /** @type {Itinerary} */ (state.itinerary);
}

/**
 * The map (made when the editor first opens).
 * @returns {maplibregl.Map}
 */
export function editorMap() {
  return /** @type {maplibregl.Map} */ (state.map);
}
