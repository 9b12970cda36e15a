// One case table for the geometry kernels, run against the WASM wrapper and the plain-TS twin.
import { expect, it } from 'vitest';
import type { DemGrid } from '../../data/region/dem-grid.js';
import type * as Wrapper from '../../geo-wasm/src/geometry.js';

/** The functions both implementations export with the same signatures. */
export type GeometryApi = Pick<
  typeof Wrapper,
  | 'lineLength'
  | 'cumulativeDistances'
  | 'along'
  | 'sliceLine'
  | 'simplifyLine'
  | 'nearestOnLine'
  | 'nearestOnSegment'
  | 'sampleDem'
  | 'elevationGain'
  | 'lineGain'
>;

const M_PER_DEG = 6371008.8 * (Math.PI / 180); // one degree of latitude, and of longitude at the equator

function ok<T>(value: T | Wrapper.GeometryFailure): T {
  if (typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false) {
    throw new Error(`unexpected failure ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** A 3x3 grid, 1 degree cells, west 0, north 2: values rise 10 m per column and 100 m per row south. */
function grid(voidAt: number[] = []): DemGrid {
  const samples = new Int16Array([0, 10, 20, 100, 110, 120, 200, 210, 220]);
  for (const i of voidAt) samples[i] = -32768;
  return { west: 0, north: 2, cellDeg: 1, cols: 3, rows: 3, samples };
}

export function geometryCases(api: GeometryApi): void {
  it('a line along the equator of 0.01° is 1,111.95 m long', () => {
    expect(ok(api.lineLength(new Float64Array([0, 0, 0.01, 0])))).toBeCloseTo(0.01 * M_PER_DEG, 6);
  });

  it('an empty or one-vertex line has length 0', () => {
    expect(api.lineLength(new Float64Array([]))).toBe(0);
    expect(api.lineLength(new Float64Array([3, 4]))).toBe(0);
  });

  it('stride 3 ignores elevation when measuring length', () => {
    const flat = ok(api.lineLength(new Float64Array([1, 45, 1.001, 45.001, 1.002, 45])));
    const withEle = ok(api.lineLength(new Float64Array([1, 45, 100, 1.001, 45.001, 900, 1.002, 45, 5]), 3));
    expect(withEle).toBe(flat);
  });

  it('a stride other than 2 or 3 fails with bad-stride', () => {
    expect(api.lineLength(new Float64Array([0, 0, 1, 1]), 4 as 2)).toMatchObject({ ok: false, reason: 'bad-stride' });
  });

  it('coordinates whose count is not a multiple of the stride fail with bad-argument', () => {
    expect(api.lineLength(new Float64Array([0, 0, 1]))).toMatchObject({ ok: false, reason: 'bad-argument' });
  });

  it('cumulative distances start at 0 and end at the line length', () => {
    const c = new Float64Array([0, 0, 0.001, 0, 0.001, 0.002, 0.003, 0.002]);
    const cum = ok(api.cumulativeDistances(c));
    expect(cum[0]).toBe(0);
    expect(cum[1]).toBeCloseTo(0.001 * M_PER_DEG, 6);
    expect(cum[2]).toBeCloseTo(0.003 * M_PER_DEG, 6);
    expect(cum[3]).toBe(ok(api.lineLength(c)));
  });

  it('cumulative distances of an empty line fail with too-few-vertices', () => {
    expect(api.cumulativeDistances(new Float64Array([]))).toMatchObject({ ok: false, reason: 'too-few-vertices' });
  });

  it('along finds the point at a distance inside the right segment', () => {
    const c = new Float64Array([0, 0, 0.001, 0, 0.001, 0.001]);
    const p = ok(api.along(c, 1.5 * 0.001 * M_PER_DEG));
    expect(p.segment).toBe(1);
    expect(p.fraction).toBeCloseTo(0.5, 9);
    expect(p.lon).toBeCloseTo(0.001, 12);
    expect(p.lat).toBeCloseTo(0.0005, 9);
    expect(p.ele).toBeNaN();
  });

  it('along clamps to the ends and interpolates elevation with stride 3', () => {
    const c = new Float64Array([0, 0, 100, 0.001, 0, 200]);
    expect(ok(api.along(c, -5, 3))).toMatchObject({ lon: 0, lat: 0, ele: 100, segment: 0, fraction: 0 });
    expect(ok(api.along(c, 1e9, 3))).toMatchObject({ lon: 0.001, lat: 0, ele: 200, segment: 0, fraction: 1 });
    expect(ok(api.along(c, 0.25 * 0.001 * M_PER_DEG, 3)).ele).toBeCloseTo(125, 6);
  });

  it('along with a NaN distance fails with bad-argument', () => {
    expect(api.along(new Float64Array([0, 0, 1, 1]), Number.NaN)).toMatchObject({ ok: false, reason: 'bad-argument' });
  });

  it('slice cuts both ends and keeps the vertices between', () => {
    const c = new Float64Array([0, 0, 0.001, 0, 0.002, 0, 0.003, 0]);
    const s = ok(api.sliceLine(c, 0.5 * 0.001 * M_PER_DEG, 2.5 * 0.001 * M_PER_DEG));
    expect(s.length).toBe(8);
    expect(Array.from(s).map((v) => Math.round(v * 1e7) / 1e7)).toEqual([0.0005, 0, 0.001, 0, 0.002, 0, 0.0025, 0]);
  });

  it('slice does not repeat a vertex that sits exactly on a cut', () => {
    const c = new Float64Array([0, 0, 0.001, 0, 0.002, 0]);
    const cum = ok(api.cumulativeDistances(c));
    const s = ok(api.sliceLine(c, cum[1] as number, 1e9));
    expect(Array.from(s)).toEqual([0.001, 0, 0.002, 0]);
  });

  it('slice past the end is a two-vertex line on the last vertex', () => {
    expect(Array.from(ok(api.sliceLine(new Float64Array([0, 0, 0.001, 0]), 1e6, 2e6)))).toEqual([0.001, 0, 0.001, 0]);
  });

  it('slice with from after to fails with bad-argument', () => {
    expect(api.sliceLine(new Float64Array([0, 0, 1, 0]), 10, 5)).toMatchObject({ ok: false, reason: 'bad-argument' });
  });

  it('simplify drops a vertex closer than the tolerance and keeps one farther', () => {
    // The middle vertex is 5 m off the chord.
    const off = 5 / M_PER_DEG;
    const c = new Float64Array([0, 0, 0.001, off, 0.002, 0]);
    expect(Array.from(ok(api.simplifyLine(c, 6)))).toEqual([0, 0, 0.002, 0]);
    expect(Array.from(ok(api.simplifyLine(c, 4)))).toEqual(Array.from(c));
  });

  it('simplify keeps first and last and the elevation of kept vertices', () => {
    const c = new Float64Array([0, 0, 1, 0.001, 0, 2, 0.002, 0, 3, 0.003, 0, 4]);
    expect(Array.from(ok(api.simplifyLine(c, 1, 3)))).toEqual([0, 0, 1, 0.003, 0, 4]);
  });

  it('simplify with a negative tolerance fails with bad-argument', () => {
    expect(api.simplifyLine(new Float64Array([0, 0, 1, 1, 2, 2]), -1)).toMatchObject({ ok: false, reason: 'bad-argument' });
  });

  it('the nearest point of a segment is its perpendicular foot', () => {
    const p = ok(api.nearestOnSegment(0, 0, 0.002, 0, 0.0005, 0.001));
    expect(p.distance).toBeCloseTo(0.001 * M_PER_DEG, 3);
    expect(p.lon).toBeCloseTo(0.0005, 9);
    expect(p.lat).toBe(0);
    expect(p.fraction).toBeCloseTo(0.25, 9);
  });

  it('a point beyond the end of a line is nearest to its last vertex', () => {
    const p = ok(api.nearestOnLine(new Float64Array([0, 0, 0.001, 0, 0.002, 0]), 0.003, 0));
    expect(p).toMatchObject({ segment: 1, fraction: 1, lon: 0.002, lat: 0 });
    expect(p.distance).toBeCloseTo(0.001 * M_PER_DEG, 3);
  });

  it('the nearest segment of a zigzag is the first of two at equal distance', () => {
    const c = new Float64Array([0, 0, 0.001, 0.001, 0.002, 0, 0.003, 0.001, 0.004, 0]);
    expect(ok(api.nearestOnLine(c, 0.001, 0.0015)).segment).toBe(0);
  });

  it('nearest works across the antimeridian', () => {
    const p = ok(api.nearestOnLine(new Float64Array([179.999, 0, -179.999, 0]), 180, 0.001));
    expect(p.distance).toBeCloseTo(0.001 * M_PER_DEG, 2);
  });

  it('nearest to an empty line fails with too-few-vertices', () => {
    expect(api.nearestOnLine(new Float64Array([]), 0, 0)).toMatchObject({ ok: false, reason: 'too-few-vertices' });
  });

  it('DEM sampling returns grid values on posts and bilinear values between', () => {
    const e = ok(api.sampleDem(grid(), new Float64Array([0, 2, 2, 0, 1, 1, 0.5, 1.5, 1.5, 0.5, 1.25, 1.5])));
    expect(Array.from(e)).toEqual([0, 220, 110, 55, 165, 62.5]);
  });

  it('DEM sampling is NaN outside the grid', () => {
    const e = ok(api.sampleDem(grid(), new Float64Array([-0.1, 1, 1, 2.1, 2.0001, 1])));
    expect(Array.from(e).every(Number.isNaN)).toBe(true);
  });

  it('DEM sampling leaves void posts out and renormalises the others', () => {
    // Post (row 1, col 1) = 110 is void: the other three corners of the cell (0, 10, 100) share its weight.
    const e = ok(api.sampleDem(grid([4]), new Float64Array([0.5, 1.5, 1, 1])));
    expect(e[0]).toBeCloseTo((0 + 10 + 100) / 3, 9);
    expect(e[1]).toBeNaN(); // exactly on the void post: the only sample with weight is void
  });

  it('DEM sampling with stride 3 reads lon and lat only', () => {
    expect(Array.from(ok(api.sampleDem(grid(), new Float64Array([1, 1, 9999]), 3)))).toEqual([110]);
  });

  it('a DEM grid smaller than 2x2 fails with bad-grid', () => {
    const g: DemGrid = { west: 0, north: 0, cellDeg: 1, cols: 1, rows: 1, samples: new Int16Array(1) };
    expect(api.sampleDem(g, new Float64Array([0, 0]))).toMatchObject({ ok: false, reason: 'bad-grid' });
  });

  it('ascent without smoothing counts every rise above the threshold, trough to peak', () => {
    const ele = new Float64Array([100, 102, 110, 108, 120, 90, 95]);
    const dist = new Float64Array([0, 10, 20, 30, 40, 50, 60]);
    // Threshold 3: 100 -> 120 (the 2 m dip is ignored), 120 -> 90, 90 -> 95.
    expect(ok(api.elevationGain(ele, dist, { windowMetres: 0, thresholdMetres: 3 }))).toEqual({ ascent: 25, descent: 30, samples: 7 });
    // Threshold 0 counts the dip too.
    expect(ok(api.elevationGain(ele, dist, { windowMetres: 0, thresholdMetres: 0 }))).toEqual({ ascent: 27, descent: 32, samples: 7 });
  });

  it('ascent skips NaN elevations', () => {
    const r = ok(api.elevationGain(new Float64Array([100, Number.NaN, 150]), new Float64Array([0, 50, 100]), { windowMetres: 0 }));
    expect(r).toEqual({ ascent: 50, descent: 0, samples: 2 });
  });

  it('the distance window averages out a one-sample spike', () => {
    const ele = new Float64Array(21).fill(100);
    ele[10] = 120;
    const dist = Float64Array.from({ length: 21 }, (_, i) => i * 10);
    expect(ok(api.elevationGain(ele, dist, { windowMetres: 0, thresholdMetres: 3 })).ascent).toBe(20);
    // Over a 100 m window the 20 m spike (20 m wide at its base) becomes a 2 m bump, under the threshold.
    expect(ok(api.elevationGain(ele, dist, { windowMetres: 100, thresholdMetres: 3 })).ascent).toBe(0);
  });

  it('ascent on a steady climb keeps the full climb', () => {
    const dist = Float64Array.from({ length: 101 }, (_, i) => i * 20);
    const ele = Float64Array.from(dist, (d) => 1000 + d * 0.1);
    const r = ok(api.elevationGain(ele, dist));
    expect(r.ascent).toBeCloseTo(200, 6);
    expect(r.descent).toBe(0);
  });

  it('ascent with decreasing distances fails with bad-argument', () => {
    expect(api.elevationGain(new Float64Array([1, 2]), new Float64Array([5, 4]))).toMatchObject({ ok: false, reason: 'bad-argument' });
  });

  it('line gain measures distances on the line itself', () => {
    const c = new Float64Array([0, 0, 100, 0.001, 0, 150, 0.002, 0, 120]);
    expect(ok(api.lineGain(c, { windowMetres: 0, thresholdMetres: 0 }))).toEqual({ ascent: 50, descent: 30, samples: 3 });
  });
}
