// The geometry case table against the WASM wrapper (debug build) and the plain-TS twin, and seeded
// random lines on which both must agree.
import { describe, expect, it } from 'vitest';
import * as twin from '../../geo-wasm/reference/geometry.js';
import * as wasm from '../../geo-wasm/src/geometry.js';
import { wasmBuild } from '../../geo-wasm/src/load-wasm.js';
import type { DemGrid } from '../../data/region/dem-grid.js';
import { geometryCases } from './geometry.cases.js';
import { randomTrack, rng, toStride2 } from './random-lines.js';

wasm.initGeometry('debug');

describe('geometry kernels through the WASM wrapper (debug build)', () => {
  it('tests load the debug build, with assertions on', () => {
    expect(wasmBuild()).toBe('debug');
  });
  geometryCases(wasm);
});

describe('geometry kernels in the plain-TS twin', () => {
  geometryCases(twin);
});

// Tolerance WASM vs twin: 1e-12 relative (or 1e-9 absolute). Both run the same arithmetic in the same
// order and compute cos/sin with the same polynomial, so results are normally bit-equal; only the exact
// haversine used for segments longer than ~32 km calls Math.sin/Math.cos/Math.atan2, whose last bit can
// differ between V8 and AssemblyScript's libm.
function close(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= Math.max(1e-9, 1e-12 * Math.abs(b));
}
function expectClose(a: unknown, b: unknown, what: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    expect(close(a, b), `${what}: ${a} vs ${b}`).toBe(true);
  } else if (a instanceof Float64Array && b instanceof Float64Array) {
    expect(a.length, `${what}: length`).toBe(b.length);
    const bad = a.findIndex((v, i) => !close(v, b[i] as number));
    expect(bad, `${what}: first difference at ${bad}: ${a[bad]} vs ${b[bad]}`).toBe(-1);
  } else if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    for (const key of Object.keys(b))
      expectClose((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${what}.${key}`);
  } else {
    expect(a, what).toEqual(b);
  }
}

/** A line of one of several kinds: hiking track, long steps, near a pole, across the antimeridian, repeated vertices. */
function randomLine(r: () => number, kind: number): Float64Array {
  const n = 1 + Math.floor(r() * 400);
  switch (kind % 5) {
    case 0:
      return randomTrack(r, n, r() * 360 - 180, (r() * 2 - 1) * 60);
    case 1:
      return randomTrack(r, n, r() * 360 - 180, (r() * 2 - 1) * 60, 1_000, 200_000);
    case 2:
      return randomTrack(r, n, r() * 360 - 180, 80 + r() * 8, 5, 5_000);
    case 3:
      return randomTrack(r, n, 179.9, (r() * 2 - 1) * 50, 10, 2_000);
    default: {
      const c = randomTrack(r, n, r() * 10, 45, 0, 20);
      for (let i = 3; i + 5 < c.length; i += 9) c.copyWithin(i, i - 3, i); // every third vertex repeats the previous
      return c;
    }
  }
}

describe('WASM and twin agree on seeded random lines', () => {
  const r = rng(20261122);
  const grid: DemGrid = (() => {
    const cols = 401;
    const rows = 301;
    const samples = new Int16Array(cols * rows);
    for (let i = 0; i < samples.length; i++) samples[i] = r() < 0.02 ? -32768 : Math.round(1000 + r() * 50 + (i % cols));
    return { west: -0.01, north: 45.3, cellDeg: 1 / 1200, cols, rows, samples };
  })();

  for (let k = 0; k < 150; k++) {
    const c3 = randomLine(r, k);
    const c2 = toStride2(c3);
    const n = c2.length / 2;
    const length = twin.lineLength(c2) as number;
    const d = r() * length * 1.1;
    const d0 = r() * length;
    const d1 = d0 + r() * (length - d0) * 1.2;
    const tol = [0, 1, 5, 50, 5_000][k % 5] as number;
    const p = [(c2[0] as number) + (r() - 0.5) * 0.05, Math.max(-89, Math.min(89, (c2[1] as number) + (r() - 0.5) * 0.05))] as const;
    it(`line ${k} (${n} vertices, kind ${k % 5}) gives the same answers in both`, () => {
      for (const [c, stride] of [
        [c2, 2],
        [c3, 3],
      ] as const) {
        expectClose(wasm.lineLength(c, stride), twin.lineLength(c, stride), 'length');
        expectClose(wasm.cumulativeDistances(c, stride), twin.cumulativeDistances(c, stride), 'cumulative');
        expectClose(wasm.along(c, d, stride), twin.along(c, d, stride), 'along');
        expectClose(wasm.sliceLine(c, d0, d1, stride), twin.sliceLine(c, d0, d1, stride), 'slice');
        expect(wasm.simplifyLine(c, tol, stride), 'simplify').toEqual(twin.simplifyLine(c, tol, stride));
        expectClose(wasm.nearestOnLine(c, p[0], p[1], stride), twin.nearestOnLine(c, p[0], p[1], stride), 'nearest');
        expectClose(wasm.sampleDem(grid, c, stride), twin.sampleDem(grid, c, stride), 'dem');
      }
      const opts = { windowMetres: [0, 50, 100, 400][k % 4] as number, thresholdMetres: [0, 1, 3, 10][(k >> 2) % 4] as number };
      expectClose(wasm.lineGain(c3, opts), twin.lineGain(c3, opts), 'lineGain');
    });
  }

  it('memory grows for a large line and later small calls still agree', () => {
    const big = randomTrack(rng(5), 200_000, 7, 46);
    expectClose(wasm.lineLength(big, 3), twin.lineLength(big, 3), 'big length');
    expectClose(wasm.simplifyLine(big, 2, 3), twin.simplifyLine(big, 2, 3), 'big simplify');
    const small = new Float64Array([0, 0, 0.001, 0]);
    expectClose(wasm.lineLength(small), twin.lineLength(small), 'small length');
  });
});
