// Piscina task module for routing: each worker loads the region once (REGION_PATH, or the demo
// region when unset) and keeps one engine (WASM instance, core graph, profiles) for its life.
import { isMainThread, threadId } from 'node:worker_threads';
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
} from '../contracts/routing.js';
import type { TaskFailure } from '../contracts/task-failure.js';
import type { TaskMap } from '../contracts/task-map.js';
import type { OnRegion, RegionCoverage, RegionExtent, RegionOutlineOutput } from '../contracts/region-ref.js';
import { LOOKUP_LIMITS } from '../contracts/region-lookup.js';
import { METRES_PER_DEGREE_LAT, mercatorX, mercatorY, metresPerDegreeLon } from '../data/region/geo.js';
import type { Region } from '../data/region/region.js';
import { latOf, lonOf } from '../data/region/region-graph.js';
import { encodeDirections, encodeSuggestions } from './positions-json.js';
import { isActivity } from './profiles.js';
import { dropRetired, heldRegions, routingFor, threadRouting } from './region-source.js';
import { suggestRoutes } from './suggestions.js';

// REGION_WARM=1 loads the thread's own region (REGION_PATH, and its prepared routing) when the worker starts, so no
// first task waits for it. (The server hands its regions to every worker with a ping instead: server/regions/.)
if (process.env['REGION_WARM'] === '1') threadRouting();

// ROUTING_WARM=HIKING_AND_TRAIL,WALKING loads the region and prepares those activities when the
// worker starts (the pool has every worker import this module at thread start), so first requests skip that work.
for (const activity of (process.env['ROUTING_WARM'] ?? '')
  .split(',')
  .map((a) => a.trim())
  .filter(isActivity)) {
  threadRouting().engine.prepare(activity);
}

export function directions(input: DirectionsInput): EncodedDirectionsOutput | TaskFailure {
  return encodeDirections(routingFor(input.region).engine.directions(input));
}

// A batch's inputs may name different regions (the pool batches one turn's calls whatever their region).
export function directionsBatch(inputs: DirectionsInput[]): TaskMap['directionsBatch'][1] {
  return { ok: true, results: inputs.map((i) => encodeDirections(routingFor(i.region).engine.directions(i))) };
}

export function snapLineBatch(inputs: SnapLineInput[]): TaskMap['snapLineBatch'][1] {
  return { ok: true, results: inputs.map((i) => routingFor(i.region).engine.snapLine(i)) };
}

export function snapLine(input: SnapLineInput): SnapLineOutput | TaskFailure {
  return routingFor(input.region).engine.snapLine(input);
}

export function reachable(input: ReachableInput): ReachableOutput | TaskFailure {
  return routingFor(input.region).engine.reachable(input);
}

export function isochrone(input: IsochroneInput): IsochroneOutput | TaskFailure {
  return routingFor(input.region).engine.isochrone(input);
}

export function suggestions(input: SuggestionsInput): EncodedSuggestionsOutput | TaskFailure {
  return encodeSuggestions(suggestRoutes(routingFor(input.region).engine, input));
}

export function snap(input: SnapInput): SnapOutput | TaskFailure {
  return routingFor(input.region).engine.snap(input);
}

/**
 * Which thread answered and the region it holds: the one `input.region` names (loading it: the server hands each new
 * region to every worker this way before a request needs it), else the thread's own. Also drops retired regions.
 */
export function ping(input: OnRegion = {}): TaskMap['ping'][1] {
  const { source, engine, region } = routingFor(input.region);
  const routing = {
    memoryBytes: engine.kernel.memoryBytes,
    shared: engine.kernel.sharesMemory,
    graphAt: region.graph.nodeLonE7.byteOffset,
    placesAt: region.places.bytes.byteOffset,
  };
  return { ok: true, threadId, isMainThread, region: source, routing, held: heldRegions() };
}

export function dropRegions(): TaskMap['dropRegions'][1] {
  dropRetired();
  return { ok: true, threadId, held: heldRegions() };
}

/** Cells of the coverage grid: ~2 km, coarser than the farthest a point snaps (route-engine's maxSnapDistance). */
const COVERAGE_CELL_DEG = 0.02;
/** Most cells a coverage grid holds (a continent-sized region gets coarser cells). */
const COVERAGE_MAX_CELLS = 4_000_000;

export function regionOutline(input: OnRegion): RegionOutlineOutput {
  const { region } = routingFor(input.region);
  const { bbox } = region.meta;
  return { ok: true, meta: region.meta, coverage: coverageOf(region.graph, bbox), extent: extentOf(bbox) };
}

/** The region's bounds in the measures the main thread compares with arithmetic alone (RegionExtent). */
function extentOf([west, south, east, north]: readonly [number, number, number, number]): RegionExtent {
  const poleward = Math.min(89, Math.max(Math.abs(south), Math.abs(north)) + LOOKUP_LIMITS.radius.max / METRES_PER_DEGREE_LAT);
  return {
    world: [mercatorX(west), mercatorY(north), mercatorX(east), mercatorY(south)],
    lonDegPerMetre: 1 / metresPerDegreeLon((south + north) / 2),
    lonDegPerMetreMax: 1 / metresPerDegreeLon(poleward),
  };
}

/** Which cells of a grid over the region's bounds (its nodes' extent) hold one of its nodes. */
function coverageOf(g: Region['graph'], [west, south, east, north]: readonly [number, number, number, number]): RegionCoverage {
  const n = g.nodeCount;
  if (n === 0) return { west: 0, south: 0, cellDeg: COVERAGE_CELL_DEG, cols: 0, rows: 0, cells: new Uint8Array(0) };
  const area = (east - west) * (north - south);
  const cellDeg = Math.max(COVERAGE_CELL_DEG, Math.sqrt(area / COVERAGE_MAX_CELLS));
  const cols = Math.floor((east - west) / cellDeg) + 1;
  const rows = Math.floor((north - south) / cellDeg) + 1;
  const cells = new Uint8Array(cols * rows);
  for (let i = 0; i < n; i++) {
    const c = Math.min(cols - 1, Math.max(0, Math.floor((lonOf(g, i) - west) / cellDeg)));
    const r = Math.min(rows - 1, Math.max(0, Math.floor((latOf(g, i) - south) / cellDeg)));
    cells[r * cols + c] = 1;
  }
  return { west, south, cellDeg, cols, rows, cells };
}
