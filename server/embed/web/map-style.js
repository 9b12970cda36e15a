// The base map of the embed page and the planner: one MapLibre style over the region's trail tiles (contours, roads,
// paths coloured by SAC difficulty, hazards, places), so both pages draw the same trails the same way.

/** @typedef {import('maplibre-gl').StyleSpecification} StyleSpecification */
/** @typedef {import('maplibre-gl').LngLatBoundsLike} LngLatBoundsLike */
/** @typedef {import('./types.js').Itinerary} Itinerary */

/** The `highway` values drawn as paths (dashed, by difficulty); every other way is drawn as a road. */
const PATHS = ['path', 'footway', 'track', 'steps', 'bridleway', 'cycleway'];

/**
 * The style: a plain background, and the trail tiles of `origin` on it unless `trails` is false (an embed whose
 * organization leaves the trails layer out).
 * @param {string} origin
 * @param {boolean} [trails]
 * @returns {StyleSpecification}
 */
export function trailStyle(origin, trails = true) {
  /** @type {StyleSpecification} */
  const style = {
    version: 8,
    sources: {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } }],
  };
  if (!trails) return style;
  style.sources.trails = { type: 'vector', url: `${origin}/v1/tiles/trails.json` };
  style.layers.push(
    {
      id: 'trails-contours',
      type: 'line',
      source: 'trails',
      'source-layer': 'contours',
      paint: { 'line-color': '#c9b99a', 'line-width': ['case', ['==', ['get', 'index'], 1], 1.1, 0.5], 'line-opacity': 0.8 },
    },
    {
      id: 'trails-roads',
      type: 'line',
      source: 'trails',
      'source-layer': 'trails',
      filter: ['!', ['in', ['get', 'highway'], ['literal', PATHS]]],
      paint: { 'line-color': '#bdb6a8', 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.8, 16, 3] },
    },
    {
      id: 'trails-paths',
      type: 'line',
      source: 'trails',
      'source-layer': 'trails',
      filter: ['in', ['get', 'highway'], ['literal', PATHS]],
      paint: {
        'line-color': ['match', ['get', 'sac_scale'], ['T3', 'T4'], '#c92a2a', ['T5', 'T6'], '#5f3dc4', '#8a5a2b'],
        'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.6, 16, 2],
        'line-dasharray': [3, 2],
      },
    },
    {
      id: 'trails-hazards',
      type: 'line',
      source: 'trails',
      'source-layer': 'hazards',
      paint: { 'line-color': '#e8590c', 'line-width': 2, 'line-opacity': 0.6 },
    },
    {
      id: 'trails-places',
      type: 'circle',
      source: 'trails',
      'source-layer': 'places',
      paint: { 'circle-radius': 3, 'circle-color': '#495057' },
    },
  );
  return style;
}

/**
 * The box around an itinerary's lines, as MapLibre's fitBounds takes it; null when it has none.
 * @param {Itinerary} view
 * @returns {LngLatBoundsLike | null}
 */
export function itineraryBounds(view) {
  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  for (const s of view.segments) {
    for (const c of s.geometry.coordinates) {
      west = Math.min(west, c[0]);
      east = Math.max(east, c[0]);
      south = Math.min(south, c[1]);
      north = Math.max(north, c[1]);
    }
  }
  if (west > east) return null;
  return [
    [west, south],
    [east, north],
  ];
}

/**
 * Requests to `origin` carry the page's credentials; any other URL goes as it is.
 * @param {string} origin
 * @param {() => Record<string, string>} headers
 * @returns {(url: string) => { url: string, headers?: Record<string, string> }}
 */
export function credentialedRequests(origin, headers) {
  return (url) => (url.indexOf(`${origin}/`) === 0 ? { url, headers: headers() } : { url });
}
