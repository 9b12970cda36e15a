import { describe, expect, it } from 'vitest';
import { failure } from '../../../contracts/task-failure.js';
import { taskError, taskInputPath } from '../../../server/pool/task-error.js';

describe('taskError', () => {
  it('makes a failure about the input one VALIDATION_FAILED entry at the worker’s input path, without its `input` root', () => {
    const error = taskError(failure('unroutable', 'no route to waypoint 3', ['input', 'waypoints', 2]));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['waypoints', 2] }]);
  });

  it('treats a point the worker found nothing near (off_network) as a bad input, with the message key given', () => {
    const error = taskError(failure('off_network', 'no way near this point', ['input', 'point']), 'VALIDATION_FAILED.off_network');
    expect(error.status).toBe(400);
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: ['point'], messageKey: 'VALIDATION_FAILED.off_network' }]);
  });

  it('keeps the path for the caller to move onto its own input', () => {
    const error = taskError(failure('bad_input', 'not a [longitude, latitude] pair', ['input', 'lines', 1, 6])).withPaths((p) => [
      'file',
      ...p,
    ]);
    expect(error.entries[0]?.path).toEqual(['file', 'lines', 1, 6]);
    expect(taskInputPath(failure('bad_input', 'bad'))).toEqual([]);
  });

  it('answers the pool’s own failures with their codes and no path', () => {
    expect(taskError(failure('queue_full', 'worker queue is full'))).toMatchObject({
      status: 503,
      entries: [{ code: 'SERVICE_UNAVAILABLE' }],
    });
    expect(taskError(failure('deadline', 'task aborted or past its deadline'))).toMatchObject({
      status: 504,
      entries: [{ code: 'GATEWAY_TIMEOUT' }],
    });
    expect(taskError(failure('worker_failed', 'the worker failed'))).toMatchObject({ status: 500, entries: [{ code: 'INTERNAL_ERROR' }] });
  });
});
