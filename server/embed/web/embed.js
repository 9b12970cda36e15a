// The embed page: a MapLibre map of the region's trails with the published overlay of a collection (or one
// itinerary, focused), and the elevation profile of the focused itinerary coloured by segment group. The requests
// carry the page's credentials (./embed-credentials.js); a tile or data request that fails is said on the map.

import { embedCredentials } from './embed-credentials.js';
import { credentialedRequests, itineraryBounds, trailStyle } from './map-style.js';
import { reasonOf, tell as tellOn } from './notice.js';
import { drawProfile } from './profile.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */

const config = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('cairn-embed')).textContent);
const origin = location.origin;
/** What the page's browser tests read. */
const state = {
  /** @type {maplibregl.Map | null} */
  map: null,
  profileDrawn: false,
  renewals: 0,
  embedRenewals: 0,
  retried401: 0,
  /** @type {string[]} */
  errors: [],
  /** @type {string[]} */
  notices: [],
};
window.cairnEmbed = state;

/** @type {(what: string, status: number, reason: string) => void} */
const tell = (what, status, reason) => {
  state.notices.push(tellOn(/** @type {HTMLElement} */ (document.getElementById('map-notice')), what, status, reason));
};
const credentials = embedCredentials(config, new URLSearchParams(location.search), state, tell);
const { api, creds } = credentials;

/**
 * A failed data request: recorded, and said on the map.
 * @param {any} error
 */
function dataFailed(error) {
  state.errors.push(String(error.message || error));
  if (typeof error.status === 'number') tell('load its itineraries', error.status, error.reason || '');
}

/** @param {string} layer */
const has = (layer) => config.layers.indexOf(layer) >= 0;

// The CSP build of MapLibre runs its worker from a file of this origin (no blob: workers).
maplibregl.setWorkerUrl(`${config.assets}/maplibre-gl-csp-worker.js`);
const map = new maplibregl.Map({
  container: 'map',
  style: trailStyle(origin, has('trails')),
  center: [0, 0],
  zoom: 1,
  attributionControl: { compact: true },
  transformRequest: credentialedRequests(origin, credentials.headers),
});
state.map = map;
map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
map.on('error', (event) => {
  /** @type {any} */
  const error = event?.error;
  const status = error?.status;
  state.errors.push(String(error?.message || error || 'map error'));
  // An expired session: renew, then ask for the sources' tiles again (once per renewal).
  if (status === 401 && creds.session) {
    state.retried401++;
    credentials.renewSession().then(reloadSources);
    return;
  }
  // A request of the map's own that failed (MapLibre's AJAXError: status, url, the answer's body).
  if (typeof status === 'number' && typeof error.url === 'string') {
    reasonOf(error.body).then((reason) => tell('load its tiles', status, reason));
  }
});

function reloadSources() {
  for (const id of Object.keys(map.getStyle().sources)) {
    /** @type {any} */
    const source = map.getSource(id);
    if (source?.tiles && source.setTiles) source.setTiles(source.tiles);
    else if (source?.url && source.setUrl) source.setUrl(source.url);
  }
}

const overlayPath =
  config.itineraryId && !config.collectionId
    ? `/v1/tiles/overlays/itineraries/${config.itineraryId}.json`
    : `/v1/tiles/overlays/collections/${config.collectionId}.json`;

map.on('load', () => {
  api(overlayPath)
    .then((overlay) => {
      for (const id of Object.keys(overlay.sources)) map.addSource(id, overlay.sources[id]);
      for (const layer of overlay.layers) if (has(layer['source-layer'])) map.addLayer(layer);
    })
    .catch(dataFailed);
  focusAndProfile().catch(dataFailed);
});

/**
 * The focused itinerary (or the collection's first published one): fit the map to it, draw its profile.
 * @returns {Promise<Itinerary | null>}
 */
function focusAndProfile() {
  /** @type {Promise<string | null>} */
  const pick = config.itineraryId
    ? Promise.resolve(config.itineraryId)
    : api(`/v1/collections/${config.collectionId}/itineraries?limit=100`).then((page) => {
        const published = page.data.filter((/** @type {Itinerary} */ i) => i.published_version !== null);
        return published.length ? published[0].id : null;
      });
  return pick.then((id) => {
    if (!id) return null;
    return api(`/v1/itineraries/${id}?version=published`).then((body) => {
      const view = body.data;
      fitTo(view);
      showProfile(view);
      return view;
    });
  });
}

/** @param {Itinerary} view */
function fitTo(view) {
  const bounds = itineraryBounds(view);
  if (!bounds) return;
  map.resize(); // the frame may have been laid out after the map was made
  map.fitBounds(bounds, { padding: 40, duration: 0, maxZoom: 16 });
}

/** @param {Itinerary} view */
function showProfile(view) {
  /** @type {HTMLElement} */ (document.getElementById('profile-stats')).textContent =
    `${view.name} · ${(view.distance / 1000).toFixed(1)} km · ↑ ${Math.round(view.ascent)} m · ↓ ${Math.round(view.descent)} m`;
  if (drawProfile(/** @type {HTMLCanvasElement} */ (document.getElementById('profile-canvas')), view)) state.profileDrawn = true;
}

// Members of an organization that allows it may open the planner in this frame (they sign in there).
if (config.plannerUrl && creds.key) {
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById('edit-in-planner'));
  link.hidden = false;
  link.addEventListener('click', () => {
    const query = new URLSearchParams({ publishable_key: /** @type {string} */ (creds.key) });
    if (creds.session) query.set('session_token', creds.session);
    link.href = `${config.plannerUrl}?${query}${config.itineraryId ? `#itinerary=${config.itineraryId}` : ''}`;
  });
}

credentials.start();
