// Wire shapes and zoom ranges of the tile tasks (the region's trails, overlays of published content),
// shared by the tile task modules and the tile routes.

/**
 * The zooms served. Tiles down to ARCHIVE_MAX_ZOOM are cut once by the import into the region's tile archive;
 * deeper ones are cut from their ARCHIVE_MAX_ZOOM ancestor on request (clients told the archive's maxzoom overzoom).
 */
export const TRAIL_TILE_ZOOMS = { min: 0, max: 16 } as const;
/** The deepest zoom of the tile archive (as Planetiler and the OpenMapTiles schema: 14; clients overzoom past it). */
export const ARCHIVE_MAX_ZOOM = 14;
/** No tile of the archive passes this many bytes (uncompressed MVT): features are thinned until it fits. */
export const TILE_BYTES_LIMIT = 500_000;
/** Contour lines appear from this zoom on (below it they would fill the tile). */
export const CONTOURS_MIN_ZOOM = 12;
/** Contour lines every CONTOUR_INTERVAL metres of elevation; every INDEX_INTERVAL metres an index line, drawn heavier. */
export const CONTOUR_INTERVAL = 100;
export const INDEX_INTERVAL = 500;

/** A tile deeper than ARCHIVE_MAX_ZOOM, cut from its ARCHIVE_MAX_ZOOM ancestor's bytes as the archive stores them (gzip). */
export interface TrailTileInput {
  z: number;
  x: number;
  y: number;
  ancestor: Uint8Array;
  /** The same ancestor in the archives of other regions that meet there (gzip too): merged in before the cut. */
  others?: Uint8Array[];
}

/** Fields of each trail layer, as TileJSON's and the archive's `vector_layers` list them. */
export const TRAIL_LAYER_FIELDS = {
  trails: {
    description: 'Every way of the routing network',
    fields: {
      osm_id: 'Number: the OpenStreetMap way id',
      highway: 'String: the OSM highway value (path, track, footway, …)',
      name: 'String: the way name, when it has one',
      sac_scale: 'String: T1–T6, the SAC hiking scale, when tagged',
      surface: 'String: the OSM surface value, when tagged',
      access_foot: 'String: access for walkers (yes, permissive, private, no, …)',
      access_bicycle: 'String: access for cyclists',
      access_motor: 'String: access for motor vehicles',
    },
  },
  hazards: {
    description: 'Toll and access-restricted ways: routing avoids them on request, suggestions always',
    fields: {
      osm_id: 'Number: the OpenStreetMap way id',
      kind: 'String: TOLLWAY or RESTRICTED_ACCESS',
      access: 'String: the access value',
    },
  },
  places: {
    description: 'Peaks, huts, shelters, viewpoints and settlements',
    fields: {
      id: 'String: node/<id> or way/<id>',
      name: 'String',
      kind: 'String: peak, alpine_hut, village, …',
      elevation: 'Number: metres, when known',
    },
  },
  contours: {
    description: `Contour lines of the region's elevation data, every ${CONTOUR_INTERVAL} m (from zoom ${CONTOURS_MIN_ZOOM})`,
    fields: { elevation: 'Number: metres', index: `Number: 1 on index lines (every ${INDEX_INTERVAL} m), else 0` },
  },
} as const;

/** What a tile archive says of itself (its MBTiles metadata): TileJSON and entity tags are made from it. */
export interface TrailArchiveInfo {
  /** [west, south, east, north], degrees. */
  bbox: [number, number, number, number];
  attribution: string;
  kind: 'import' | 'demo';
  /** Whether the region has elevation data (contours need it). */
  hasDem: boolean;
  /** Names the tiles' content: the region's metadata and the cut's version (entity tags and cache keys). */
  tag: string;
  minzoom: number;
  maxzoom: number;
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
