// Isochrone polygons on the demo region: one per range, closed and counter-clockwise, nested, holding every
// node reached within the range and the snapped start, with a reach factor between 0 and 1.

import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import { Activity } from '../../contracts/activity.js';
import type { IsochroneOutput, LonLat } from '../../contracts/routing.js';
import { RouteEngine } from '../../workers/route-engine.js';

let region: Region;
let engine: RouteEngine;

beforeAll(() => {
  region = buildDemoRegion();
  engine = new RouteEngine(region.graph, region.dem, { kernel: { build: 'debug' } });
});

/** Ray casting; points on the boundary count as inside within `eps` degrees. */
function inside(ring: [number, number][], [x, y]: readonly number[], eps = 1e-6): boolean {
  let odd = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    // On an edge (the rings run along cell sides: horizontal or vertical).
    if (Math.min(xi, xj) - eps <= x! && x! <= Math.max(xi, xj) + eps && Math.min(yi, yj) - eps <= y! && y! <= Math.max(yi, yj) + eps) {
      if (Math.abs(xi - xj) < eps || Math.abs(yi - yj) < eps) return true;
    }
    if (yi > y! !== yj > y! && x! < ((xj - xi) * (y! - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

function signedArea(ring: [number, number][]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return a / 2;
}

/** The demo village (every activity reaches it). */
const start = (): LonLat => {
  const village = [...region.places].find((p) => p.name === 'Vilanova de Cairn');
  if (!village) throw new Error('the demo village is missing');
  return [village.lon, village.lat];
};

describe('isochrones', () => {
  it('one nested, closed, counter-clockwise polygon per range, holding every node reached in it', () => {
    const center = start();
    const out = engine.isochrone({ activity: Activity.WALKING, center, ranges: [1800, 300, 900] }) as IsochroneOutput;
    expect(out.ok).toBe(true);
    expect(out.isochrones.map((i) => i.range)).toEqual([300, 900, 1800]);
    expect(out.center).not.toBeNull();
    const reached = engine.reachable({ activity: Activity.WALKING, center, budget: 1800 });
    if (!reached.ok) throw new Error('reachable failed');
    let previous: [number, number][] | undefined;
    for (const iso of out.isochrones) {
      const ring = iso.polygon.coordinates[0] as [number, number][];
      expect(ring.length).toBeGreaterThanOrEqual(5);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(signedArea(ring)).toBeGreaterThan(0); // counter-clockwise (RFC 7946)
      expect(inside(ring, out.center as LonLat)).toBe(true);
      for (let i = 0; i < reached.points.length; i += 3) {
        if (reached.points[i + 2]! <= iso.range) expect(inside(ring, [reached.points[i]!, reached.points[i + 1]!])).toBe(true);
      }
      if (previous) for (const corner of previous) expect(inside(ring, corner)).toBe(true);
      expect(iso.reachFactor).toBeGreaterThan(0);
      expect(iso.reachFactor).toBeLessThanOrEqual(1);
      previous = ring;
    }
    const areas = out.isochrones.map((i) => i.area);
    expect(areas[0]).toBeLessThan(areas[2]!);
  });

  it('a longer range reaches more, but less of its circle than a short one on a sparse network', () => {
    const out = engine.isochrone({ activity: Activity.HIKING_AND_TRAIL, center: start(), ranges: [120, 3600] }) as IsochroneOutput;
    expect(out.isochrones[0]!.area).toBeLessThan(out.isochrones[1]!.area);
    expect(out.isochrones[1]!.reachFactor).toBeLessThan(1);
  });

  it('a start far from every way snaps nowhere: center null and an empty polygon per range', () => {
    const out = engine.isochrone({ activity: Activity.WALKING, center: [-120, -45], ranges: [900, 600] }) as IsochroneOutput;
    expect(out).toEqual({
      ok: true,
      center: null,
      isochrones: [600, 900].map((range) => ({ range, polygon: { type: 'Polygon', coordinates: [] }, reachFactor: 0, area: 0 })),
    });
  });

  it('refuses bad ranges with the offending index', () => {
    expect(engine.isochrone({ activity: Activity.WALKING, center: start(), ranges: [] })).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      path: ['input', 'ranges'],
    });
    expect(engine.isochrone({ activity: Activity.WALKING, center: start(), ranges: [600, 1.5] })).toMatchObject({
      ok: false,
      path: ['input', 'ranges', 1],
    });
    expect(engine.isochrone({ activity: Activity.WALKING, center: start(), ranges: [600, 99_999] })).toMatchObject({
      ok: false,
      path: ['input', 'ranges', 1],
    });
  });
});
