// The one place a worker task's failure becomes an API error (one of the spec's sixteen codes). The pool
// (pool.ts) already returns its own failures as values: a full queue SERVICE_UNAVAILABLE, an abort or a
// passed deadline GATEWAY_TIMEOUT, a task that threw or a worker that died INTERNAL_ERROR.
import { ApiError, type ErrorPath } from '../server/errors.js';
import type { TaskFailure } from './protocol.js';

/**
 * Where in the task's input the failure lies, as the worker said it (`['input', 'waypoints', 2]` →
 * `['waypoints', 2]`); empty when the worker named no field.
 */
export function taskInputPath(failure: TaskFailure): ErrorPath {
  const path = failure.path ?? [];
  return path[0] === 'input' ? path.slice(1) : path;
}

/**
 * The ApiError for a task failure. A failure about the input (VALIDATION_FAILED, NOT_FOUND: no way near a
 * point is a bad point, not a missing resource) is one VALIDATION_FAILED entry at the worker's own input
 * path, with `messageKey` when given; the caller moves that path onto its own input (ApiError.withPaths).
 */
export function taskError(failure: TaskFailure, messageKey?: string): ApiError {
  switch (failure.code) {
    case 'VALIDATION_FAILED':
    case 'NOT_FOUND':
      return ApiError.validation([{ path: taskInputPath(failure), ...(messageKey === undefined ? {} : { messageKey }) }]);
    case 'SERVICE_UNAVAILABLE':
      return new ApiError('SERVICE_UNAVAILABLE');
    case 'GATEWAY_TIMEOUT':
      return new ApiError('GATEWAY_TIMEOUT');
    default:
      return new ApiError('INTERNAL_ERROR');
  }
}
