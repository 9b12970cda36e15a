// Structural checks of a RegionGraph shared by the import and demo tests.
import { expect } from 'vitest';
import { EdgeFlag, edgeFlags, edgeLength, type RegionGraph, wayOf } from '../../../data/region/region-graph.js';

/** Offsets monotonic, targets in range, no self loops, every edge has its reverse with the same way. */
export function expectWellFormed(g: RegionGraph): void {
  expect(g.firstEdge.length).toBe(g.nodeCount + 1);
  expect(g.firstEdge[0]).toBe(0);
  expect(g.firstEdge[g.nodeCount]).toBe(g.edgeCount);
  for (let n = 0; n < g.nodeCount; n++) {
    if (g.firstEdge[n]! > g.firstEdge[n + 1]!) throw new Error(`firstEdge decreases at node ${n}`);
  }
  const pairs = new Map<string, number>();
  for (let a = 0; a < g.nodeCount; a++) {
    for (let e = g.firstEdge[a]!; e < g.firstEdge[a + 1]!; e++) {
      const b = g.edgeTarget[e]!;
      if (b >= g.nodeCount) throw new Error(`edge ${e} targets ${b}, beyond ${g.nodeCount} nodes`);
      if (b === a) throw new Error(`edge ${e} is a self loop`);
      // Zero happens: OSM has distinct nodes at one position.
      if (!(edgeLength(g, e, a) >= 0)) throw new Error(`edge ${e} has length ${edgeLength(g, e, a)}`);
      if (wayOf(g, e) >= g.wayOsmId.length) throw new Error(`edge ${e} has way ${wayOf(g, e)}`);
      const key = `${a},${b},${wayOf(g, e)}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  // Both directions are stored for every segment (bike oneways only flag the forbidden one).
  for (const [key, count] of pairs) {
    const [a, b, w] = key.split(',');
    if (pairs.get(`${b},${a},${w}`) !== count) throw new Error(`edge ${a}→${b} of way ${w} lacks its reverse`);
  }
  // A oneway flag is never set on both directions of a segment.
  for (let a = 0; a < g.nodeCount; a++) {
    for (let e = g.firstEdge[a]!; e < g.firstEdge[a + 1]!; e++) {
      if (!(edgeFlags(g, e) & EdgeFlag.OnewayForBikes)) continue;
      const b = g.edgeTarget[e]!;
      let reverseOpen = false;
      for (let r = g.firstEdge[b]!; r < g.firstEdge[b + 1]!; r++) {
        if (g.edgeTarget[r] === a && wayOf(g, r) === wayOf(g, e) && !(edgeFlags(g, r) & EdgeFlag.OnewayForBikes)) reverseOpen = true;
      }
      if (!reverseOpen) throw new Error(`oneway segment ${a}-${b} is closed in both directions`);
    }
  }
}
