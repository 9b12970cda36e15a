import { describe, expect, it } from 'vitest';
import type { Access } from '../../../server/auth/access.js';
import { ApiError } from '../../../server/errors.js';
import { directionsOperation } from '../../../server/data-api/directions-operation.js';
import type { WorkerPool } from '../../../server/pool/pool.js';
import { Activity } from '../../../contracts/activity.js';
import { failure, type TaskFailure } from '../../../contracts/task-failure.js';

/** The directions operation over a pool whose every task answers `answer`. */
async function refusal(answer: TaskFailure): Promise<ApiError> {
  const pool = { runTask: async () => answer } as unknown as WorkerPool;
  const input = {
    activity: Activity.HIKING_AND_TRAIL,
    waypoints: [
      [1.5, 42.5],
      [1.6, 42.6],
      [1.7, 42.7],
    ],
  };
  const thrown = await directionsOperation({ pool })
    .run({ kind: 'none' } as Access, input, { origin: 'http://localhost', lang: 'en' })
    .catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(ApiError);
  return thrown as ApiError;
}

describe('directions failures', () => {
  it('answers an unroutable waypoint as unroutable, whatever its reason says', async () => {
    const error = await refusal(failure('unroutable', 'no route found near waypoint 2', ['input', 'waypoints', 1]));
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['waypoints', 1], messageKey: 'VALIDATION_FAILED.unroutable' }]);
  });

  it('answers a waypoint off the network as off the network, whatever its reason says', async () => {
    const error = await refusal(failure('off_network', 'waypoint 3 is 900 m from the closest way', ['input', 'waypoints', 2]));
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['waypoints', 2], messageKey: 'VALIDATION_FAILED.off_network' }]);
  });

  it('answers any other bad input with the plain validation sentence', async () => {
    const error = await refusal(failure('bad_input', 'no route profile is near this activity name', ['input', 'activity']));
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['activity'] }]);
  });

  it("answers the pool's own failures with their codes", async () => {
    expect(await refusal(failure('queue_full', 'worker queue is full'))).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(await refusal(failure('deadline', 'no route before the deadline'))).toMatchObject({ status: 504, code: 'GATEWAY_TIMEOUT' });
  });
});
