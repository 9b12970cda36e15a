// Task names, inputs and outputs of the worker pool, shared by workers/ and server/, and the task module
// each task runs from.
import type { ItineraryView } from '../server/studio/itineraries/itinerary-view.js';
import type { ImportPlan } from '../server/studio/transfer/import-plan.js';
import type { ExportFormat } from '../server/studio/transfer/transfer-schemas.js';
import type { ProblemKey } from '../server/studio/transfer/transfer-messages.js';
import type { IsochronePolygon } from './isochrone.js';
import type { PlaceInput, PlaceOutput, PlacesInput, PlacesOutput, WaysInput, WaysOutput } from './region-lookup.js';
import type { Suggestion, SuggestionsInput } from './suggestions.js';
import type { OverlayTileInput } from './overlay-tiles.js';
import type { TrailTileInput, TrailTileSource } from './trail-tiles.js';
import type { Activity, HazardName } from './profiles.js';

export type { Activity, HazardName } from './profiles.js';

/** Failure codes a task or the pool returns (a subset of the spec's sixteen). */
export type TaskFailureCode = 'VALIDATION_FAILED' | 'NOT_FOUND' | 'SERVICE_UNAVAILABLE' | 'GATEWAY_TIMEOUT' | 'INTERNAL_ERROR';

/**
 * What went wrong, as callers decide on it (a closed set):
 * - `bad_input`: a field of the input is not acceptable (range, shape, unknown name);
 * - `off_network`: a point is not near any way the activity may use (the path names it);
 * - `unroutable`: the points are on the network but no route joins them;
 * - `not_found`: the input is fine and nothing answers it (no route idea avoids the hazards);
 * - `queue_full`: the pool's queue is full; `deadline`: the task was aborted or passed its deadline;
 * - `worker_failed`: the task threw or its worker died (a bug, reported by the pool).
 */
export type TaskFailureKind = 'bad_input' | 'off_network' | 'unroutable' | 'not_found' | 'queue_full' | 'deadline' | 'worker_failed';

/** The code each kind answers with: a failure's code follows from its kind. */
export const FAILURE_CODES = {
  bad_input: 'VALIDATION_FAILED',
  off_network: 'VALIDATION_FAILED',
  unroutable: 'VALIDATION_FAILED',
  not_found: 'NOT_FOUND',
  queue_full: 'SERVICE_UNAVAILABLE',
  deadline: 'GATEWAY_TIMEOUT',
  worker_failed: 'INTERNAL_ERROR',
} as const satisfies Record<TaskFailureKind, TaskFailureCode>;

/**
 * An expected failure, returned as a value (never thrown across the worker boundary). Callers branch on
 * `kind`; `reason` is a sentence for developers and logs, never a contract.
 */
export interface TaskFailure {
  ok: false;
  kind: TaskFailureKind;
  /** FAILURE_CODES[kind], for output that shows the code (the route command). */
  code: TaskFailureCode;
  reason: string;
  /** Input path of the offending field, e.g. ['input', 'waypoints', 2]. */
  path?: (string | number)[];
}

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

