import { describe, expect, it } from 'vitest';
import { decodeLine, decodeLineFlat, encodeLine } from '../../../data/model/line-blob.js';

describe('line blob', () => {
  it('round-trips positions with and without elevation as 24 bytes each', () => {
    const line: [number, number, number?][] = [
      [1.5, 42.5, 1200.25],
      [1.51, 42.51],
    ];
    const blob = encodeLine(line as never);
    expect(blob.byteLength).toBe(48);
    expect(decodeLine(blob)).toEqual([
      [1.5, 42.5, 1200.25],
      [1.51, 42.51],
    ]);
    expect(Array.from(decodeLineFlat(blob)).slice(0, 3)).toEqual([1.5, 42.5, 1200.25]);
  });
});
