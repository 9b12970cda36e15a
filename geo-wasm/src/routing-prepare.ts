// What the routing kernel derives from a region graph before it answers anything, as plain typed arrays: the
// core graph (the junction graph's towers and chains as a CSR, the snapping grid) once per graph, then per profile its
// chain costs and components, and per (profile, avoid mask) a contraction hierarchy and the components once the
// mask's hazards are removed. RoutingKernel computes these itself when it is not given them (routing.ts); the
// import computes them ahead and stores them in the region folder (routing-file.ts), so the same functions give
// the same arrays either way.
import type { RegionGraph } from '../../data/region/region-graph.js';
import { buildHierarchy, type Hierarchy } from './routing-ch.js';
import { buildSnapGrid, Chains, type CoreGraph, components, coreGraph, type SnapGrid } from './routing-core.js';

/** The graph-level arrays: the core graph (routing-core.ts; its starts are the graph's towerFirst) and the snapping grid. */
export interface PreparedCore extends CoreGraph {
  grid: SnapGrid;
}

/** What hierarchies and masked components read of the core graph: its CSR and reverse chains, no per-edge table. */
export type CoreLinks = Pick<PreparedCore, 'first' | 'target' | 'twin'>;

/** What hierarchies and masked components read of a profile: its core-graph arrays, none per original edge. */
export type CoreWeights = Pick<PreparedProfile, 'coreCost' | 'coreHazard' | 'component'>;

/**
 * A profile's weights per original edge, computed when asked: cost (s, Infinity = not allowed) and hazard bits. No
 * array per profile and edge is kept (a country has tens of millions of edges): the kernel reads them only along
 * the chains a query starts or ends on. `cost` must return the same float32 value each time it is asked.
 */
export interface EdgeWeights {
  cost(e: number): number;
  hazard(e: number): number;
}

/** Weights from arrays of costs and hazard bits per edge (synthetic graphs, tests). */
export function arrayWeights(cost: Float32Array, hazard: Uint8Array): EdgeWeights {
  return { cost: (e) => cost[e]!, hazard: (e) => hazard[e]! };
}

/** A profile's arrays: which pieces it may use, chain sums over the core graph, and components over allowed edges. */
export interface PreparedProfile {
  /** Bit e (word e >> 5, bit e & 31): the piece of edge e is allowed in at least one direction (snapping). */
  open: Uint32Array;
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

/** The core graph of `graph` and the snapping grid of `cellDeg` cells. */
export function prepareCore(graph: RegionGraph, cellDeg: number, times?: { contractMs: number; gridMs: number }): PreparedCore {
  const t0 = performance.now();
  const core = coreGraph(graph);
  const t1 = performance.now();
  const grid = buildSnapGrid(graph, cellDeg);
  if (times) {
    times.contractMs = t1 - t0;
    times.gridMs = performance.now() - t1;
  }
  return { ...core, grid };
}

/** Sums a profile's edge weights over each chain, marks the pieces it may use and computes its components. */
export function prepareProfile(graph: RegionGraph, core: PreparedCore, weights: EdgeWeights): PreparedProfile {
  const chains = new Chains(graph, core);
  const mc = core.target.length;
  const coreCost = new Float32Array(mc);
  const coreHazard = new Uint8Array(mc);
  const open = new Uint32Array((graph.edgeCount + 31) >>> 5);
  for (let c = 0; c < mc; c++) {
    let sum = 0;
    let h = 0;
    for (const e of chains.edges(c)) {
      const cost = weights.cost(e);
      sum += cost;
      h |= weights.hazard(e);
      if (cost < Infinity) {
        open[e >>> 5]! |= 1 << (e & 31);
        const t = e ^ 1;
        open[t >>> 5]! |= 1 << (t & 31);
      }
    }
    coreCost[c] = sum;
    coreHazard[c] = h;
  }
  const component = components(core.first, core.target, core.twin, coreCost);
  return { open, coreCost, coreHazard, component };
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
