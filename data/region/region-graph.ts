// The in-memory shape of a region's trail network: flat typed arrays, ready to copy into WASM memory.
// The region file format (data/region/README.md) serializes exactly these arrays.
import { haversine } from './geo.js';

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

/** What the graph keeps per way, indexed by the way's number in the graph. */
export interface WayTables {
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

/**
 * The trail network as a junction graph (GraphHopper's tower and pillar nodes): junctions (towers, nodes
 * 0 … towerCount − 1) joined by chains, each chain a run of pieces through nodes of degree two (its pillars).
 * A piece is the straight line between two consecutive OSM nodes of a way. Pieces are numbered chain by chain
 * (chain k holds pieces pieceStart[k] … pieceStart[k + 1] − 1, in order from chainFrom[k] to chainTo[k]); a
 * directed edge is a piece in one direction, e = 2u from its chain's start towards its end and e = 2u + 1 back
 * (its reverse is e ^ 1). Chain k's inner nodes are numbered towerCount + pieceStart[k] − k onwards, in order.
 * So no table per node or edge says how they connect: edgeTarget, edgeSource and outEdges compute it.
 */
export interface RegionGraph extends WayTables {
  /** Towers and pillars: every OSM node used by a routable way. */
  nodeCount: number;
  /** Directed edges: twice the pieces. */
  edgeCount: number;
  towerCount: number;
  chainCount: number;
  /** [minLon, minLat, maxLon, maxLat] in degrees (WGS84). */
  bbox: [number, number, number, number];
  /** Longitudes and latitudes in 1e-7 degree (lonOf, latOf give degrees). */
  nodeLonE7: Int32Array;
  nodeLatE7: Int32Array;
  nodeEle: Float32Array; // metres above sea level, NaN where no DEM covers the node
  /**
   * The chains leaving tower t are towerChains[towerFirst[t]] … towerChains[towerFirst[t + 1] − 1], each 2k (chain
   * k from its start) or 2k + 1 (from its end); a loop leaves its tower both ways.
   */
  towerFirst: Uint32Array;
  towerChains: Uint32Array;
  chainFrom: Uint32Array; // tower
  chainTo: Uint32Array; // tower
  pieceStart: Uint32Array; // chainCount + 1
  /**
   * The way of each piece (index into the way tables) | AGAINST_WAY when the chain's direction runs against the
   * way's node order. An edge's class, surface, difficulty, access and flags are its way's (edgeHighway, edgeFlags,
   * …); its length and climb come from its nodes (edgeLength, edgeRise).
   */
  pieceWay: Uint32Array;
}

/** What finding an edge's nodes reads. */
export type ChainLayout = Pick<RegionGraph, 'towerCount' | 'chainCount' | 'chainFrom' | 'chainTo' | 'pieceStart'>;

/** The chain holding piece u (binary search in pieceStart). */
export function chainOfPiece(g: ChainLayout, u: number): number {
  const s = g.pieceStart;
  // A route, a tile or a measure walks a chain piece by piece and asks for each piece's chain several times:
  // the last answer is checked before a binary search over every chain (cache misses at country scale).
  const k = lastChain.k;
  if (lastChain.starts === s && k < g.chainCount && s[k]! <= u && u < s[k + 1]!) return k;
  let lo = 0;
  let hi = g.chainCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (s[mid]! <= u) lo = mid;
    else hi = mid - 1;
  }
  lastChain.starts = s;
  lastChain.k = lo;
  return lo;
}

/** chainOfPiece's last answer, and the graph it was for (by its pieceStart array). */
const lastChain: { starts: Uint32Array | null; k: number } = { starts: null, k: 0 };

/** The node at place `pos` (0 … its piece count) of chain k. */
export function chainNode(g: ChainLayout, k: number, pos: number): number {
  if (pos === 0) return g.chainFrom[k]!;
  const start = g.pieceStart[k]!;
  if (pos === g.pieceStart[k + 1]! - start) return g.chainTo[k]!;
  return g.towerCount + start - k + pos - 1;
}

/** Source and target of directed edge e, found together (one chain lookup). */
export function edgeEnds(g: ChainLayout, e: number): [source: number, target: number] {
  const u = e >>> 1;
  const k = chainOfPiece(g, u);
  const i = u - g.pieceStart[k]!;
  const a = chainNode(g, k, i);
  const b = chainNode(g, k, i + 1);
  return (e & 1) === 0 ? [a, b] : [b, a];
}

export function edgeTarget(g: ChainLayout, e: number): number {
  const u = e >>> 1;
  const k = chainOfPiece(g, u);
  return chainNode(g, k, u - g.pieceStart[k]! + ((e & 1) === 0 ? 1 : 0));
}

export function edgeSource(g: ChainLayout, e: number): number {
  return edgeTarget(g, e ^ 1);
}

/** The first edge of directed chain c (2k or 2k + 1), leaving its tower. */
export function chainFirstEdge(g: Pick<RegionGraph, 'pieceStart'>, c: number): number {
  const k = c >>> 1;
  return (c & 1) === 0 ? 2 * g.pieceStart[k]! : 2 * (g.pieceStart[k + 1]! - 1) + 1;
}

