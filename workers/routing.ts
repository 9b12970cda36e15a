// Piscina task module for routing: each worker loads the region once (REGION_PATH, or the demo
// region when unset) and keeps one engine (WASM instance, core graph, profiles) for its life.
import { isMainThread, threadId } from 'node:worker_threads';
import type {
  AnalyzeInput,
  AnalyzeOutput,
  DirectionsInput,
  DirectionsOutput,
  ReachableInput,
  ReachableOutput,
  SnapInput,
  SnapLineInput,
  SnapLineOutput,
  SnapOutput,
  TaskFailure,
  TaskMap,
} from './protocol.js';
import { isActivity } from './profiles.js';
import { loadRoutingRegion, type RoutingRegion } from './region-source.js';

let loaded: RoutingRegion | undefined;

/** The thread's region and engine, loaded on the first task (piscina caches this module per thread). */
function routing(): RoutingRegion {
  loaded ??= loadRoutingRegion(process.env['REGION_PATH'] || undefined);
  return loaded;
}

// ROUTING_WARM=HIKING_AND_TRAIL,WALKING loads the region and prepares those activities when the
// worker starts (piscina imports this module at thread start), so first requests skip that work.
for (const activity of (process.env['ROUTING_WARM'] ?? '').split(',').map((a) => a.trim()).filter(isActivity)) {
  routing().engine.prepare(activity);
}

export function directions(input: DirectionsInput): DirectionsOutput | TaskFailure {
  return routing().engine.directions(input);
}

export function directionsBatch(inputs: DirectionsInput[]): TaskMap['directionsBatch'][1] {
  const engine = routing().engine;
  return { ok: true, results: inputs.map((i) => engine.directions(i)) };
}

export function snapLine(input: SnapLineInput): SnapLineOutput | TaskFailure {
  return routing().engine.snapLine(input);
}

export function analyze(input: AnalyzeInput): AnalyzeOutput | TaskFailure {
  return routing().engine.analyze(input);
}

export function reachable(input: ReachableInput): ReachableOutput | TaskFailure {
  return routing().engine.reachable(input);
}

export function snap(input: SnapInput): SnapOutput | TaskFailure {
  return routing().engine.snap(input);
}

export function ping(): TaskMap['ping'][1] {
  return { ok: true, threadId, isMainThread, region: routing().source };
}
