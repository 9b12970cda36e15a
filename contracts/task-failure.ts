// How a worker task reports an expected failure: a value with a kind callers branch on, shared by the
// worker threads that return it and the main thread that turns it into an API error.

/** Failure codes a task or the pool returns (a subset of the spec's sixteen). */
export type TaskFailureCode = 'VALIDATION_FAILED' | 'NOT_FOUND' | 'SERVICE_UNAVAILABLE' | 'GATEWAY_TIMEOUT' | 'INTERNAL_ERROR';

/**
 * What went wrong, as callers decide on it (a closed set):
 * - `bad_input`: a field of the input is not acceptable (range, shape, unknown name);
 * - `off_network`: a point is not near any way the activity may use (the path names it);
 * - `unroutable`: the points are on the network but no route joins them;
 * - `other_region`: the points lie in served regions that share no network (`params` names them: here, there);
 * - `not_found`: the input is fine and nothing answers it (no route idea avoids the hazards);
 * - `queue_full`: the pool's queue is full; `deadline`: the task was aborted or passed its deadline;
 * - `worker_failed`: the task threw or its worker died (a bug, reported by the pool);
 * - `region_not_held`: the task named by key a region its worker does not hold (the region's tasks send it again with
 *   the whole reference: never an answer).
 */
export type TaskFailureKind =
  | 'bad_input'
  | 'off_network'
  | 'unroutable'
  | 'other_region'
  | 'not_found'
  | 'queue_full'
  | 'deadline'
  | 'worker_failed'
  | 'region_not_held';

/** The code each kind answers with: a failure's code follows from its kind. */
export const FAILURE_CODES = {
  bad_input: 'VALIDATION_FAILED',
  off_network: 'VALIDATION_FAILED',
  unroutable: 'VALIDATION_FAILED',
  other_region: 'VALIDATION_FAILED',
  not_found: 'NOT_FOUND',
  queue_full: 'SERVICE_UNAVAILABLE',
  deadline: 'GATEWAY_TIMEOUT',
  worker_failed: 'INTERNAL_ERROR',
  region_not_held: 'SERVICE_UNAVAILABLE',
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
  /** Values of the sentence the failure is told with (`other_region`: the regions). */
  params?: Record<string, string | number>;
}

/** A failure value of `kind` (its code from FAILURE_CODES), with a sentence for logs and the input path at fault. */
export function failure(
  kind: TaskFailureKind,
  reason: string,
  path?: (string | number)[],
  params?: Record<string, string | number>,
): TaskFailure {
  const code = FAILURE_CODES[kind];
  return { ok: false, kind, code, reason, ...(path ? { path } : {}), ...(params ? { params } : {}) };
}
