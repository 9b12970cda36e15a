// The line-analysis tasks, called in-process on the demo region: freehand lines measured through the
// geometry kernels, a line split at the point nearest another, nearest points within a distance.

import { describe, expect, it } from 'vitest';
import { haversine } from '../../data/region/geo.js';
import { isGeometryFailure, lineLength, nearestOnLine } from '../../geo-wasm/src/geometry.js';
import { measureLines, nearestPoints, splitLine } from '../../workers/line-analysis.js';
import type { MeasureLinesOutput, SplitLineOutput } from '../../contracts/line-tasks.js';
import { Activity } from '../../contracts/activity.js';

/** A freehand line on the demo region: lon, lat, ele; a bend, a climb and a descent. */
const LINE = [1.56, 42.5, 1000, 1.561, 42.5005, 1010, 1.562, 42.501, 1020, 1.563, 42.5008, 1005];
const triples = (flat: readonly number[]) => Array.from({ length: flat.length / 3 }, (_, i) => flat.slice(i * 3, i * 3 + 3));
const kernelLength = (flat: readonly number[]) => {
  const m = lineLength(Float64Array.from(flat), 3);
  if (isGeometryFailure(m)) throw new Error(m.reason);
  return m;
};

function split(point: [number, number], coordinates = LINE): SplitLineOutput {
  const out = splitLine({ coordinates, point });
  if (!out.ok) throw new Error(out.reason);
  return out;
}

function measured(elevation: 'dem' | 'recorded', lines: number[][]): MeasureLinesOutput['lines'] {
  const out = measureLines({ activity: Activity.HIKING_AND_TRAIL, lines, elevation });
  if (!out.ok) throw new Error(out.reason);
  return out.lines;
}

describe('measureLines', () => {
  it('measures a line as drawn: the kernels’ length (the great-circle one within 1e-9), DEM elevations, a duration', () => {
    const [line] = measured('dem', [LINE]);
    expect(triples(line!.coordinates).map((p) => p.slice(0, 2))).toEqual(triples(LINE).map((p) => p.slice(0, 2)));
    expect(line!.distance).toBeCloseTo(kernelLength(LINE), 9);
    const greatCircle = triples(LINE).reduce(
      (sum, p, i, all) => (i === 0 ? 0 : sum + haversine(all[i - 1]![0]!, all[i - 1]![1]!, p[0]!, p[1]!)),
      0,
    );
    expect(Math.abs(line!.distance - greatCircle) / greatCircle).toBeLessThan(1e-9);
    expect(line!.duration).toBeGreaterThan(0);
    expect(line!.coordinates.filter((_, k) => k % 3 === 2).every(Number.isFinite)).toBe(true);
  });

  it('keeps recorded elevations when every point has one, and counts every rise and fall of them', () => {
    const [line] = measured('recorded', [LINE]);
    expect(line!.coordinates).toEqual(LINE);
    expect(line!.ascent).toBeCloseTo(20, 9);
    expect(line!.descent).toBeCloseTo(15, 9);
  });

  it('takes the DEM’s elevations for a line missing one, even when recorded ones are asked for', () => {
    const gappy = [...LINE];
    gappy[5] = Number.NaN;
    const [line] = measured('recorded', [gappy]);
    expect(line!.coordinates).toEqual(measured('dem', [LINE])[0]!.coordinates);
  });

  it('refuses a line of one point at that line', () => {
    expect(measureLines({ activity: Activity.WALKING, lines: [LINE, [1.56, 42.5, 0]], elevation: 'dem' })).toMatchObject({
      ok: false,
      path: ['input', 'lines', 1],
    });
  });
});

describe('splitLine', () => {
  it('cuts at the kernel’s nearest point: the parts meet there and keep every vertex, their measures add up', () => {
    const point: [number, number] = [1.5615, 42.5009];
    const out = split(point);
    const near = nearestOnLine(Float64Array.from(LINE), point[0], point[1], 3);
    if (isGeometryFailure(near)) throw new Error(near.reason);
    expect(out.at).toEqual([near.lon, near.lat, near.ele]);
    expect(triples(out.head)).toEqual([...triples(LINE).slice(0, near.segment + 1), out.at]);
    expect(triples(out.tail)).toEqual([out.at, ...triples(LINE).slice(near.segment + 1)]);
    expect(out.headMeasures.distance + out.tailMeasures.distance).toBeCloseTo(kernelLength(LINE), 6);
    expect(out.headMeasures.ascent + out.tailMeasures.ascent).toBeCloseTo(20, 9);
    expect(out.headMeasures.descent + out.tailMeasures.descent).toBeCloseTo(15, 9);
  });

  it('cuts at a vertex when that is the nearest point, reusing it exactly and repeating nothing', () => {
    const out = split([1.562 + 1e-5, 42.501 + 1e-4]);
    expect(out.at).toEqual([1.562, 42.501, 1020]);
    expect(triples(out.head)).toEqual(triples(LINE).slice(0, 3));
    expect(triples(out.tail)).toEqual(triples(LINE).slice(2));
  });

  it('gives an end of the line exactly for a point beyond it (the split at an end the operation refuses)', () => {
    expect(split([1.57, 42.5]).at).toEqual([1.563, 42.5008, 1005]);
    expect(split([1.55, 42.49]).at).toEqual([1.56, 42.5, 1000]);
  });

  it('keeps unknown elevations unknown', () => {
    const flat = [1.56, 42.5, Number.NaN, 1.561, 42.5, Number.NaN];
    const out = split([1.5605, 42.5001], flat);
    expect(out.at[2]).toBeNaN();
    expect(out.headMeasures).toMatchObject({ ascent: 0, descent: 0 });
  });

  it('refuses a line of one point at its input path', () => {
    expect(splitLine({ coordinates: LINE.slice(0, 3), point: [1.56, 42.5] })).toMatchObject({ ok: false, path: ['input', 'coordinates'] });
  });
});

describe('nearestPoints', () => {
  it('gives each point its nearest candidate within the distance (the first on ties), else -1', () => {
    const east = (m: number): [number, number] => [1.56 + m / (111_195 * Math.cos((42.5 * Math.PI) / 180)), 42.5];
    const out = nearestPoints({
      points: [east(0), east(100), east(1000)],
      candidates: [east(30), east(-30), east(110), east(60)],
      within: 50,
    });
    expect(out).toEqual({ ok: true, nearest: [0, 2, -1] });
  });
});
