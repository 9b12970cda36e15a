// The geometry kernels (WASM wrapper) against @turf/turf on length, simplification and point-to-line distance.
import * as turf from '@turf/turf';
import { describe, expect, it } from 'vitest';
import * as wasm from '../../geo-wasm/src/geometry.js';
import { positions, randomTrack, rng, toStride2 } from './random-lines.js';

wasm.initGeometry('debug');

const M_PER_DEG = 6371008.8 * (Math.PI / 180);

function ok<T>(value: T | wasm.GeometryFailure): T {
  if (wasm.isGeometryFailure(value)) throw new Error(`unexpected failure ${value.reason}`);
  return value;
}

describe('agreement with @turf/turf', () => {
  it('line length is within 0.1% of turf.length on 200 tracks up to 80° latitude', () => {
    const r = rng(1);
    let worst = 0;
    for (let k = 0; k < 200; k++) {
      const maxStep = [30, 3_000, 300_000][k % 3] as number;
      const c = toStride2(randomTrack(r, 2 + Math.floor(r() * 300), r() * 360 - 180, (r() * 2 - 1) * 80, 1, maxStep));
      const ours = ok(wasm.lineLength(c));
      const theirs = turf.length(turf.lineString(positions(c)), { units: 'meters' });
      worst = Math.max(worst, Math.abs(ours - theirs) / theirs);
    }
    expect(worst).toBeLessThan(1e-3);
  });

  it('segment length keeps the documented local-projection bound (3e-6 relative) against the haversine', () => {
    const r = rng(2);
    let worst = 0;
    for (let k = 0; k < 20_000; k++) {
      const lat = (r() * 2 - 1) * 85;
      const lon = r() * 360 - 180;
      // Up to 0.28°, i.e. up to the 0.005 rad limit of the fast path.
      const span = 0.28 * r() ** 3;
      const k0 = Math.max(Math.cos(lat * (Math.PI / 180)), 0.05);
      const a = [lon, lat];
      const b = [lon + ((r() * 2 - 1) * span) / k0, lat + (r() * 2 - 1) * span];
      const ours = ok(wasm.lineLength(new Float64Array([...a, ...b] as number[])));
      const theirs = turf.distance(a, b, { units: 'meters' });
      if (theirs > 0) worst = Math.max(worst, Math.abs(ours - theirs) / theirs);
    }
    expect(worst).toBeLessThan(3e-6);
  });

  it('simplify keeps exactly the vertices turf.simplify (high quality) keeps, on the equator', () => {
    // On the equator one degree is the same length both ways, so turf's degree tolerance is tol / M_PER_DEG
    // and both run the same Douglas–Peucker: the outcome is unambiguous.
    const r = rng(3);
    for (let k = 0; k < 60; k++) {
      const c = toStride2(randomTrack(r, 50 + Math.floor(r() * 1500), r() * 20, (r() - 0.5) * 0.002));
      const tol = [1, 5, 20][k % 3] as number;
      const ours = ok(wasm.simplifyLine(c, tol));
      const theirs = turf.simplify(turf.lineString(positions(c)), { tolerance: tol / M_PER_DEG, highQuality: true });
      expect(positions(ours), `line ${k}`).toEqual(theirs.geometry.coordinates);
    }
  });

  it('simplify leaves every dropped vertex within the tolerance of the result (turf.pointToLineDistance, 0.1%)', () => {
    const r = rng(4);
    for (let k = 0; k < 8; k++) {
      const c = toStride2(randomTrack(r, 300, r() * 360 - 180, (r() * 2 - 1) * 70));
      const tol = 10;
      const kept = turf.lineString(positions(ok(wasm.simplifyLine(c, tol))));
      let worst = 0;
      for (const p of positions(c)) worst = Math.max(worst, turf.pointToLineDistance(p, kept, { units: 'meters' }));
      expect(worst, `line ${k}`).toBeLessThanOrEqual(tol * 1.001);
    }
  });

  it('point-to-line distance is within 0.1% of turf.pointToLineDistance up to 80° latitude', () => {
    const r = rng(5);
    let worst = 0;
    for (let k = 0; k < 300; k++) {
      const lat = (r() * 2 - 1) * 80;
      const c = toStride2(randomTrack(r, 2 + Math.floor(r() * 60), r() * 360 - 180, lat, 5, 200));
      const k0 = Math.cos(lat * (Math.PI / 180));
      const off = 0.2 * r() ** 2;
      const p = [(c[0] as number) + ((r() * 2 - 1) * off) / k0, lat + (r() * 2 - 1) * off] as [number, number];
      const ours = ok(wasm.nearestOnLine(c, p[0], p[1]));
      const theirs = turf.pointToLineDistance(p, turf.lineString(positions(c)), { units: 'meters' });
      worst = Math.max(worst, Math.abs(ours.distance - theirs) / theirs);
      // The nearest point reported lies at the reported distance (haversine, 0.1%).
      const back = turf.distance(p, [ours.lon, ours.lat], { units: 'meters' });
      expect(Math.abs(back - ours.distance)).toBeLessThanOrEqual(1e-3 * ours.distance + 1e-6);
    }
    expect(worst).toBeLessThan(1e-3);
  });
});
