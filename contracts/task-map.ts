// Task names and what each takes and gives: the pool's runTask is typed by it, each task module implements it.
import type {
  AnalyzeInput,
  AnalyzeOutput,
  MeasureLinesInput,
  MeasureLinesOutput,
  NearestPointsInput,
  NearestPointsOutput,
  SplitLineInput,
  SplitLineOutput,
} from './line-tasks.js';
import type { PlaceInput, PlaceOutput, PlacesInput, PlacesOutput, WaysInput, WaysOutput } from './region-lookup.js';
import type {
  DirectionsInput,
  EncodedDirectionsOutput,
  EncodedSuggestionsOutput,
  IsochroneInput,
  IsochroneOutput,
  ReachableInput,
  ReachableOutput,
  SnapInput,
  SnapLineInput,
  SnapLineOutput,
  SnapOutput,
  SuggestionsInput,
} from './routing.js';
import type { TaskFailure } from './task-failure.js';
import type { OnRegion, RegionOutlineOutput } from './region-ref.js';
import type { OverlayTileInput, TrailTileInput } from './tiles.js';
import type { ImportFileProblem, ReadImportInput, ReadImportOutput, WriteExportInput } from './transfer.js';
import type { MatchZonesInput, MatchZonesOutput } from './zones.js';

/** What each task takes and gives (name → [input, output]); the pool's runTask is typed by it. */
/** Where a worker's routing kernel works: its memory's size, whether the process shares it, where its graph lies. */
export interface RoutingMemoryReport {
  /** The kernel's WASM memory in bytes (the process's one routing memory when shared). */
  memoryBytes: number;
  /** True when the memory is the region's routing memory the server read once for every worker. */
  shared: boolean;
  /** Byte offset of the graph's first array (node longitudes) in that memory's buffer. */
  graphAt: number;
  /** Byte offset of the places file (places.bin) in that memory's buffer (the demo region's: in its own). */
  placesAt: number;
}

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
  /**
   * Reports which thread ran the task, the region it answered from (the one `region` names, loaded now if new) and the
   * keys of the regions it holds; drops the ones retired since (tests, health checks, the server's region hand-out).
   */
  ping: [OnRegion, { ok: true; threadId: number; isMainThread: boolean; region: string; routing: RoutingMemoryReport; held: string[] }];
  /** Drops the regions the main thread has retired; answers the thread and the keys of the regions it still holds. */
  dropRegions: [Record<string, never>, { ok: true; threadId: number; held: string[] }];
  /** The region's metadata and where its network lies (what the main thread picks regions by). */
  regionOutline: [OnRegion, RegionOutlineOutput];
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
  /**
   * One trail tile deeper than the archive's maxzoom, cut from its ancestor's bytes (Mapbox Vector Tile bytes, moved;
   * empty: no feature).
   */
  trailTile: [TrailTileInput, Uint8Array];
  /** One tile of an overlay (published itineraries, waypoints, zones): MVT bytes, moved; empty: no feature. */
  overlayTile: [OverlayTileInput, Uint8Array];
  /** Several trail tiles in one task (tiles asked in one turn while every worker is busy). */
  trailTileBatch: [TrailTileInput[], { ok: true; results: (Uint8Array | TaskFailure)[] }];
  /**
   * The tile archive of the worker's region cut in memory (the demo region, or a region folder written before
   * archives): the MBTiles database's bytes, moved.
   */
  trailTileArchive: [OnRegion, Uint8Array];
  /** The tiles of one address in several regions' archives (gzip, as stored) merged into one (MVT bytes, moved). */
  mergeTrailTiles: [{ tiles: Uint8Array[] }, Uint8Array];
  /** Which zones meet a box or contain a point, by their true shape (zone searches). */
  matchZones: [MatchZonesInput, MatchZonesOutput];
}
export type TaskName = keyof TaskMap;
export type TaskInput<N extends TaskName> = TaskMap[N][0];
export type TaskOutput<N extends TaskName> = TaskMap[N][1] | TaskFailure;
