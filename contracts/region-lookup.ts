// Wire shapes of the region lookups (places and ways) and their limits, shared by the lookup task and the
// operations that validate against them.
import type { Activity } from './activity.js';
import type { LonLat } from './routing.js';
import type { OnRegion } from './region-ref.js';

/** The kinds of place a region file holds. */
export type PlaceKind = 'peak' | 'alpine_hut' | 'wilderness_hut' | 'shelter' | 'viewpoint' | 'town' | 'village' | 'hamlet' | 'address';

/** Every place kind, in the order a search lists them; places.bin stores a kind as its index here (a format change). */
export const PLACE_KINDS: readonly PlaceKind[] = [
  'peak',
  'alpine_hut',
  'wilderness_hut',
  'shelter',
  'viewpoint',
  'town',
  'village',
  'hamlet',
  'address',
];

export const LOOKUP_LIMITS = {
  places: { default: 10, max: 50 },
  /** Largest `near` radius (m). */
  radius: { default: 5_000, max: 50_000 },
  /** Largest bounding box side of a ways search (degrees) and most ways answered. */
  waysBboxDeg: 0.1,
  ways: 2_000,
} as const;

export interface PlaceResult {
  /** `node/<osm id>` or `way/<osm id>`: stable across imports of the same data. */
  id: string;
  name: string;
  kind: PlaceKind;
  coordinates: LonLat;
  elevation: number | null;
  houseNumber: string | null;
  street: string | null;
  /** Metres from `near`, when given. */
  distance: number | null;
}

export interface PlacesInput extends OnRegion {
  text?: string;
  near?: LonLat;
  radius?: number;
  kinds?: PlaceKind[];
  limit?: number;
}
export interface PlacesOutput {
  ok: true;
  places: PlaceResult[];
  /**
   * How well each place matched the text (0 best), as it was ranked: places found in several regions are merged by
   * it (then by distance). Not part of any answer.
   */
  matches: number[];
}

export interface PlaceInput extends OnRegion {
  id: string;
}
export interface PlaceOutput {
  ok: true;
  place: PlaceResult | null;
}

export interface WaysInput extends OnRegion {
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number];
  activity?: Activity;
}
export interface WayResult {
  /** The OSM way id. */
  id: number;
  name: string | null;
  /** OSM highway value (`path`, `living_street`, …), null when unknown. */
  highway: string | null;
  surface: string | null;
  /** T1–T6 from sac_scale, null when untagged. */
  sacScale: string | null;
  /** The activities whose profile accepts the way; only the asked one in a search filtered to it. */
  activityCompatible: Activity[];
}
export interface WaysOutput {
  ok: true;
  ways: WayResult[];
  /** More ways matched than LOOKUP_LIMITS.ways: the box should be smaller. */
  truncated: boolean;
}
