import { describe, expect, it } from 'vitest';
import { failureToError } from '../../../../server/studio/itineraries/chain-routing.js';
import { failure } from '../../../../contracts/task-failure.js';

const PATH = ['segments', 1, 'geometry'];
const START = ['start'];

describe('failureToError', () => {
  it('blames the start field for a line whose first point is off the network, whatever the reason says', () => {
    const error = failureToError(
      failure('off_network', 'the first point is 2 km from the closest way', ['input', 'coordinates', 0]),
      PATH,
      START,
    );
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: START, messageKey: 'VALIDATION_FAILED.start_off_network' }]);
  });

  it('says the chain ends off the network when no start field is named', () => {
    const error = failureToError(failure('off_network', 'the first point is 2 km from the closest way', ['input', 'coordinates', 0]), PATH);
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: PATH, messageKey: 'VALIDATION_FAILED.chain_end_off_network' }]);
  });

  it('says a later point off the network is off the network, at the line', () => {
    const error = failureToError(failure('off_network', 'the last point is far out', ['input', 'coordinates', 4]), PATH, START);
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: PATH, messageKey: 'VALIDATION_FAILED.off_network' }]);
  });

  it('answers an unroutable line as unroutable at the line even when its reason says "near"', () => {
    const error = failureToError(failure('unroutable', 'no route from near the first point', ['input', 'coordinates', 0]), PATH, START);
    expect(error.entries).toEqual([{ code: 'VALIDATION_FAILED', path: PATH, messageKey: 'VALIDATION_FAILED.unroutable' }]);
  });

  it('keeps the code of a failure that is not about the line', () => {
    expect(failureToError(failure('deadline', 'task aborted near its deadline'), PATH)).toMatchObject({
      status: 504,
      code: 'GATEWAY_TIMEOUT',
    });
  });
});
