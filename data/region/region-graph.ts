// The in-memory shape of a region's trail network: flat typed arrays, ready to copy into WASM memory.
import { haversine } from './geo.js';
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

/** Bit flags of a directed edge (`edgeFlags`). */
export const EdgeFlag = {
  Toll: 1, // toll=yes or toll:*=yes
  OnewayForBikes: 2, // the reverse direction of a oneway road (bikes must not use it)
  Bridge: 4,
  Tunnel: 8,
} as const;

/** Bit flags of a way (`wayFlags`): EdgeFlag's Toll, Bridge and Tunnel, and which way a oneway runs for bikes. */
export const WayFlag = {
  Toll: EdgeFlag.Toll,
  Bridge: EdgeFlag.Bridge,
  Tunnel: EdgeFlag.Tunnel,
  /** oneway=yes: bikes go only in the way's node order. */
  Oneway: 16,
  /** oneway=-1: bikes go only against it. */
  OnewayReversed: 32,
} as const;

/** Set in `edgeWayDir` when the edge runs against its way's node order. */
export const AGAINST_WAY = 0x80000000;

/** Coordinates are stored as integers of 1e-7 degree, OSM's own fixed point (about 1 cm). */
export const COORD_UNITS_PER_DEG = 1e7;

export interface RegionGraph {
  /** Graph nodes: every OSM node used by a routable way. */
  nodeCount: number;
  /** Directed edges: each straight piece between two consecutive OSM nodes of a way, both directions. */
  edgeCount: number;
  /** [minLon, minLat, maxLon, maxLat] in degrees (WGS84). */
  bbox: [number, number, number, number];
  /** Longitudes and latitudes in 1e-7 degree (lonOf, latOf give degrees). */
  nodeLonE7: Int32Array;
  nodeLatE7: Int32Array;
  nodeEle: Float32Array; // metres above sea level, NaN where no DEM covers the node
  /** CSR: edges leaving node n are firstEdge[n] .. firstEdge[n+1]-1. Length nodeCount+1. */
  firstEdge: Uint32Array;
  edgeTarget: Uint32Array; // node index
  /**
   * The way of each edge (index into the way tables) | AGAINST_WAY when it runs against the way's node order.
   * An edge's class, surface, difficulty, access and flags are its way's (edgeHighway, edgeFlags, …); its length
   * and climb come from its nodes (edgeLength, edgeRise).
   */
  edgeWayDir: Uint32Array;
  /** OSM way ids (Float64 because ids pass 2^32 in current planet data). */
  wayOsmId: Float64Array;
  wayHighway: Uint8Array; // HighwayClass
  waySurface: Uint8Array; // index into `surfaces` (0 = unknown)
  waySac: Uint8Array; // 0 = no sac_scale, 1..6 = T1..T6
  wayFlags: Uint8Array; // WayFlag bits
  wayAccess: Uint16Array; // AccessClass per AccessMode, 4 bits each (mode m at bits 4m..4m+3)
  wayName: string[];
  /** Surface names indexed by waySurface ("" at 0). */
  surfaces: string[];
}

/** Node n's longitude in degrees. */
export function lonOf(g: Pick<RegionGraph, 'nodeLonE7'>, n: number): number {
  return g.nodeLonE7[n]! / COORD_UNITS_PER_DEG;
}

/** Node n's latitude in degrees. */
export function latOf(g: Pick<RegionGraph, 'nodeLatE7'>, n: number): number {
  return g.nodeLatE7[n]! / COORD_UNITS_PER_DEG;
}

/** Degrees as stored (1e-7 degree, rounded). */
export function toFixedCoord(deg: number): number {
  return Math.round(deg * COORD_UNITS_PER_DEG);
}

/** The way (index into the way tables) edge e belongs to. */
export function wayOf(g: Pick<RegionGraph, 'edgeWayDir'>, e: number): number {
  return (g.edgeWayDir[e]! & ~AGAINST_WAY) >>> 0;
}

export function edgeHighway(g: Pick<RegionGraph, 'edgeWayDir' | 'wayHighway'>, e: number): HighwayClass {
  return g.wayHighway[wayOf(g, e)]! as HighwayClass;
}

/** Index into g.surfaces. */
export function edgeSurface(g: Pick<RegionGraph, 'edgeWayDir' | 'waySurface'>, e: number): number {
  return g.waySurface[wayOf(g, e)]!;
}

/** 0 = no sac_scale, 1..6 = T1..T6. */
export function edgeSac(g: Pick<RegionGraph, 'edgeWayDir' | 'waySac'>, e: number): number {
  return g.waySac[wayOf(g, e)]!;
}

/** The packed access value of edge e's way (AccessClass per AccessMode, 4 bits each). */
export function edgeAccessBits(g: Pick<RegionGraph, 'edgeWayDir' | 'wayAccess'>, e: number): number {
  return g.wayAccess[wayOf(g, e)]!;
}

/** EdgeFlag bits of directed edge e: its way's toll, bridge and tunnel, and whether bikes may not ride it this way. */
export function edgeFlags(g: Pick<RegionGraph, 'edgeWayDir' | 'wayFlags'>, e: number): number {
  const wd = g.edgeWayDir[e]!;
  const f = g.wayFlags[(wd & ~AGAINST_WAY) >>> 0]!;
  let out = f & (EdgeFlag.Toll | EdgeFlag.Bridge | EdgeFlag.Tunnel);
  if (f & ((wd & AGAINST_WAY) !== 0 ? WayFlag.Oneway : WayFlag.OnewayReversed)) out |= EdgeFlag.OnewayForBikes;
  return out;
}

/**
 * Metres along directed edge e, which leaves node `source`: the haversine distance of its ends as a float32.
 * Derived rather than stored (4 bytes per directed edge).
 */
export function edgeLength(g: Pick<RegionGraph, 'nodeLonE7' | 'nodeLatE7' | 'edgeTarget'>, e: number, source: number): number {
  const b = g.edgeTarget[e]!;
  return Math.fround(haversine(lonOf(g, source), latOf(g, source), lonOf(g, b), latOf(g, b)));
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

/** Source node of every directed edge (the CSR stores only targets): a table of the caller's, for whole-graph passes. */
export function edgeSources(g: Pick<RegionGraph, 'nodeCount' | 'edgeCount' | 'firstEdge'>): Uint32Array {
  const src = new Uint32Array(g.edgeCount);
  for (let n = 0; n < g.nodeCount; n++) src.fill(n, g.firstEdge[n]!, g.firstEdge[n + 1]!);
  return src;
}
