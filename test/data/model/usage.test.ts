import { describe, expect, it } from 'vitest';
import { minuteOf } from '../../../data/model/usage.js';

describe('usage model', () => {
  it('minuteOf is the floor of epoch milliseconds over 60000', () => {
    expect(minuteOf(0)).toBe(0);
    expect(minuteOf(59_999)).toBe(0);
    expect(minuteOf(60_000)).toBe(1);
  });
});
