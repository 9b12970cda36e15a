// Wire shapes and zoom ranges of the tile tasks (the region's trails, overlays of published content),
// shared by the tile task modules and the tile routes.

/** The zooms served: geojson-vt slices down to MAX_ZOOM; below MIN_PLACES_ZOOM places would be clutter. */
export const TRAIL_TILE_ZOOMS = { min: 0, max: 16 } as const;
/** Contour lines appear from this zoom on (below it they would fill the tile). */
export const CONTOURS_MIN_ZOOM = 12;
/** Contour lines every CONTOUR_INTERVAL metres of elevation; every INDEX_INTERVAL metres an index line, drawn heavier. */
export const CONTOUR_INTERVAL = 100;
export const INDEX_INTERVAL = 500;

export interface TrailTileInput {
  z: number;
  x: number;
  y: number;
}

export interface TrailTileSource {
  /** [west, south, east, north], degrees. */
  bbox: [number, number, number, number];
  attribution: string;
  kind: 'import' | 'demo';
  /** Whether the region has elevation data (contours need it). */
  hasDem: boolean;
  /** Names the tiles' content: the region's metadata and the encoding's version (entity tags and cache keys). */
  tag: string;
}

/** Overlays are drawn down to street level; below z6 a hike is a dot. */
export const OVERLAY_TILE_ZOOMS = { min: 0, max: 18 } as const;

/** What an overlay shows: published itineraries (their segments and waypoints) and zones. */
export interface OverlayContent {
  itineraries: {
    id: string;
    name: string;
    segments: { id: string; engine: string; group_id: string | null; group_name: string | null; color: string; coordinates: number[][] }[];
    waypoints: { id: string; name: string | null; kind: string | null; position: number; coordinates: number[] }[];
  }[];
  zones: {
    id: string;
    name: string;
    level: string;
    mode: 'POLYGON' | 'CIRCLE' | 'CORRIDOR';
    geometry: { type: string; coordinates: unknown };
    radius_m: number | null;
    width_m: number | null;
  }[];
}

export interface OverlayTileInput {
  /** Names the content and its version (`itinerary:<id>@<version>`): equal keys, equal content. */
  key: string;
  /** The OverlayContent as JSON text (a string crosses threads as one copy). */
  content: string;
  z: number;
  x: number;
  y: number;
}
