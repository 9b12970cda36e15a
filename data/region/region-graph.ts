// The in-memory shape of a region's trail network: flat typed arrays, ready to copy into WASM memory.
// The region file format (data/region/README.md) serializes exactly these arrays.

/** OSM highway classes kept in the graph; the numeric value is stored per edge (Uint8). */
export enum HighwayClass {
  Unknown = 0,
  Path = 1,
  Footway = 2,
  Track = 3,
  Steps = 4,
  Bridleway = 5,
  Cycleway = 6,
  Pedestrian = 7,
  LivingStreet = 8,
  Residential = 9,
  Service = 10,
  Unclassified = 11,
  Tertiary = 12,
  Secondary = 13,
  Primary = 14,
  Trunk = 15,
  Motorway = 16,
  Road = 17,
}

/** OSM's spelling of a highway class (`LivingStreet` → `living_street`); null for Unknown. */
export function highwayTag(h: HighwayClass): string | null {
  if (h === HighwayClass.Unknown) return null;
  return (HighwayClass[h] as string).replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Access value of a way for one travel mode, after `foot`/`bicycle`/`horse` override `access`. */
export enum AccessClass {
  Yes = 0, // includes "designated", "official" and untagged
  Permissive = 1,
  Destination = 2,
  Private = 3,
  Customers = 4,
  Delivery = 5,
  Permit = 6,
  Agricultural = 7,
  Forestry = 8,
  No = 9,
}

/** Travel modes whose access is stored per edge; each takes 4 bits of `edgeAccess`. */
export enum AccessMode {
  Foot = 0,
  Bicycle = 1,
  Horse = 2,
}

/** Bit flags in `edgeFlags`. */
export const EdgeFlag = {
  Toll: 1, // toll=yes or toll:*=yes
  OnewayForBikes: 2, // the reverse direction of a oneway road (bikes must not use it)
  Bridge: 4,
  Tunnel: 8,
} as const;

export interface RegionGraph {
  /** Graph nodes: every OSM node used by a routable way. */
  nodeCount: number;
  /** Directed edges: each straight piece between two consecutive OSM nodes of a way, both directions. */
  edgeCount: number;
  /** [minLon, minLat, maxLon, maxLat] in degrees (WGS84). */
  bbox: [number, number, number, number];
  nodeLon: Float64Array; // degrees
  nodeLat: Float64Array; // degrees
  nodeEle: Float32Array; // metres above sea level, NaN where no DEM covers the node
  /** CSR: edges leaving node n are firstEdge[n] .. firstEdge[n+1]-1. Length nodeCount+1. */
  firstEdge: Uint32Array;
  edgeTarget: Uint32Array; // node index
  edgeLength: Float32Array; // metres (haversine); the climb is derived from the nodes' elevations (edgeRise)
  edgeHighway: Uint8Array; // HighwayClass
  edgeSurface: Uint8Array; // index into `surfaces` (0 = unknown)
  edgeSac: Uint8Array; // 0 = no sac_scale, 1..6 = T1..T6
  edgeFlags: Uint8Array; // EdgeFlag bits
  edgeAccess: Uint16Array; // AccessClass per AccessMode, 4 bits each (mode m at bits 4m..4m+3)
  edgeWay: Uint32Array; // index into wayOsmId / wayName
  /** OSM way ids (Float64 because ids pass 2^32 in current planet data). */
  wayOsmId: Float64Array;
  wayName: string[];
  /** Surface names indexed by edgeSurface ("" at 0). */
  surfaces: string[];
}

/**
 * Metres climbed (positive) or descended (negative) along directed edge e, which leaves node `source`: the
 * elevation difference of its ends as a float32, 0 where either end has no elevation. Derived rather than stored
 * (two arrays per directed edge were 8 bytes of each edge's 26).
 */
export function edgeRise(g: Pick<RegionGraph, 'nodeEle' | 'edgeTarget'>, e: number, source: number): number {
  const d = Math.fround(g.nodeEle[g.edgeTarget[e]!]! - g.nodeEle[source]!);
  return Number.isNaN(d) ? 0 : d; // no DEM at an end: no climb
}