export interface DirectionsInput {
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

export interface SnapLineInput {
  activity: Activity;
  coordinates: LonLat[];
}
export interface SnapLineOutput {
  ok: true;
  route: MeasuredLine;
}

export interface AnalyzeInput {
  activity: Activity;
  coordinates: LonLat[];
}
export interface AnalyzeOutput {
  ok: true;
  analysis: MeasuredLine & {
    matchedFraction: number;
    /** Distance along the line (m) and DEM elevation (m, null where the region has none) at each of its points. */
    elevationProfile: { distance: number; elevation: number | null }[];
  };
}

export interface ReachableInput {
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

export interface IsochroneInput {
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

export interface SnapInput {
  activity: Activity;
  point: LonLat;
}
export interface SnapOutput {
  ok: true;
  point: LonLat;
  distance: number;
  osmWayId: number;
}

/** Distance (m) along a line and its ascent and descent (m) from the line's own elevations. */
export interface LineMeasures {
  distance: number;
  ascent: number;
  descent: number;
}

/** A freehand line as drawn, measured: `coordinates` flat lon,lat,ele (degrees, degrees, metres). */
export type MeasuredFreehand = Pick<MeasuredLine, 'coordinates' | 'distance' | 'duration' | 'ascent' | 'descent'>;

export interface MeasureLinesInput {
  activity: Activity;
  /** One flat lon,lat,ele array per line (NaN = no elevation), at least two points each. */
  lines: number[][];
  /**
   * Where elevations come from: `dem`, the region's elevation model at every point; `recorded`, a line's
   * own elevations when every point of it has one (ascent and descent then measured on them), else the DEM.
   */
  elevation: 'dem' | 'recorded';
}
export interface MeasureLinesOutput {
  ok: true;
  lines: MeasuredFreehand[];
}

export interface SplitLineInput {
  /** Flat lon,lat,ele (NaN = unknown elevation), at least two points. */
  coordinates: number[];
  point: LonLat;
}
export interface SplitLineOutput {
  ok: true;
  /** The point of the line nearest the requested one (lon, lat, interpolated ele), where both parts meet. */
  at: [number, number, number];
  /** The line up to `at` and from `at` on, flat lon,lat,ele, each measured on its own vertices. */
  head: number[];
  tail: number[];
  headMeasures: LineMeasures;
  tailMeasures: LineMeasures;
}

export interface NearestPointsInput {
  points: LonLat[];
  candidates: LonLat[];
  /** Farthest (m) a candidate may be from a point to be its nearest. */
  within: number;
}
export interface NearestPointsOutput {
  ok: true;
  /** For each point, the index of its nearest candidate within `within` (the first on ties), or -1. */
  nearest: number[];
}

export interface ReadImportInput {
  /** The uploaded file: bytes, or the document itself when the transport already parsed JSON. */
  content: unknown;
  /** Lower-cased media type without parameters; empty when none was given. */
  mediaType: string;
  /** Most bytes a KMZ's KML may unpack to. */
  inflateLimit: number;
}
export interface ReadImportOutput {
  ok: true;
  /** The file's own name, its first track's name and its description, cleaned (import-text.ts). */
  name?: string;
  trackName?: string;
  description?: string;
  plan: ImportPlan;
}
export interface WriteExportInput {
  view: ItineraryView;
  format: ExportFormat;
}

/** A file that cannot be imported: the problem, rendered in the caller's language by the transfer operations. */
export interface ImportFileProblem {
  ok: false;
  problem: { key: ProblemKey; params: Record<string, string | number> };
}

/** A zone's shape as stored: GeoJSON coordinates of its mode's geometry (degrees) and its size (m). */
export interface ZoneShapeInput {
  mode: 'POLYGON' | 'CIRCLE' | 'CORRIDOR';
  /** Polygon rings (POLYGON), the centre (CIRCLE) or the line (CORRIDOR). */
  coordinates: unknown;
  radiusM: number | null;
  widthM: number | null;
}
export interface MatchZonesInput {
  zones: ZoneShapeInput[];
  /** [west, south, east, north] degrees, west ≤ east: zones whose shape meets it. */
  bbox?: [number, number, number, number];
  /** [lon, lat] degrees: zones whose shape contains it. */
  point?: LonLat;
}
export interface MatchZonesOutput {
  ok: true;
  /** One flag per zone of the input, in its order. */
  matches: boolean[];
}

/** What each task takes and gives (name → [input, output]); the pool's runTask is typed by it. */
export interface TaskMap {
  directions: [DirectionsInput, EncodedDirectionsOutput];
  snapLine: [SnapLineInput, SnapLineOutput];
  reachable: [ReachableInput, ReachableOutput];
  /** Nested isochrone polygons around a start (one reachable pass to the largest range). */
  isochrone: [IsochroneInput, IsochroneOutput];
  /** Loop or point-to-point route ideas for a target distance or duration, never through a toll or restricted way. */
  suggestions: [SuggestionsInput, EncodedSuggestionsOutput];
  snap: [SnapInput, SnapOutput];
  /** Several directions queries in one task (amortises the dispatch cost). */
  directionsBatch: [DirectionsInput[], { ok: true; results: (EncodedDirectionsOutput | TaskFailure)[] }];
  /** Several lines snapped in one task (the pool batches one turn's snapLine calls into it). */
  snapLineBatch: [SnapLineInput[], { ok: true; results: (SnapLineOutput | TaskFailure)[] }];
  /** Reports which thread ran the task (tests and health checks). */
  ping: [Record<string, never>, { ok: true; threadId: number; isMainThread: boolean; region: string }];
  analyze: [AnalyzeInput, AnalyzeOutput];
  /** Freehand lines measured as drawn (segment edits, imports). */
  measureLines: [MeasureLinesInput, MeasureLinesOutput];
  splitLine: [SplitLineInput, SplitLineOutput];
  nearestPoints: [NearestPointsInput, NearestPointsOutput];
  /** Places by text and/or near a point, ranked by match then distance. */
  places: [PlacesInput, PlacesOutput];
  /** One place by its `node/<id>` or `way/<id>`. */
  place: [PlaceInput, PlaceOutput];
  /** The ways in a bounding box, with the activities that accept each. */
  ways: [WaysInput, WaysOutput];
  /** Reads a GPX, KML, KMZ or GeoJSON upload and plans the chain it imports as. */
  readImport: [ReadImportInput, ReadImportOutput | ImportFileProblem];
  /** Writes an itinerary view as GPX, KML or GeoJSON: its UTF-8 bytes, moved (not copied). */
  writeExport: [WriteExportInput, Uint8Array];
  /** One tile of the region's trails, hazards and places (Mapbox Vector Tile bytes, moved; empty: no feature). */
  trailTile: [TrailTileInput, Uint8Array];
  /** One tile of an overlay (published itineraries, waypoints, zones): MVT bytes, moved; empty: no feature. */
  overlayTile: [OverlayTileInput, Uint8Array];
  /** Several trail tiles in one task (tiles asked in one turn while every worker is busy). */
  trailTileBatch: [TrailTileInput[], { ok: true; results: (Uint8Array | TaskFailure)[] }];
  /** The region's extent and attribution for TileJSON; builds the worker's tile indexes. */
  trailTileSource: [undefined, TrailTileSource];
  /** Which zones meet a box or contain a point, by their true shape (zone searches). */
  matchZones: [MatchZonesInput, MatchZonesOutput];
}
export type TaskName = keyof TaskMap;
export type TaskInput<N extends TaskName> = TaskMap[N][0];
export type TaskOutput<N extends TaskName> = TaskMap[N][1] | TaskFailure;

/**
 * The task module each task runs from, one per domain (compiled file name, beside the pool in dist/workers/).
 * A task module may return bytes as `Piscina.move(bytes)` at the top level: they are transferred, not copied.
 */
export const TASK_FILES: Readonly<Record<TaskName, string>> = {
  directions: 'routing.js',
  snapLine: 'routing.js',
  reachable: 'routing.js',
  isochrone: 'routing.js',
  suggestions: 'routing.js',
  snap: 'routing.js',
  directionsBatch: 'routing.js',
  snapLineBatch: 'routing.js',
  ping: 'routing.js',
  analyze: 'line-analysis.js',
  measureLines: 'line-analysis.js',
  splitLine: 'line-analysis.js',
  nearestPoints: 'line-analysis.js',
  readImport: 'transfer.js',
  writeExport: 'transfer.js',
  trailTile: 'trail-tiles.js',
  trailTileSource: 'trail-tiles.js',
  trailTileBatch: 'trail-tiles.js',
  overlayTile: 'overlay-tiles.js',
  places: 'region-lookup.js',
  place: 'region-lookup.js',
  ways: 'region-lookup.js',
  matchZones: 'zone-match.js',
};

/** A failure value of `kind` (its code from FAILURE_CODES), with a sentence for logs and the input path at fault. */
export function failure(kind: TaskFailureKind, reason: string, path?: (string | number)[]): TaskFailure {
  const code = FAILURE_CODES[kind];
  return path ? { ok: false, kind, code, reason, path } : { ok: false, kind, code, reason };
}
