// Wire shapes of the routing tasks (directions, snapping, reachability, isochrones, route ideas): what the
// main thread sends to the worker pool and what comes back.
import type { Activity, HazardName } from './activity.js';
import type { OnRegion } from './region-ref.js';

/** A point: [longitude, latitude], degrees. */
export type LonLat = [number, number];

export type AvoidanceOutcome = 'NOT_NEEDED' | 'APPLIED' | 'NO_ROUTE';
export type AdvisoryKind = 'TOLLWAY' | 'RESTRICTED_ACCESS' | 'PERMISSIVE';
export type Difficulty = 'T1' | 'T2' | 'T3' | 'T4' | 'T5' | 'T6' | 'UNKNOWN';

export interface Advisory {
  kind: AdvisoryKind;
  /** The way's access value for the activity's mode (`private`, `customers`, …, `yes`). */
  access: string;
  isRestriction: boolean;
  osmWayId: number;
  /** Coordinate index range [from, to] of the line, inclusive. */
  fromIndex: number;
  toIndex: number;
  /** Distance range along the line (m). */
  fromDistance: number;
  toDistance: number;
}

export interface DifficultyStretch {
  difficulty: Difficulty;
  fromDistance: number;
  toDistance: number;
  fromIndex: number;
  toIndex: number;
}

/** A line with its measures. `coordinates` is flat lon,lat,ele (degrees, degrees, metres). */
export interface MeasuredLine {
  distance: number; // m
  duration: number; // s
  ascent: number; // m
  descent: number; // m
  coordinates: number[];
  advisories: Advisory[];
  trailDifficultyInfo: DifficultyStretch[];
}

export interface RouteResult extends MeasuredLine {
  avoidance: AvoidanceOutcome;
  /** Snapped waypoints (lon, lat) and their distance (m) from the requested ones. */
  snapped: { lon: number; lat: number; distance: number }[];
}

/** Most ranges an isochrone asks for, and the longest (s). */
export const MAX_ISOCHRONE_RANGES = 10;
export const MAX_ISOCHRONE_SECONDS = 4 * 3600;

/** Most alternative routes a directions query may ask for. */
export const MAX_ALTERNATIVES = 3;

export interface DirectionsInput extends OnRegion {
  activity: Activity;
  waypoints: LonLat[];
  avoid?: HazardName[];
  /** Alternative routes wanted besides the first (0 to MAX_ALTERNATIVES; default 0). */
  alternatives?: number;
}
export interface DirectionsOutput {
  ok: true;
  /** The best route first, then the alternatives found (possibly fewer than asked for), cheapest first. */
  routes: RouteResult[];
}

/**
 * A route as the directions task answers it: its line as the JSON text of GeoJSON positions
 * (workers/positions-json.ts), formatted in the worker, instead of numbers the main thread would format.
 */
export interface EncodedRoute extends Omit<RouteResult, 'coordinates'> {
  coordinatesJson: string;
  coordinateCount: number;
}
export interface EncodedDirectionsOutput {
  ok: true;
  routes: EncodedRoute[];
}

/** A route idea as the suggestions task answers it: its line as positions text, like EncodedRoute. */
export interface EncodedSuggestion extends Omit<Suggestion, 'coordinates'> {
  coordinatesJson: string;
}
export interface EncodedSuggestionsOutput {
  ok: true;
  suggestions: EncodedSuggestion[];
}

export interface SnapLineInput extends OnRegion {
  activity: Activity;
  coordinates: LonLat[];
}
export interface SnapLineOutput {
  ok: true;
  route: MeasuredLine;
}

export interface ReachableInput extends OnRegion {
  activity: Activity;
  center: LonLat;
  /** Time budget in seconds. */
  budget: number;
}
export interface ReachableOutput {
  ok: true;
  /** The snapped start, null when nothing is near. */
  center: LonLat | null;
  /** Flat lon,lat,seconds of every node reached within the budget. */
  points: number[];
}

export interface IsochroneInput extends OnRegion {
  activity: Activity;
  center: LonLat;
  /** Time ranges (whole seconds). */
  ranges: number[];
}
export interface IsochroneOutput {
  ok: true;
  /** The snapped start, null when nothing is near (then every polygon is empty). */
  center: LonLat | null;
  /** One per distinct range, ascending, nested. */
  isochrones: IsochronePolygon[];
}

export interface SnapInput extends OnRegion {
  activity: Activity;
  point: LonLat;
}
export interface SnapOutput {
  ok: true;
  point: LonLat;
  distance: number;
  osmWayId: number;
}

export interface IsochronePolygon {
  /** The range (s). */
  range: number;
  /** GeoJSON Polygon: one closed counter-clockwise ring of [lon, lat]; no ring when nothing was reached. */
  polygon: { type: 'Polygon'; coordinates: [number, number][][] };
  /** Reached area over the area of the circle the fastest speed covers in `range`, 0–1. */
  reachFactor: number;
  /** Area of the polygon (m²). */
  area: number;
}

export interface SuggestionsInput extends OnRegion {
  activity: Activity;
  start: LonLat;
  /** A point-to-point idea ends here; without it ideas are loops. */
  end?: LonLat;
  /** Exactly one target: metres … */
  targetDistance?: number;
  /** … or seconds. */
  targetDuration?: number;
  /** Ideas wanted (1–5, default 3). */
  limit?: number;
}

export interface Suggestion extends MeasuredLine {
  kind: 'LOOP' | 'POINT_TO_POINT';
  /** The points the idea was routed through, start and end included (lon, lat). */
  via: LonLat[];
}

export interface SuggestionsOutput {
  ok: true;
  suggestions: Suggestion[];
}

/** Bounds of a route ideas query: target distance (m), target duration (s), ideas wanted. */
export const SUGGESTION_LIMITS = {
  distance: { min: 500, max: 100_000 },
  duration: { min: 5 * 60, max: 12 * 3600 },
  limit: { max: 5, default: 3 },
} as const;
