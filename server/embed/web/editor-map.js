// The editor's map: the shared trail style, the itinerary being edited drawn on it (segments coloured by group,
// waypoints, the start of a first segment, the freehand sketch), and the parts others hold shown as locked.

import { $ } from './dom.js';
import { heldByOther } from './live-merge.js';
import { onLineDown, onMapClick, onPointDown } from './map-gestures.js';
import { credentialedRequests, itineraryBounds, trailStyle } from './map-style.js';
import { state } from './planner-state.js';

/** @typedef {import('./types.js').Itinerary} Itinerary */

export const emptyCollection = () => ({ type: 'FeatureCollection', features: [] });

/**
 * @param {string} origin
 * @returns {maplibregl.Map}
 */
function createMap(origin) {
  maplibregl.setWorkerUrl('/studio/assets/maplibre-gl-csp-worker.js');
  const map = new maplibregl.Map({
    container: 'map',
    style: trailStyle(origin),
    center: [1.56, 42.5],
    zoom: 13,
    transformRequest: credentialedRequests(origin, () => ({ Authorization: `Bearer ${state.token}` })),
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  map.on('error', (event) => state.errors.push(String(event.error?.message || event.error || 'map error')));
  return map;
}

/**
 * The itinerary's own layers, over the trails.
 * @param {maplibregl.Map} map
 */
function addItineraryLayers(map) {
  map.addSource('route', { type: 'geojson', data: emptyCollection() });
  map.addSource('points', { type: 'geojson', data: emptyCollection() });
  map.addSource('sketch', { type: 'geojson', data: emptyCollection() });
  map.addLayer({
    id: 'sketch-line',
    type: 'line',
    source: 'sketch',
    paint: { 'line-color': '#495057', 'line-width': 3, 'line-dasharray': [2, 1] },
  });
  map.addLayer({
    id: 'route-lines',
    type: 'line',
    source: 'route',
    paint: {
      'line-color': ['get', 'colour'],
      'line-width': ['case', ['get', 'selected'], 7, 5],
      'line-dasharray': ['case', ['get', 'locked'], ['literal', [1, 1]], ['literal', [1, 0]]],
    },
  });
  map.addLayer({
    id: 'route-points',
    type: 'circle',
    source: 'points',
    paint: {
      'circle-radius': ['case', ['get', 'selected'], 9, 7],
      'circle-color': ['case', ['get', 'locked'], '#868e96', ['get', 'pending'], '#fab005', '#fff'],
      'circle-stroke-color': '#1c7ed6',
      'circle-stroke-width': 3,
    },
  });
}

/** Makes the map the first time the editor opens. */
export function ensureMap() {
  if (state.map) return;
  const map = createMap(location.origin);
  state.map = map;
  map.on('load', () => {
    addItineraryLayers(map);
    state.mapReady = true;
    draw();
  });
  map.on('click', onMapClick);
  map.on('mousedown', 'route-points', onPointDown);
  map.on('mousedown', 'route-lines', onLineDown);
  map.on('mouseenter', 'route-points', () => {
    map.getCanvas().style.cursor = 'grab';
  });
  map.on('mouseleave', 'route-points', () => {
    map.getCanvas().style.cursor = '';
  });
}

/**
 * @param {string} source
 * @returns {maplibregl.GeoJSONSource}
 */
export const geojsonSource = (source) => /** @type {maplibregl.GeoJSONSource} */ (state.map?.getSource(source));

/**
 * @param {'segment' | 'waypoint'} type
 * @param {string} id
 */
export const lockedByOther = (type, id) => heldByOther(state.locks, { type, id }, state.me?.user.id);

/** @param {'segment' | 'waypoint'} type @param {string} id */
const isSelected = (type, id) => state.selected?.type === type && state.selected.id === id;

/** Draws the itinerary, the selection, the locks and the sketch as they are now; the Undo and Redo buttons too. */
export function draw() {
  if (!state.mapReady || !state.itinerary) return;
  const view = state.itinerary;
  const colours = Object.fromEntries(view.groups.map((g) => [g.id, g.color]));
  geojsonSource('route').setData({
    type: 'FeatureCollection',
    features: view.segments.map((s) => ({
      type: 'Feature',
      properties: {
        id: s.id,
        colour: s.hazards.length ? '#e8590c' : (s.groupId && colours[s.groupId]) || '#d9480f',
        selected: isSelected('segment', s.id),
        locked: lockedByOther('segment', s.id),
      },
      geometry: s.geometry,
    })),
  });
  const points = view.waypoints.map((w) => ({
    type: 'Feature',
    properties: { id: w.id, selected: isSelected('waypoint', w.id), locked: lockedByOther('waypoint', w.id), pending: false },
    geometry: { type: 'Point', coordinates: w.coordinates.slice(0, 2) },
  }));
  if (state.pendingStart) {
    points.push({
      type: 'Feature',
      properties: { id: 'pending', selected: false, locked: false, pending: true },
      geometry: { type: 'Point', coordinates: state.pendingStart },
    });
  }
  const end = view.waypoints.length ? view.waypoints[view.waypoints.length - 1].coordinates.slice(0, 2) : null;
  const sketch = state.sketch.length ? [...(end ? [end] : []), ...state.sketch] : [];
  geojsonSource('sketch').setData(
    sketch.length >= 2 ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: sketch } } : emptyCollection(),
  );
  $('finish-line').hidden = state.sketch.length === 0;
  state.pointsData = { type: 'FeatureCollection', features: points };
  geojsonSource('points').setData(state.pointsData);
  /** @type {HTMLButtonElement} */ ($('undo')).disabled = !state.history.canUndo;
  /** @type {HTMLButtonElement} */ ($('redo')).disabled = !state.history.canRedo;
}

/** @param {Itinerary} view */
export function fitTo(view) {
  const bounds = itineraryBounds(view);
  if (!state.map || !bounds) return;
  state.map.resize();
  state.map.fitBounds(bounds, { padding: 60, duration: 0, maxZoom: 15 });
}
