// Task names, inputs and outputs of the worker pool, shared by workers/ and server/.
import type { Activity, HazardName } from './profiles.js';

export type { Activity, HazardName } from './profiles.js';

/** Failure codes a task or the pool returns (a subset of the spec's sixteen). */
export type TaskFailureCode = 'VALIDATION_FAILED' | 'NOT_FOUND' | 'SERVICE_UNAVAILABLE' | 'GATEWAY_TIMEOUT' | 'INTERNAL_ERROR';

/** An expected failure, returned as a value (never thrown across the worker boundary). */
export interface TaskFailure {
  ok: false;
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

export interface DirectionsInput {
  activity: Activity;
  waypoints: LonLat[];
  avoid?: HazardName[];
}
export interface DirectionsOutput {
  ok: true;
  routes: RouteResult[];
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
  analysis: MeasuredLine & { matchedFraction: number };
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

/** What each task takes and gives (name → [input, output]); the pool's runTask is typed by it. */
export interface TaskMap {
  directions: [DirectionsInput, DirectionsOutput];
  snapLine: [SnapLineInput, SnapLineOutput];
  analyze: [AnalyzeInput, AnalyzeOutput];
  reachable: [ReachableInput, ReachableOutput];
  snap: [SnapInput, SnapOutput];
  /** Several directions queries in one task (amortises the dispatch cost). */
  directionsBatch: [DirectionsInput[], { ok: true; results: (DirectionsOutput | TaskFailure)[] }];
  /** Reports which thread ran the task (tests and health checks). */
  ping: [Record<string, never>, { ok: true; threadId: number; isMainThread: boolean; region: string }];
}
export type TaskName = keyof TaskMap;
export type TaskInput<N extends TaskName> = TaskMap[N][0];
export type TaskOutput<N extends TaskName> = TaskMap[N][1] | TaskFailure;

/** The task module (compiled path relative to the pool) holding each task. */
export const TASK_FILES: Readonly<Record<TaskName, string>> = {
  directions: 'routing.js',
  snapLine: 'routing.js',
  analyze: 'routing.js',
  reachable: 'routing.js',
  snap: 'routing.js',
  directionsBatch: 'routing.js',
  ping: 'routing.js',
};

export function failure(code: TaskFailureCode, reason: string, path?: (string | number)[]): TaskFailure {
  return path ? { ok: false, code, reason, path } : { ok: false, code, reason };
}