/** The edges leaving node v. */
export function outEdges(g: ChainLayout & Pick<RegionGraph, 'towerFirst' | 'towerChains'>, v: number): number[] {
  if (v < g.towerCount) {
    const out: number[] = [];
    for (let j = g.towerFirst[v]!; j < g.towerFirst[v + 1]!; j++) out.push(chainFirstEdge(g, g.towerChains[j]!));
    return out;
  }
  // A pillar: the chain whose inner nodes start at or before it (the last such chain holds it).
  const q = v - g.towerCount;
  let lo = 0;
  let hi = g.chainCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (g.pieceStart[mid]! - mid <= q) lo = mid;
    else hi = mid - 1;
  }
  const u = g.pieceStart[lo]! + (q - (g.pieceStart[lo]! - lo)) + 1; // the piece leaving it forwards
  return [2 * u, 2 * (u - 1) + 1];
}

/** The way of edge e | AGAINST_WAY when e runs against the way's node order. */
export function edgeWayDir(g: Pick<RegionGraph, 'pieceWay'>, e: number): number {
  const w = g.pieceWay[e >>> 1]!;
  return ((e & 1) === 0 ? w : w ^ AGAINST_WAY) >>> 0;
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
export function wayOf(g: Pick<RegionGraph, 'pieceWay'>, e: number): number {
  return (g.pieceWay[e >>> 1]! & ~AGAINST_WAY) >>> 0;
}

export function edgeHighway(g: Pick<RegionGraph, 'pieceWay' | 'wayHighway'>, e: number): HighwayClass {
  return g.wayHighway[wayOf(g, e)]! as HighwayClass;
}

/** Index into g.surfaces. */
export function edgeSurface(g: Pick<RegionGraph, 'pieceWay' | 'waySurface'>, e: number): number {
  return g.waySurface[wayOf(g, e)]!;
}

/** 0 = no sac_scale, 1..6 = T1..T6. */
export function edgeSac(g: Pick<RegionGraph, 'pieceWay' | 'waySac'>, e: number): number {
  return g.waySac[wayOf(g, e)]!;
}

/** The packed access value of edge e's way (AccessClass per AccessMode, 4 bits each). */
export function edgeAccessBits(g: Pick<RegionGraph, 'pieceWay' | 'wayAccess'>, e: number): number {
  return g.wayAccess[wayOf(g, e)]!;
}

/** EdgeFlag bits of directed edge e: its way's toll, bridge and tunnel, and whether bikes may not ride it this way. */
export function edgeFlags(g: Pick<RegionGraph, 'pieceWay' | 'wayFlags'>, e: number): number {
  const wd = edgeWayDir(g, e);
  const f = g.wayFlags[(wd & ~AGAINST_WAY) >>> 0]!;
  let out = f & (EdgeFlag.Toll | EdgeFlag.Bridge | EdgeFlag.Tunnel);
  if (f & ((wd & AGAINST_WAY) !== 0 ? WayFlag.Oneway : WayFlag.OnewayReversed)) out |= EdgeFlag.OnewayForBikes;
  return out;
}

/** Metres from node a to node b: the haversine distance as a float32 (an edge's length, derived, not stored). */
export function nodeDistance(g: Pick<RegionGraph, 'nodeLonE7' | 'nodeLatE7'>, a: number, b: number): number {
  return Math.fround(haversine(lonOf(g, a), latOf(g, a), lonOf(g, b), latOf(g, b)));
}

/** Metres climbed (positive) or descended (negative) from node a to node b as a float32, 0 where either has no elevation. */
export function nodeRise(g: Pick<RegionGraph, 'nodeEle'>, a: number, b: number): number {
  const d = Math.fround(g.nodeEle[b]! - g.nodeEle[a]!);
  return Number.isNaN(d) ? 0 : d; // no DEM at an end: no climb
}

/** Metres along directed edge e. */
export function edgeLength(g: ChainLayout & Pick<RegionGraph, 'nodeLonE7' | 'nodeLatE7'>, e: number): number {
  const [a, b] = edgeEnds(g, e);
  return nodeDistance(g, a, b);
}

/** Metres climbed (positive) or descended (negative) along directed edge e. */
export function edgeRise(g: ChainLayout & Pick<RegionGraph, 'nodeEle'>, e: number): number {
  const [a, b] = edgeEnds(g, e);
  return nodeRise(g, a, b);
}

/** Source and target of every directed edge, walking the chains: tables of the caller's, for whole-graph passes. */
export function edgeTables(g: RegionGraph): { source: Uint32Array; target: Uint32Array } {
  const source = new Uint32Array(g.edgeCount);
  const target = new Uint32Array(g.edgeCount);
  for (let k = 0; k < g.chainCount; k++) {
    const start = g.pieceStart[k]!;
    const n = g.pieceStart[k + 1]! - start;
    for (let i = 0; i < n; i++) {
      const a = chainNode(g, k, i);
      const b = chainNode(g, k, i + 1);
      const e = 2 * (start + i);
      source[e] = a;
      target[e] = b;
      source[e + 1] = b;
      target[e + 1] = a;
    }
  }
  return { source, target };
}

/** Source node of every directed edge (edgeTables). */
export function edgeSources(g: RegionGraph): Uint32Array {
  return edgeTables(g).source;
}
