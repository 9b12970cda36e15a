// Structural checks of a RegionGraph shared by the import and demo tests.
import { expect } from 'vitest';
import {
  EdgeFlag,
  edgeFlags,
  edgeLength,
  edgeSource,
  edgeTarget,
  outEdges,
  type RegionGraph,
  wayOf,
} from '../../../data/region/region-graph.js';

/**
 * A junction graph: offsets monotonic, inner nodes of chains with two edges, every edge leaving the node that lists it,
 * targets in range, no self loops, every edge has its reverse with the same way.
 */
export function expectWellFormed(g: RegionGraph): void {
  expect(g.towerFirst.length).toBe(g.towerCount + 1);
  expect(g.towerFirst[g.towerCount]).toBe(2 * g.chainCount);
  expect(g.pieceStart.length).toBe(g.chainCount + 1);
  expect(g.pieceStart[g.chainCount]).toBe(g.edgeCount / 2);
  expect(g.nodeCount).toBe(g.towerCount + g.edgeCount / 2 - g.chainCount);
  for (let t = 0; t < g.towerCount; t++) if (g.towerFirst[t]! > g.towerFirst[t + 1]!) throw new Error(`towerFirst decreases at ${t}`);
  for (let k = 0; k < g.chainCount; k++) if (g.pieceStart[k]! >= g.pieceStart[k + 1]!) throw new Error(`chain ${k} has no piece`);
  const listed = new Uint8Array(g.edgeCount);
  const pairs = new Map<string, number>();
  for (let a = 0; a < g.nodeCount; a++) {
    const out = outEdges(g, a);
    if (a >= g.towerCount && out.length !== 2) throw new Error(`inner node ${a} has ${out.length} edges`);
    for (const e of out) {
      if (edgeSource(g, e) !== a) throw new Error(`edge ${e} listed at ${a} leaves ${edgeSource(g, e)}`);
      listed[e]!++;
      const b = edgeTarget(g, e);
      if (b >= g.nodeCount) throw new Error(`edge ${e} targets ${b}, beyond ${g.nodeCount} nodes`);
      if (b === a) throw new Error(`edge ${e} is a self loop`);
      // Zero happens: OSM has distinct nodes at one position.
      if (!(edgeLength(g, e) >= 0)) throw new Error(`edge ${e} has length ${edgeLength(g, e)}`);
      if (wayOf(g, e) >= g.wayOsmId.length) throw new Error(`edge ${e} has way ${wayOf(g, e)}`);
      const key = `${a},${b},${wayOf(g, e)}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  if (listed.some((n) => n !== 1)) throw new Error('an edge is not listed exactly once at its source');
  // Both directions are stored for every segment (bike oneways only flag the forbidden one).
  for (const [key, count] of pairs) {
    const [a, b, w] = key.split(',');
    if (pairs.get(`${b},${a},${w}`) !== count) throw new Error(`edge ${a}→${b} of way ${w} lacks its reverse`);
  }
  // A oneway flag is never set on both directions of a segment.
  for (let a = 0; a < g.nodeCount; a++) {
    for (const e of outEdges(g, a)) {
      if (!(edgeFlags(g, e) & EdgeFlag.OnewayForBikes)) continue;
      const b = edgeTarget(g, e);
      let reverseOpen = false;
      for (const r of outEdges(g, b)) {
        if (edgeTarget(g, r) === a && wayOf(g, r) === wayOf(g, e) && !(edgeFlags(g, r) & EdgeFlag.OnewayForBikes)) reverseOpen = true;
      }
      if (!reverseOpen) throw new Error(`oneway segment ${a}-${b} is closed in both directions`);
    }
  }
}
