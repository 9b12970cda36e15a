// What the routing kernel derives from a region graph before it answers anything, as plain typed arrays: the
// core graph (reverse edges, degree-2 chains contracted, the snapping grid) once per graph, then per profile its
// chain costs and components, and per (profile, avoid mask) a contraction hierarchy and the components once the
// mask's hazards are removed. RoutingKernel computes these itself when it is not given them (routing.ts); the
// import computes them ahead and stores them in the region folder (routing-file.ts), so the same functions give
// the same arrays either way.
import type { RegionGraph } from '../../data/region/region-graph.js';
import { buildHierarchy, type Hierarchy } from './routing-ch.js';
import { buildSnapGrid, type CoreGraph, components, computeTwins, contractChains, type SnapGrid } from './routing-core.js';

/**
 * The graph-level arrays: edge sources and twins, the core graph of chains (routing-core.ts's CoreGraph, less the
 * original node → core node table only contraction uses), the snapping grid.
 */
export interface PreparedCore extends Omit<CoreGraph, 'coreOf'> {
  /** Source node of each directed edge. */
  edgeSource: Uint32Array;
  /** The same piece in the other direction. */
  edgeTwin: Uint32Array;
  grid: SnapGrid;
}

/** What hierarchies and masked components read of the core graph: its CSR and reverse chains, no per-edge table. */
export type CoreLinks = Pick<PreparedCore, 'first' | 'target' | 'twin'>;

/** What hierarchies and masked components read of a profile: its core-graph arrays, none per original edge. */
export type CoreWeights = Pick<PreparedProfile, 'coreCost' | 'coreHazard' | 'component'>;

/** Per-profile weights given by the caller: cost (s, Infinity = not allowed) and hazard bits per edge. */
export interface ProfileWeights {
  cost: Float32Array;
  hazard: Uint8Array;
}

/** A profile's arrays: its edge weights, chain sums over the core graph, and components over allowed edges. */
export interface PreparedProfile extends ProfileWeights {
  coreCost: Float32Array;
  coreHazard: Uint8Array;
  /** Connected component of each core node over the edges the profile allows. */
  component: Int32Array;
}

/** What queries under one avoid mask use: the hierarchy, and the components without the mask's hazards. */
export interface PreparedMask {
  hierarchy: Hierarchy;
  /** Components over allowed edges carrying none of the mask's hazards (for mask 0: the profile's own). */
  component: Int32Array;
}

/** The core graph of `graph`: edge sources, twins, chain contraction and the snapping grid of `cellDeg` cells. */
export function prepareCore(graph: RegionGraph, cellDeg: number, times?: { twinsMs: number; contractMs: number; gridMs: number }): PreparedCore {
  const t0 = performance.now();
  const { nodeCount: n, edgeCount: m, firstEdge } = graph;
  const edgeSource = new Uint32Array(m);
  for (let v = 0; v < n; v++) for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e++) edgeSource[e] = v;
  const edgeTwin = computeTwins(graph, edgeSource);
  const t1 = performance.now();
  const core = contractChains(graph, edgeTwin);
  const t2 = performance.now();
  const grid = buildSnapGrid(graph, edgeSource, edgeTwin, cellDeg);
  const t3 = performance.now();
  if (times) {
    times.twinsMs = t1 - t0;
    times.contractMs = t2 - t1;
    times.gridMs = t3 - t2;
  }
  return {
    edgeSource,
    edgeTwin,
    coreNode: core.coreNode,
    first: core.first,
    target: core.target,
    source: core.source,
    twin: core.twin,
    chainStart: core.chainStart,
    chainEdges: core.chainEdges,
    chainOf: core.chainOf,
    posInChain: core.posInChain,
    grid,
  };
}

/** Sums a profile's edge weights over each chain and computes its components. */
export function prepareProfile(core: PreparedCore, weights: ProfileWeights): PreparedProfile {
  const { cost, hazard } = weights;
  const mc = core.target.length;
  const coreCost = new Float32Array(mc);
  const coreHazard = new Uint8Array(mc);
  for (let c = 0; c < mc; c++) {
    let sum = 0;
    let h = 0;
    for (let i = core.chainStart[c]!; i < core.chainStart[c + 1]!; i++) {
      const e = core.chainEdges[i]!;
      sum += cost[e]!;
      h |= hazard[e]!;
    }
    coreCost[c] = sum;
    coreHazard[c] = h;
  }
  const component = components(core.first, core.target, core.twin, coreCost);
  return { cost, hazard, coreCost, coreHazard, component };
}

/** Components of the core graph once the edges carrying any of `mask`'s hazards are removed. */
export function maskedComponents(core: CoreLinks, profile: CoreWeights, mask: number): Int32Array {
  if (mask === 0) return profile.component;
  const cost = profile.coreCost.map((c, i) => ((profile.coreHazard[i]! & mask) !== 0 ? Infinity : c));
  return components(core.first, core.target, core.twin, cost);
}

/** The contraction hierarchy of a profile under an avoid mask (the heavy part: seconds on large regions). */
export function profileHierarchy(core: CoreLinks, profile: CoreWeights, mask: number): Hierarchy {
  return buildHierarchy({ first: core.first, target: core.target, cost: profile.coreCost, hazard: profile.coreHazard }, mask);
}

/** Everything queries under `mask` read, for one profile. */
export function prepareMask(core: PreparedCore, profile: PreparedProfile, mask: number): PreparedMask {
  return { hierarchy: profileHierarchy(core, profile, mask), component: maskedComponents(core, profile, mask) };
}
