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
import { encodeDirections, encodeSuggestions } from './positions-json.js';
import { isActivity } from './profiles.js';
import { threadRouting } from './region-source.js';
import { suggestRoutes } from './suggestions.js';

// REGION_WARM=1 loads the region (and its prepared routing) when the worker starts: the server sets it, so every
// worker is ready before it takes a task and no request waits for a load.
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
  return encodeDirections(threadRouting().engine.directions(input));
}

export function directionsBatch(inputs: DirectionsInput[]): TaskMap['directionsBatch'][1] {
  const engine = threadRouting().engine;
  return { ok: true, results: inputs.map((i) => encodeDirections(engine.directions(i))) };
}

export function snapLineBatch(inputs: SnapLineInput[]): TaskMap['snapLineBatch'][1] {
  const engine = threadRouting().engine;
  return { ok: true, results: inputs.map((i) => engine.snapLine(i)) };
}

export function snapLine(input: SnapLineInput): SnapLineOutput | TaskFailure {
  return threadRouting().engine.snapLine(input);
}

export function reachable(input: ReachableInput): ReachableOutput | TaskFailure {
  return threadRouting().engine.reachable(input);
}

export function isochrone(input: IsochroneInput): IsochroneOutput | TaskFailure {
  return threadRouting().engine.isochrone(input);
}

export function suggestions(input: SuggestionsInput): EncodedSuggestionsOutput | TaskFailure {
  return encodeSuggestions(suggestRoutes(threadRouting().engine, input));
}

export function snap(input: SnapInput): SnapOutput | TaskFailure {
  return threadRouting().engine.snap(input);
}

export function ping(): TaskMap['ping'][1] {
  const { source, engine, region } = threadRouting();
  const routing = {
    memoryBytes: engine.kernel.memoryBytes,
    shared: engine.kernel.sharesMemory,
    graphAt: region.graph.nodeLonE7.byteOffset,
    placesAt: region.places.bytes.byteOffset,
  };
  return { ok: true, threadId, isMainThread, region: source, routing };
}
