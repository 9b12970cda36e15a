// GeoJSON positions text written in the worker: the same text JSON.stringify gives for the rounded values
// (7 decimals of a degree, 0.1 m of elevation), for any number the engine can produce; values below 1e-6 are
// written without an exponent.

import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../data/seeded-random.js';
import { positionsJson } from '../../workers/positions-json.js';

const rounded = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const expected = (flat: number[]) => {
  const out: number[][] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) out.push([rounded(flat[i]!, 7), rounded(flat[i + 1]!, 7), rounded(flat[i + 2]!, 1)]);
  return JSON.stringify(out);
};

describe('positionsJson', () => {
  it('writes what JSON.stringify writes for the rounded positions', () => {
    const random = seededRandom(7);
    const flat: number[] = [];
    for (let i = 0; i < 20_000; i++) flat.push((random() - 0.5) * 360, (random() - 0.5) * 180, (random() - 0.3) * 9000);
    expect(positionsJson(flat)).toBe(expected(flat));
  });

  it('handles whole numbers, zeros, negative zero, tiny values and trailing zeros', () => {
    const flat = [0, -0, 0, 1, -1, 2, -0.00000004, 0.00000005, -0.04, 9.5, 47.1000001, 1234.56, -180, 90, 8848.86];
    // The same numbers; below 1e-6 JSON.stringify writes an exponent (1e-7) where this writes 0.0000001.
    expect(JSON.parse(positionsJson(flat))).toEqual(JSON.parse(expected(flat)));
    expect(positionsJson(flat)).toBe('[[0,0,0],[1,-1,2],[0,0.0000001,0],[9.5,47.1000001,1234.6],[-180,90,8848.9]]');
  });

  it('writes an empty line as [] and grows for long lines', () => {
    expect(positionsJson([])).toBe('[]');
    const long = Array.from({ length: 300_000 }, (_, i) => (i % 3 === 2 ? 1000 + i / 7 : 9 + i / 1e6));
    expect(JSON.parse(positionsJson(long))).toHaveLength(100_000);
  });
});
