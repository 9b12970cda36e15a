// The editor's gestures on the map: a click selects a part or places the next point; a waypoint dragged moves it; a
// segment dragged gets a new waypoint where it is dropped (the segment re-routed through it).

import { nameOf, say, sayRefusal } from './dom.js';
import { append, insertWaypoint, moveWaypoint } from './editor.js';
import { geojsonSource, lockedByOther } from './editor-map.js';
import { editorMap, state } from './planner-state.js';
import { select } from './selection-panel.js';

/** @typedef {maplibregl.MapMouseEvent & { features?: maplibregl.MapGeoJSONFeature[] }} LayerMouseEvent */

/** @param {maplibregl.MapMouseEvent} event */
export function onMapClick(event) {
  // A press that began on a waypoint (a drag, or a refused one) is never also a placement where it ended.
  const fromPoint = state.pressedPoint;
  state.pressedPoint = false;
  if (fromPoint || state.dragging || state.busy || state.asking) return;
  const hits = editorMap().queryRenderedFeatures(event.point, { layers: ['route-points', 'route-lines'] });
  const point = hits.find((f) => f.layer.id === 'route-points' && f.properties.id !== 'pending');
  const line = hits.find((f) => f.layer.id === 'route-lines');
  if (point) return select({ type: 'waypoint', id: point.properties.id });
  if (line) return select({ type: 'segment', id: line.properties.id, at: [event.lngLat.lng, event.lngLat.lat] });
  if (state.selected) {
    select(null);
    return;
  }
  append(event.lngLat).catch(sayRefusal);
}

/** @param {LayerMouseEvent} event */
export function onPointDown(event) {
  const feature = event.features?.[0];
  if (!feature || feature.properties.id === 'pending' || state.busy || state.asking) return;
  event.preventDefault();
  state.pressedPoint = true;
  const id = feature.properties.id;
  if (lockedByOther('waypoint', id)) {
    say(`That waypoint is held by ${nameOf(/** @type {string} */ (state.locks.get(`waypoint:${id}`)))}.`);
    return;
  }
  drag(event, {
    move: (lngLat) => {
      const f = state.pointsData.features.find((/** @type {any} */ x) => x.properties.id === id);
      if (f) {
        f.geometry.coordinates = [lngLat.lng, lngLat.lat];
        geojsonSource('points').setData(state.pointsData);
      }
    },
    drop: (lngLat) => moveWaypoint(id, [lngLat.lng, lngLat.lat]).catch(sayRefusal),
  });
}

/**
 * Dragging a segment: a new waypoint where it is dropped, the segment re-routed through it.
 * @param {LayerMouseEvent} event
 */
export function onLineDown(event) {
  const feature = event.features?.[0];
  if (!feature || state.busy || state.asking) return;
  // A waypoint drawn over the line is the waypoint's to drag.
  if (editorMap().queryRenderedFeatures(event.point, { layers: ['route-points'] }).length > 0) return;
  const id = feature.properties.id;
  if (lockedByOther('segment', id)) return;
  event.preventDefault();
  state.pressedPoint = true;
  drag(event, {
    move: (lngLat) => {
      const ghost = {
        type: 'Feature',
        properties: { id: 'ghost', selected: false, locked: false, pending: true },
        geometry: { type: 'Point', coordinates: [lngLat.lng, lngLat.lat] },
      };
      geojsonSource('points').setData({ type: 'FeatureCollection', features: [...state.pointsData.features, ghost] });
    },
    drop: (lngLat) => {
      geojsonSource('points').setData(state.pointsData);
      insertWaypoint(id, [lngLat.lng, lngLat.lat]).catch(sayRefusal);
    },
  });
}

/**
 * Follows a press on a waypoint or a segment: past 4 px it is a drag (`move` on every step, `drop` where it ends)
 * and the click the map fires after it is ignored; otherwise it is a click, which the map's click handler selects.
 * @param {maplibregl.MapMouseEvent} event
 * @param {{ move: (lngLat: maplibregl.LngLat) => void, drop: (lngLat: maplibregl.LngLat) => void }} handlers
 */
function drag(event, { move, drop }) {
  const map = editorMap();
  const start = event.point;
  let moved = false;
  /** @param {maplibregl.MapMouseEvent} e */
  const onMove = (e) => {
    if (!moved && Math.hypot(e.point.x - start.x, e.point.y - start.y) < 4) return;
    moved = true;
    state.dragging = true;
    map.getCanvas().style.cursor = 'grabbing';
    move(e.lngLat);
  };
  map.on('mousemove', onMove);
  map.once('mouseup', (e) => {
    map.off('mousemove', onMove);
    map.getCanvas().style.cursor = '';
    setTimeout(() => {
      state.dragging = false;
    }, 0);
    if (moved) drop(e.lngLat);
    else state.pressedPoint = false;
  });
}
