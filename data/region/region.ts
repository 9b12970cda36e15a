// The whole region as held in memory: graph, places, hazards, routes, DEM, metadata.
import type { DemGrid } from './dem-grid.js';
import type { PlaceTable } from './place-table.js';
import type { AccessClass, RegionGraph } from './region-graph.js';

/** Version of the region folder format (data/region/README.md); bumped on any layout change. */
export const REGION_FORMAT_VERSION = 2;

export type HazardKind = 'TOLLWAY' | 'RESTRICTED_ACCESS' | 'PERMISSIVE';

/** A routable way that is a toll way, or whose access is anything but plain yes/no for some mode. */
export interface HazardWay {
  way: number; // index into graph.wayOsmId / edgeWay values
  osmId: number;
  name: string;
  /** TOLLWAY; RESTRICTED_ACCESS when some mode is restricted; PERMISSIVE when some mode is permissive. */
  kinds: HazardKind[];
  toll: boolean;
  /** AccessClass per AccessMode (foot, bicycle, horse). */
  access: [AccessClass, AccessClass, AccessClass];
}

/** A hiking route relation (type=route, route=hiking|foot). */
export interface HikingRoute {
  osmId: number;
  name: string;
  ref: string;
  network: string;
  /** Member way ids in relation order. */
  wayOsmIds: number[];
  /** Graph way index per member, -1 when the member is not a routable way of this region. */
  ways: number[];
}

export interface RegionMeta {
  formatVersion: number;
  /** "import" for an OSM extract, "demo" for the built-in region. */
  kind: 'import' | 'demo';
  /** File names (not paths) of the inputs, for display. */
  sources: { osm: string | null; dem: string[] };
  /** The extract's replication timestamp (ISO), when the PBF header has one. */
  osmTimestamp: string | null;
  bbox: [number, number, number, number];
  counts: {
    nodes: number;
    edges: number;
    ways: number;
    places: number;
    hazards: number;
    routes: number;
    osmNodes: number;
    osmWays: number;
    osmRelations: number;
  };
  attribution: string;
}

export interface Region {
  graph: RegionGraph;
  /** Places and their text search, viewed in places.bin's bytes (see README for why not FTS5). */
  places: PlaceTable;
  hazards: HazardWay[];
  routes: HikingRoute[];
  dem: DemGrid | null;
  meta: RegionMeta;
}
