// Snapping: the grid search agrees with a brute-force scan over every edge.
import { describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../../data/region/demo-region.js';
import { edgeSources, nearestEdge } from '../../../data/region/edge-grid.js';
import { EARTH_RADIUS_M } from '../../../data/region/geo.js';

const demo = buildDemoRegion();
const g = demo.graph;
const src = edgeSources(g);

function bruteForce(lon: number, lat: number): number {
  const kx = EARTH_RADIUS_M * (Math.PI / 180) * Math.cos((lat * Math.PI) / 180);
  const ky = EARTH_RADIUS_M * (Math.PI / 180);
  let best = Infinity;
  for (let e = 0; e < g.edgeCount; e++) {
    const a = src[e]!;
    const b = g.edgeTarget[e]!;
    const ax = (g.nodeLon[a]! - lon) * kx;
    const ay = (g.nodeLat[a]! - lat) * ky;
    const dx = (g.nodeLon[b]! - lon) * kx - ax;
    const dy = (g.nodeLat[b]! - lat) * ky - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}

describe('edge grid', () => {
  it('finds the same nearest distance as a brute-force scan for 300 seeded points', () => {
    let seed = 99;
    const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const [w, s, e, n] = g.bbox;
    for (let i = 0; i < 300; i++) {
      const lon = w + rand() * (e - w);
      const lat = s + rand() * (n - s);
      const expected = bruteForce(lon, lat);
      const snap = nearestEdge(g, demo.grid, lon, lat, 2000);
      if (expected > 2000) expect(snap).toBeNull();
      else expect(snap!.distance).toBeCloseTo(expected, 6);
    }
  });

  it('lists every undirected segment once per cell it touches and honours the accept filter', () => {
    const seen = new Set(demo.grid.cellEdges);
    for (let e = 0; e < g.edgeCount; e++) expect(seen.has(e)).toBe(src[e]! < g.edgeTarget[e]!);
    const village = demo.places.find((p) => p.kind === 'village')!;
    const onlySteps = nearestEdge(g, demo.grid, village.lon, village.lat, 3000, (e) => g.edgeHighway[e] === 4);
    expect(g.edgeHighway[onlySteps!.edge]).toBe(4);
  });

  it('returns null when nothing lies within the radius', () => {
    expect(nearestEdge(g, demo.grid, g.bbox[0] - 0.5, g.bbox[1] - 0.5, 500)).toBeNull();
  });
});
