// The directions operation (DESIGN §7), transport-free: routes through 2–50 waypoints for an activity on the
// worker pool (the engine's two-pass avoidance and its alternatives: workers/route-engine.ts). Its input schema
// (./data-inputs.ts) says how many waypoints and each position's range. Failure paths are relative to the
// input: ['waypoints', 2, 0].

import type { WorkerPool } from '../pool/pool.js';
import type { Activity, HazardName } from '../../contracts/activity.js';
import type { EncodedRoute } from '../../contracts/routing.js';
import type { TaskFailure, TaskFailureKind } from '../../contracts/task-failure.js';
import { taskError } from '../pool/task-error.js';
import { defineOperation, type Reach } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { DirectionsInput } from './data-inputs.js';

/** The Data API is reached with a publishable key and its session token, always (spec, Authentication 3). */
export const DATA_REACH: readonly Reach[] = ['session'];

export interface DirectionsRequest {
  activity: Activity;
  /** [longitude, latitude] pairs, degrees. */
  waypoints: readonly (readonly number[])[];
  avoid?: readonly HazardName[] | null;
  alternatives?: number | null;
}

export interface DirectionsResult {
  /** The best route first, then the alternatives found, cheapest first; lines as GeoJSON positions text. */
  routes: EncodedRoute[];
}

/** The sentence for each routing kind at the waypoint the worker blamed: off the network, or not connected. */
const ROUTING_MESSAGES: Partial<Record<TaskFailureKind, string>> = {
  off_network: 'VALIDATION_FAILED.off_network',
  unroutable: 'VALIDATION_FAILED.unroutable',
};

/** A directions failure as an API error, its sentence chosen by the failure's kind. */
function routingError(failure: TaskFailure): ApiError {
  return taskError(failure, ROUTING_MESSAGES[failure.kind]);
}

export function directionsOperation(deps: { pool: WorkerPool | undefined }) {
  return defineOperation({
    id: 'directions',
    scope: 'data',
    writes: false,
    reach: DATA_REACH,
    input: DirectionsInput,
    async run(_caller, input: DirectionsRequest, { signal }): Promise<DirectionsResult> {
      if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
      const result = await deps.pool.runTask(
        'directions',
        {
          activity: input.activity,
          waypoints: input.waypoints.map((p) => [p[0]!, p[1]!]),
          avoid: [...(input.avoid ?? [])],
          alternatives: input.alternatives ?? 0,
        },
        { signal },
      );
      if (!result.ok) throw routingError(result);
      return { routes: result.routes };
    },
  });
}
