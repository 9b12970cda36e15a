// The flat form of the OSM entities a region is built from: node positions by slot, routable ways as typed
// arrays of slots with their per-way attributes, resolved place objects and hiking relations. The streaming
// PBF import fills it without an object per node or way; the demo generator's OsmCollector converts to it.
import type { Tags } from './osm-tags.js';

/** A place candidate (node or way) with its position resolved. */
export interface PlaceSource {
  osmType: 'node' | 'way';
  osmId: number;
  tags: Tags;
  lon: number; // degrees
  lat: number; // degrees
}

export interface RouteSource {
  id: number;
  tags: Tags;
  /** Ids of the members of type way, in member order. */
  wayIds: number[];
}

/** Routable ways in source order; attributes as the graph stores them (osm-tags.ts). */
export interface ExtractWays {
  count: number;
  id: Float64Array;
  /** slots of way i are slots[refStart[i] .. refStart[i+1]-1]; -1 where the node is missing from the extract. */
  refStart: Uint32Array;
  slots: Int32Array;
  highway: Uint8Array;
  sac: Uint8Array;
  flags: Uint8Array;
  access: Uint16Array;
  oneway: Int8Array;
  name: string[];
  surface: string[];
}

export interface OsmExtract {
  counts: { nodes: number; ways: number; relations: number };
  /** Position of each node slot (only the slots ways refer to need to be filled). */
  lon: Float64Array;
  lat: Float64Array;
  ways: ExtractWays;
  /** Place nodes in source order, then place ways in source order. */
  places: PlaceSource[];
  routes: RouteSource[];
}

/**
 * Mean position of `slots` (the summation order of the original collector, so the doubles are the same):
 * [lon, lat], or null when `slots` is empty.
 */
export function meanPosition(slots: ArrayLike<number>, lon: ArrayLike<number>, lat: ArrayLike<number>): [number, number] | null {
  if (slots.length === 0) return null;
  let x = 0;
  let y = 0;
  for (let i = 0; i < slots.length; i++) {
    x += lon[slots[i]!]!;
    y += lat[slots[i]!]!;
  }
  return [x / slots.length, y / slots.length];
}

/**
 * A closed way's ring without its repeated first node (a place way's mean counts each corner once); the
 * summation then starts at the second node, as it always has, which keeps the same doubles.
 */
export function ringRefs<T>(refs: readonly T[]): readonly T[] {
  return refs.length > 1 && refs[0] === refs[refs.length - 1] ? refs.slice(1) : refs;
}
