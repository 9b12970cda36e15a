// Plausibility of the default ascent smoothing on an SRTM3-like grid, through DEM sampling and lineGain.
import { describe, expect, it } from 'vitest';
import type { DemGrid } from '../../data/region/dem-grid.js';
import * as wasm from '../../geo-wasm/src/geometry.js';
import { rng } from './random-lines.js';

wasm.initGeometry('debug');

const LAT0 = 42.5;
const LON0 = 1.5;
const M_LAT = 111_195;
const M_LON = M_LAT * Math.cos(LAT0 * (Math.PI / 180));

/** Smooth mountain terrain in metres: 400 m hills 10 km across, plus 60 m ridges about 2 km across. */
function terrain(lon: number, lat: number): number {
  const x = (lon - LON0) * M_LON;
  const y = (lat - LAT0) * M_LAT;
  return 1500 + 400 * Math.sin(x / 1500) * Math.cos(y / 1100) + 60 * Math.sin(x / 350 + y / 260);
}

/** The terrain on SRTM3 posts (3", 1 m integers) with noise of about ±noise m and a shift of up to 30 m. */
function srtm3Like(r: () => number, noise: number): DemGrid {
  const cellDeg = 1 / 1200;
  const cols = 200;
  const rows = 200;
  const west = LON0 - 0.05;
  const north = LAT0 + 0.05;
  const dx = ((r() - 0.5) * 60) / M_LON;
  const dy = ((r() - 0.5) * 60) / M_LAT;
  const samples = new Int16Array(cols * rows);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const e = (r() + r() + r() - 1.5) * 2 * noise;
      samples[row * cols + col] = Math.round(terrain(west + col * cellDeg + dx, north - row * cellDeg + dy) + e);
    }
  }
  return { west, north, cellDeg, cols, rows, samples };
}

/** An 8 km wandering hiking track, vertices 5-15 m apart, and the ascent of the true terrain along it. */
function track(r: () => number): { c2: Float64Array; truth: number } {
  const n = 800;
  const c2 = new Float64Array(n * 2);
  let lon = LON0 - 0.02;
  let lat = LAT0 - 0.02;
  let heading = 0.8;
  for (let i = 0; i < n; i++) {
    c2[i * 2] = lon;
    c2[i * 2 + 1] = lat;
    heading += (r() - 0.5) * 0.5;
    const step = 5 + r() * 10;
    lon = Math.min(Math.max(lon + (Math.cos(heading) * step) / M_LON, LON0 - 0.04), LON0 + 0.1);
    lat = Math.min(Math.max(lat + (Math.sin(heading) * step) / M_LAT, LAT0 - 0.1), LAT0 + 0.04);
  }
  let truth = 0;
  let prev = terrain(c2[0] as number, c2[1] as number);
  for (let i = 0; i < n - 1; i++) {
    for (let s = 1; s <= 20; s++) {
      const f = s / 20;
      const lo = (c2[i * 2] as number) + ((c2[i * 2 + 2] as number) - (c2[i * 2] as number)) * f;
      const la = (c2[i * 2 + 1] as number) + ((c2[i * 2 + 3] as number) - (c2[i * 2 + 1] as number)) * f;
      const e = terrain(lo, la);
      if (e > prev) truth += e - prev;
      prev = e;
    }
  }
  return { c2, truth };
}

describe('ascent of a hiking track on an SRTM3-like grid', () => {
  for (const seed of [1, 2, 3]) {
    it(`the default smoothing lands within 5% of the true ascent, closer than raw samples (seed ${seed})`, () => {
      const r = rng(seed * 10 + 6);
      const grid = srtm3Like(r, 6);
      const { c2, truth } = track(r);
      const ele = wasm.sampleDem(grid, c2);
      if (wasm.isGeometryFailure(ele)) throw new Error(ele.reason);
      const n = c2.length / 2;
      const c3 = new Float64Array(n * 3);
      for (let i = 0; i < n; i++) {
        c3[i * 3] = c2[i * 2] as number;
        c3[i * 3 + 1] = c2[i * 2 + 1] as number;
        c3[i * 3 + 2] = ele[i] as number;
      }
      const smoothed = wasm.lineGain(c3);
      const raw = wasm.lineGain(c3, { windowMetres: 0, thresholdMetres: 0 });
      if (wasm.isGeometryFailure(smoothed) || wasm.isGeometryFailure(raw)) throw new Error('gain failed');
      expect(Math.abs(smoothed.ascent / truth - 1)).toBeLessThan(0.05);
      expect(Math.abs(raw.ascent / truth - 1)).toBeGreaterThan(Math.abs(smoothed.ascent / truth - 1));
      // Net change is kept: ascent - descent equals the change between the end elevations within the threshold.
      expect(Math.abs(smoothed.ascent - smoothed.descent - ((ele[n - 1] as number) - (ele[0] as number)))).toBeLessThanOrEqual(3);
    });
  }
});
