// The one place a worker task's failure becomes an API error (one of the spec's sixteen codes), by its kind:
// a failure about the input is a VALIDATION_FAILED entry, any other kind answers with its code
// (FAILURE_CODES: the pool's `queue_full` SERVICE_UNAVAILABLE, `deadline` GATEWAY_TIMEOUT, `worker_failed`
// INTERNAL_ERROR). Never decided on the failure's `reason`, which is a sentence for logs.
import { ApiError, type ErrorPath } from '../errors.js';
import { FAILURE_CODES, type TaskFailure, type TaskFailureKind } from '../../contracts/task-failure.js';

/** The kinds that blame the task's input: a bad field, a point off the network, points no route joins. */
const INPUT_KINDS: ReadonlySet<TaskFailureKind> = new Set<TaskFailureKind>(['bad_input', 'off_network', 'unroutable', 'other_region']);

/** Whether the failure blames a field of the task's input (its path says which). */
export function aboutInput(failure: TaskFailure): boolean {
  return INPUT_KINDS.has(failure.kind);
}

/**
 * Where in the task's input the failure lies, as the worker said it (`['input', 'waypoints', 2]` →
 * `['waypoints', 2]`); empty when the worker named no field.
 */
export function taskInputPath(failure: TaskFailure): ErrorPath {
  const path = failure.path ?? [];
  return path[0] === 'input' ? path.slice(1) : path;
}

/**
 * The ApiError for a task failure. A failure about the input (no way near a point is a bad point, not a
 * missing resource) is one VALIDATION_FAILED entry at the worker's own input path, with `messageKey` when
 * given; the caller moves that path onto its own input (ApiError.withPaths).
 */
export function taskError(failure: TaskFailure, messageKey?: string): ApiError {
  // Points in regions that share no network: the same sentence wherever it happens, naming the regions.
  if (failure.kind === 'other_region') {
    return ApiError.validation([
      { path: taskInputPath(failure), messageKey: 'VALIDATION_FAILED.other_region', messageParams: failure.params },
    ]);
  }
  if (aboutInput(failure)) {
    return ApiError.validation([{ path: taskInputPath(failure), ...(messageKey === undefined ? {} : { messageKey }) }]);
  }
  return new ApiError(FAILURE_CODES[failure.kind]);
}
