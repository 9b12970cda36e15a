// Typed wrapper of the routing kernels: keeps a region graph resident in WASM memory, contracts
// degree-2 chains into a core graph, prepares per-profile weights and landmarks, and answers
// routes, snaps, reachable areas and line matches without exposing pointers.
import { edgeTarget, type RegionGraph } from '../../data/region/region-graph.js';
import { recordOwner, unpackRecord, type Hierarchy } from './routing-ch.js';
import { buildSnapGrid, Chains, type SnapGrid } from './routing-core.js';
import {
  maskedComponents,
  prepareCore,
  prepareProfile,
  profileHierarchy,
  type PreparedCore,
  type PreparedMask,
  type PreparedProfile,
  type EdgeWeights,
} from './routing-prepare.js';
import { type SharedWasmMemory, wasmBuild } from './load-wasm.js';
import { viewsMemory } from './routing-memory.js';
import { instantiateRouting, type RoutingExports, type WasmBuild } from './routing-wasm.js';

/** A position on the network: directed edge `edge`, `fraction` (0..1) from its source node. */
export interface EdgePosition {
  edge: number;
  fraction: number;
}

/** A snapped point: the position plus where it lies (degrees) and how far the query was (m). */
export interface Snap extends EdgePosition {
  lon: number;
  lat: number;
  distance: number;
}

/**
 * A route over original edges: edges[0] is traversed from `startFraction` to its end, the last
 * edge from its start to `endFraction` (a single edge: startFraction → endFraction), the others
 * whole. `cost` is the profile's cost (s).
 */
export interface EdgePath {
  cost: number;
  edges: Int32Array;
  startFraction: number;
  endFraction: number;
}

export type { EdgeWeights } from './routing-prepare.js';

export interface RoutingKernelOptions {
  /** WASM build: 'debug' (assertions) for tests, 'release' otherwise. */
  build: WasmBuild;
  /** Core searches use a contraction hierarchy (else A* with landmarks). */
  hierarchy: boolean;
  /** Landmarks computed per profile and mask when the hierarchy is off (0 = plain Dijkstra order). */
  landmarks: number;
  /** Landmarks used per query (the best ones for the pair). */
  landmarksPerQuery: number;
  /** Snapping grid cell size in degrees. */
  cellDeg: number;
  /**
   * The process's routing memory holding the region's files (routing-memory.ts): the kernel's instance runs on it
   * and uses the arrays that view it in place. Without it, the thread's own memory, with every array copied in.
   */
  memory?: SharedWasmMemory;
}

const DEFAULTS: Omit<RoutingKernelOptions, 'build'> = { hierarchy: true, landmarks: 16, landmarksPerQuery: 4, cellDeg: 0.0025 };

interface ProfileState {
  open: number; // ptr u32[ceil(m / 32)]: pieces the profile may use, one bit per directed edge
  coreCost: number; // ptr f32[mc]
  coreHaz: number; // ptr u8[mc]
  /** ALT tables per avoid mask (built on first use when the hierarchy is off). */
  landmarks: Map<number, Landmarks>;
  /** Contraction hierarchies per avoid mask (prepared, or built on first use). */
  hierarchies: Map<number, ResidentHierarchy>;
  /** The profile's host arrays, as prepareProfile makes them (the fields below are the same arrays). */
  prepared: PreparedProfile;
  /** Costs and hazards per original edge, asked for along the chains a query starts or ends on. */
  weights: EdgeWeights;
  component: Int32Array; // per core node, connected component over allowed edges
  coreCostArr: Float32Array;
  coreHazArr: Uint8Array;
  /** Components over allowed edges that carry none of the mask's hazards, per mask (lazy). */
  maskedComponents: Map<number, Int32Array>;
}

/** Timings (ms) of the work done at load and per profile, for the docs and the bench. */
export interface KernelStats {
  loadMs: number;
  /** Parts of loadMs: the core graph, the snapping grid. */
  contractMs: number;
  gridMs: number;
  coreNodes: number;
  coreEdges: number;
  profileMs: Record<number, number>;
  /** Landmark build time per avoid mask (last profile built). */
  landmarkMs: Record<string, number>;
  /** Hierarchy build time and shortcut count per avoid mask (last profile built). */
  hierarchyMs: Record<string, number>;
  shortcuts: Record<string, number>;
  wasmBytes: number;
  /**
   * What this kernel computed itself rather than took prepared (routing-prepare.ts): the core graph and snapping
   * grid, profiles (chain sums and components), hierarchies, masked components, landmark tables. All zero for a
   * kernel made from a prepared region that answers only under the masks it was given.
   */
  computed: { core: number; grid: number; profiles: number; hierarchies: number; components: number; landmarks: number };
}

export class RoutingKernel {
  readonly graph: RegionGraph;
  readonly stats: KernelStats;
  /** The chains of original edges between junctions (walked, not stored per edge). */
  private readonly chains: Chains;
  private readonly w: RoutingExports;
  private readonly opts: RoutingKernelOptions;
  private readonly profiles = new Map<number, ProfileState>();
  // core graph
  private readonly coreNodes: number; // the graph's towers
  private readonly coreFirst: Uint32Array;
  private readonly coreTarget: Uint32Array;
  private readonly coreSource: Uint32Array;
  private readonly coreTwin: Uint32Array;
  private readonly chainEdge: Uint32Array; // chain k's core edge from its start
  private readonly cFirst: number;
  private readonly cTarget: number;
  private readonly cSource: number;
  private readonly cTwin: number;
  private spatial: number[] = [];
  private grid!: SnapGrid;
  private scratch = 0;
  private scratchBytes = 0;
  /** Resident penalised chain costs of routePenalised (allocated on first use). */
  private penaltyPtr = 0;

  private constructor(graph: RegionGraph, opts: RoutingKernelOptions, prepared?: PreparedCore) {
    const t0 = performance.now();
    this.graph = graph;
    this.opts = opts;
    this.w = instantiateRouting(opts.build, opts.memory);
    const computed = { core: 0, grid: 0, profiles: 0, hierarchies: 0, components: 0, landmarks: 0 };
    const times = { contractMs: 0, gridMs: 0 };
    let core = prepared;
    if (!core) {
      core = prepareCore(graph, opts.cellDeg, times);
      computed.core++;
      computed.grid++;
    } else if (core.grid.cellDeg !== opts.cellDeg) {
      // Prepared for another cell size: only the grid is made again.
      const t = performance.now();
      core = { ...core, grid: buildSnapGrid(graph, opts.cellDeg) };
      times.gridMs = performance.now() - t;
      computed.grid++;
    }
    this.chains = new Chains(graph, core);
    this.coreNodes = graph.towerCount;
    this.coreFirst = core.first;
    this.coreTarget = core.target;
    this.coreSource = core.source;
    this.coreTwin = core.twin;
    this.chainEdge = core.chainEdge;
    this.cFirst = this.put(core.first);
    this.cTarget = this.put(core.target);
    this.cSource = this.put(core.source);
    this.cTwin = this.put(core.twin);
    this.useGrid(core);
    this.stats = {
      loadMs: performance.now() - t0,
      ...times,
      coreNodes: graph.towerCount,
      coreEdges: core.target.length,
      profileMs: {},
      landmarkMs: {},
      hierarchyMs: {},
      shortcuts: {},
      wasmBytes: 0,
      computed,
    };
    this.stats.wasmBytes = this.w.memory.buffer.byteLength;
  }

  /** The snapping grid: each undirected piece once (by one of its two edges) in every cell its box touches. */
  get snapGrid(): SnapGrid {
    return this.grid;
  }

  /** Source node of directed edge e. */
  sourceOf(e: number): number {
    return this.chains.sourceOf(e);
  }

  /** The size of the kernel's WASM memory (bytes): the process's routing memory when it shares one. */
  get memoryBytes(): number {
    return this.w.memory.buffer.byteLength;
  }

  /** Whether the kernel works on a routing memory the process shares (options.memory). */
  get sharesMemory(): boolean {
    return this.opts.memory !== undefined;
  }

  /**
   * Copies the graph into a new WASM instance (one per thread) with its core graph: `prepared` (made by
   * prepareCore, usually read from the region's routing.bin) or, without it, contracted here.
   */
  static create(graph: RegionGraph, options: Partial<RoutingKernelOptions> = {}, prepared?: PreparedCore): RoutingKernel {
    return new RoutingKernel(graph, { ...DEFAULTS, build: wasmBuild(), ...options }, prepared);
  }

  /** Registers a profile's weights under `id`: sums chains, builds mask 0's hierarchy or landmarks. */
  addProfile(id: number, weights: EdgeWeights): void {
    const t0 = performance.now();
    const profile = prepareProfile(this.graph, this.core(), weights);
    this.stats.computed.profiles++;
    this.register(id, profile, weights, new Map());
    this.prepareMask(id, 0);
    this.stats.profileMs[id] = performance.now() - t0;
    this.stats.wasmBytes = this.w.memory.buffer.byteLength;
  }

  /**
   * Registers a prepared profile under `id` with what it needs under each mask of `masks` (hierarchies and masked
   * components made by routing-prepare.ts, usually read from routing.bin): copied in, nothing computed. `weights`
   * are the profile's own, as prepareProfile was given them.
   */
  addPreparedProfile(id: number, profile: PreparedProfile, weights: EdgeWeights, masks: ReadonlyMap<number, PreparedMask>): void {
    const t0 = performance.now();
    const p = this.register(id, profile, weights, masks);
    if (this.opts.hierarchy) {
      // Masks that remove the same edges share one hierarchy object: copied in once.
      const resident = new Map<Hierarchy, ResidentHierarchy>();
      for (const [mask, m] of masks) {
        const r = resident.get(m.hierarchy) ?? this.residentHierarchy(p, mask, m.hierarchy);
        resident.set(m.hierarchy, r);
        p.hierarchies.set(mask, r);
      }
    }
    this.stats.profileMs[id] = performance.now() - t0;
    this.stats.wasmBytes = this.w.memory.buffer.byteLength;
  }

  private register(id: number, profile: PreparedProfile, weights: EdgeWeights, masks: ReadonlyMap<number, PreparedMask>): ProfileState {
    const state: ProfileState = {
      open: this.put(profile.open),
      coreCost: this.put(profile.coreCost),
      coreHaz: this.put(profile.coreHazard),
      landmarks: new Map(),
      hierarchies: new Map(),
      prepared: profile,
      weights,
      component: profile.component,
      coreCostArr: profile.coreCost,
      coreHazArr: profile.coreHazard,
      maskedComponents: new Map([...masks].filter(([mask]) => mask !== 0).map(([mask, m]) => [mask, m.component])),
    };
    this.profiles.set(id, state);
    return state;
  }

  /** The core graph as prepareCore returns it (views of this kernel's arrays). */
  private core(): PreparedCore {
    return {
      first: this.coreFirst,
      target: this.coreTarget,
      source: this.coreSource,
      twin: this.coreTwin,
      chainEdge: this.chainEdge,
      grid: this.grid,
    };
  }

  /** Builds what queries under `mask` use (hierarchy or landmark tables) now rather than on first use. */
  prepareMask(id: number, mask: number): void {
    const p = this.profile(id);
    if (this.opts.hierarchy) this.hierarchyFor(p, mask);
    else this.landmarksFor(p, mask);
  }

  /** Core search with the contraction hierarchy (bidirectional, upward edges only). */
  private searchHierarchy(p: ProfileState, mask: number, sn: number[], sc: number[], tn: number[], tc: number[]): CoreSearch | null {
    const w = this.w;
    const h = this.hierarchyFor(p, mask);
    const nc = this.coreNodes;
    const hier = h.hierarchy;
    w.useHierarchy(nc, h.ptrs[0]!, h.ptrs[1]!, h.ptrs[2]!, h.ptrs[3]!, h.ptrs[4]!, h.ptrs[5]!, hier.forward.target.length);
    w.chBegin();
    for (let i = 0; i < 2; i++) if (sc[i]! < Infinity) w.chSource(sn[i]!, sc[i]!);
    for (let j = 0; j < 2; j++) if (tc[j]! < Infinity) w.chTarget(tn[j]!, tc[j]!);
    const cost = w.chSearch();
    if (!(cost < Infinity)) return null;
    const meet = w.chMeet();
    const pf = new Int32Array(w.memory.buffer, w.chParents(0), nc);
    const pb = new Int32Array(w.memory.buffer, w.chParents(1), nc);
    const up: number[] = [];
    // A parent record's other end is its lower endpoint: the node whose upward edges hold it.
    for (let r = pf[meet]!; r >= 0; r = pf[recordOwner(hier, r)]!) up.push(r);
    const down: number[] = [];
    for (let r = pb[meet]!; r >= 0; r = pb[recordOwner(hier, r)]!) down.push(r);
    const coreEdges: number[] = [];
    for (let i = up.length - 1; i >= 0; i--) unpackRecord(hier, up[i]!, coreEdges);
    for (const r of down) unpackRecord(hier, r, coreEdges);
    const firstNode = up.length ? recordOwner(hier, up[up.length - 1]!) : meet;
    const lastNode = down.length ? recordOwner(hier, down[down.length - 1]!) : meet;
    return { cost, coreEdges, firstNode, lastNode };
  }

  /** Core search with A* and landmark bounds. */
  private searchLandmarks(p: ProfileState, mask: number, sn: number[], sc: number[], tn: number[], tc: number[]): CoreSearch | null {
    const w = this.w;
    w.useGraph(this.coreNodes, this.cFirst, this.cTarget, this.cSource, this.cTwin);
    w.useWeights(p.coreCost, p.coreHaz, mask);
    const lm = this.landmarksFor(p, mask);
    w.useLandmarks(lm.count, lm.from, lm.to, this.opts.landmarksPerQuery);
    return this.runCoreSearch(sn, sc, tn, tc);
  }

  /** Runs the core search set up by the caller (graph, weights, landmarks) between the endpoints. */
  private runCoreSearch(sn: number[], sc: number[], tn: number[], tc: number[]): CoreSearch | null {
    const w = this.w;
    w.clearEndpoints();
    for (let i = 0; i < 2; i++) if (sc[i]! < Infinity) w.addSource(sn[i]!, sc[i]!);
    for (let j = 0; j < 2; j++) if (tc[j]! < Infinity) w.addTarget(tn[j]!, tc[j]!);
    const cost = w.search(0, Infinity);
    if (!(cost < Infinity)) return null;
    const count = w.pathEdgeCount();
    const outPtr = this.scratchFor(count * 4);
    w.writePath(outPtr);
    const coreEdges = Array.from(new Int32Array(w.memory.buffer, outPtr, count));
    const firstNode = w.pathSource();
    const lastNode = count ? this.coreTarget[coreEdges[count - 1]!]! : firstNode;
    return { cost, coreEdges, firstNode, lastNode };
  }

  /** The contraction hierarchy of a profile under a mask, built and copied in on first use unless prepared. */
  private hierarchyFor(p: ProfileState, mask: number): ResidentHierarchy {
    let h = p.hierarchies.get(mask);
    if (!h) {
      const t0 = performance.now();
      const hierarchy = profileHierarchy(this.core(), p.prepared, mask);
      this.stats.computed.hierarchies++;
      h = this.residentHierarchy(p, mask, hierarchy);
      this.stats.hierarchyMs[`${mask}`] = performance.now() - t0;
      this.stats.wasmBytes = this.w.memory.buffer.byteLength;
    }
    return h;
  }

  /** Copies a hierarchy's upward graphs into WASM memory and keeps it as the profile's for `mask`. */
  private residentHierarchy(p: ProfileState, mask: number, hierarchy: Hierarchy): ResidentHierarchy {
    const f = hierarchy.forward;
    const b = hierarchy.backward;
    const ptrs = [f.first, f.target, f.weight, b.first, b.target, b.weight].map((a) => this.put(a));
    const h = { hierarchy, ptrs };
    p.hierarchies.set(mask, h);
    this.stats.shortcuts[`${mask}`] = hierarchy.shortcuts;
    return h;
  }

  hasProfile(id: number): boolean {
    return this.profiles.has(id);
  }

  /**
   * Nearest edge to (lon, lat) degrees within `maxDistance` metres, among edges the profile allows
   * in at least one direction (any edge when `profile` is undefined); null when none.
   */
  snap(lon: number, lat: number, maxDistance: number, profile?: number): Snap | null {
    const open = profile === undefined ? 0 : this.profile(profile).open;
    this.useSpatial();
    const e = this.w.snap(lon, lat, maxDistance, open, 0, 0, 0);
    if (e < 0) return null;
    return { edge: e, fraction: this.w.snapFraction(), lon: this.w.snapLon(), lat: this.w.snapLat(), distance: this.w.snapDistance() };
  }

  /**
   * Matches each piece of a line (flat lon,lat pairs, degrees) to the nearest roughly parallel
   * edge within `maxDistance` m, oriented along the line; -1 for unmatched pieces.
   */
  matchLine(lonLat: Float64Array, maxDistance: number, profile?: number): Int32Array {
    const count = lonLat.length >> 1;
    if (count < 2) return new Int32Array(0);
    const inPtr = this.scratchFor(lonLat.byteLength + (count << 2));
    new Float64Array(this.w.memory.buffer, inPtr, lonLat.length).set(lonLat);
    const outPtr = inPtr + lonLat.byteLength;
    const open = profile === undefined ? 0 : this.profile(profile).open;
    this.useSpatial();
    this.w.matchLine(inPtr, count, maxDistance, open, outPtr);
    return new Int32Array(this.w.memory.buffer, outPtr, count - 1).slice();
  }

  /** Cheapest path from `from` to `to` for a profile, skipping edges whose hazard bits meet `avoidMask`. */
  route(from: EdgePosition, to: EdgePosition, profileId: number, avoidMask = 0): EdgePath | null {
    const p = this.profile(profileId);
    return this.routeWith(p, from, to, avoidMask, (sn, sc, tn, tc) =>
      this.opts.hierarchy ? this.searchHierarchy(p, avoidMask, sn, sc, tn, tc) : this.searchLandmarks(p, avoidMask, sn, sc, tn, tc),
    );
  }

  /** A route whose core part comes from `search` (given the core endpoints and their costs). */
  private routeWith(
    p: ProfileState,
    from: EdgePosition,
    to: EdgePosition,
    avoidMask: number,
    search: (sn: number[], sc: number[], tn: number[], tc: number[]) => CoreSearch | null,
  ): EdgePath | null {
    const a = this.chainPoint(from, p, avoidMask);
    const b = this.chainPoint(to, p, avoidMask);
    // Endpoints on the core graph: leave P forwards to the chain's end or backwards to its start.
    const srcNodes = [this.coreTarget[a.chain]!, this.coreSource[a.chain]!];
    const srcCosts = [a.costToEnd, a.costToStart];
    const tgtNodes = [this.coreSource[b.chain]!, this.coreTarget[b.chain]!];
    const tgtCosts = [b.costFromStart, b.costFromEnd];
    const best: EdgePath | null = this.directOnChain(a, b, p, avoidMask);
    const comp = this.componentsFor(p, avoidMask);
    let connected = false;
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) {
        if (srcCosts[i]! < Infinity && tgtCosts[j]! < Infinity && comp[srcNodes[i]!] === comp[tgtNodes[j]!]) connected = true;
      }
    }
    if (!connected) return best;
    const found = search(srcNodes, srcCosts, tgtNodes, tgtCosts);
    if (!found || (best && best.cost <= found.cost)) return best;
    const { cost, coreEdges, firstNode, lastNode } = found;
    // Which way P left: forwards when the path starts at the chain's end (ties: the cheaper one).
    const forwardOut = firstNode === srcNodes[0] && (firstNode !== srcNodes[1] || a.costToEnd <= a.costToStart);
    // Which way Q was entered: from its chain's start (index 0) or its end (ties: the cheaper one).
    const tgtIndex = lastNode === tgtNodes[0] && (lastNode !== tgtNodes[1] || b.costFromStart <= b.costFromEnd) ? 0 : 1;
    // Head: P to the chain end it left by; core chains; tail: the chain end it entered by to Q.
    const head = a.edges;
    const headLen = forwardOut ? head.length - a.index : a.index + 1;
    const tail = b.edges;
    const tailLen = tgtIndex === 0 ? b.index + 1 : tail.length - b.index;
    let total = headLen + tailLen;
    for (const c of coreEdges) total += this.chains.length(c);
    const edges = new Int32Array(total);
    let o = 0;
    if (forwardOut) for (let i = a.index; i < head.length; i++) edges[o++] = head[i]!;
    else for (let i = a.index; i >= 0; i--) edges[o++] = head[i]! ^ 1;
    for (const c of coreEdges) {
      const chain = this.chains.edges(c);
      edges.set(chain, o);
      o += chain.length;
    }
    if (tgtIndex === 0) for (let i = 0; i <= b.index; i++) edges[o++] = tail[i]!;
    else for (let i = tail.length - 1; i >= b.index; i--) edges[o++] = tail[i]! ^ 1;
    const startFraction = forwardOut ? a.fraction : 1 - a.fraction;
    const endFraction = tgtIndex === 0 ? b.fraction : 1 - b.fraction;
    return { cost, edges, startFraction, endFraction };
  }

  /**
   * A penalty table for alternative routes: one cost factor per chain of the core graph, all 1 to start
   * with. Factors only ever grow, so a route under them is never cheaper than the unpenalised one.
   */
  newPenalty(): Float32Array {
    return new Float32Array(this.coreTarget.length).fill(1);
  }

  /** Multiplies by `factor` the penalty of every chain `path` runs on, in both directions. */
  penalisePath(penalty: Float32Array, path: EdgePath, factor: number): void {
    let last = -1;
    for (const e of path.edges) {
      // A chain's edges come in a run: penalise it once per run.
      const chain = this.chains.locate(e).chain;
      if (chain === last) continue;
      last = chain;
      penalty[chain]! *= factor;
      const twin = this.coreTwin[chain]!;
      if (twin !== chain) penalty[twin]! *= factor;
    }
  }

  /**
   * Cheapest path from `from` to `to` with the profile's chain costs multiplied by `penalty` (from
   * newPenalty), skipping edges whose hazard bits meet `avoidMask`. The contraction hierarchy holds the
   * unpenalised costs, so this runs a plain Dijkstra over the core graph: slower than `route`, and only
   * for alternatives. Its `cost` is the penalised one.
   */
  routePenalised(from: EdgePosition, to: EdgePosition, profileId: number, avoidMask: number, penalty: Float32Array): EdgePath | null {
    const p = this.profile(profileId);
    const mc = this.coreTarget.length;
    if (penalty.length !== mc) throw new TypeError('routing: the penalty table must come from newPenalty()');
    if (this.penaltyPtr === 0) this.penaltyPtr = this.w.alloc(Math.max(mc * 4, 8));
    const weighted = new Float32Array(this.w.memory.buffer, this.penaltyPtr, mc);
    for (let c = 0; c < mc; c++) weighted[c] = p.coreCostArr[c]! * penalty[c]!;
    return this.routeWith(p, from, to, avoidMask, (sn, sc, tn, tc) => {
      const w = this.w;
      w.useGraph(this.coreNodes, this.cFirst, this.cTarget, this.cSource, this.cTwin);
      w.useWeights(this.penaltyPtr, p.coreHaz, avoidMask);
      w.useLandmarks(0, 0, 0, 0);
      return this.runCoreSearch(sn, sc, tn, tc);
    });
  }

  /**
   * Every original node reachable from `from` within `budget` seconds: node ids and times (s), soonest first. The
   * search runs on the core graph; the nodes inside chains take their times from the chain's ends (a node inside
   * a chain is reached only along it), with the edge costs asked for as the chains are walked.
   */
  reachable(from: EdgePosition, profileId: number, budget: number, avoidMask = 0): { nodes: Uint32Array; times: Float32Array } {
    const p = this.profile(profileId);
    const w = this.w;
    const a = this.chainPoint(from, p, avoidMask);
    w.useGraph(this.coreNodes, this.cFirst, this.cTarget, this.cSource, this.cTwin);
    w.useWeights(p.coreCost, p.coreHaz, avoidMask);
    w.useLandmarks(0, 0, 0, 0);
    w.clearEndpoints();
    if (a.costToEnd < Infinity) w.addSource(this.coreTarget[a.chain]!, a.costToEnd);
    if (a.costToStart < Infinity) w.addSource(this.coreSource[a.chain]!, a.costToStart);
    w.search(0, budget);
    const count = w.settled();
    const settled = new Int32Array(w.memory.buffer, w.settledList(), count).slice();
    const dist = new Float64Array(w.memory.buffer, w.distances(), this.coreNodes);
    const best = new Map<number, number>();
    const reach = (v: number, t: number): void => {
      if (t <= budget && !(best.get(v)! <= t)) best.set(v, t);
    };
    const g = this.graph;
    // From a chain position (its index and fraction), forwards along the chain's edges up to its last inner node.
    const walk = (chainEdges: Uint32Array, index: number, fraction: number, t0: number): void => {
      let t = t0;
      for (let i = index; i < chainEdges.length - 1; i++) {
        t += this.pieceCost(p, chainEdges[i]!, i === index ? 1 - fraction : 1, avoidMask);
        if (!(t <= budget)) return;
        reach(edgeTarget(g, chainEdges[i]!), t);
      }
    };
    for (const c of settled) {
      reach(c, dist[c]!);
      for (let ce = this.coreFirst[c]!; ce < this.coreFirst[c + 1]!; ce++) {
        if (this.chains.length(ce) > 1) walk(this.chains.edges(ce), 0, 0, dist[c]!);
      }
    }
    // The start's own chain, both ways from the start: forwards on it, and forwards over the twins from the same spot.
    walk(a.edges, a.index, a.fraction, 0);
    const back = Uint32Array.from(a.edges, (e) => e ^ 1).reverse();
    walk(back, a.edges.length - 1 - a.index, 1 - a.fraction, 0);
    const order = [...best].sort((x, y) => x[1] - y[1]);
    return { nodes: Uint32Array.from(order, ([v]) => v), times: Float32Array.from(order, ([, t]) => t) };
  }

  /** Component ids of core nodes once the mask's hazards are removed (cached per mask). */
  private componentsFor(p: ProfileState, mask: number): Int32Array {
    if (mask === 0) return p.component;
    let comp = p.maskedComponents.get(mask);
    if (!comp) {
      comp = maskedComponents(this.core(), p.prepared, mask);
      this.stats.computed.components++;
      p.maskedComponents.set(mask, comp);
    }
    return comp;
  }

  private profile(id: number): ProfileState {
    const p = this.profiles.get(id);
    if (!p) throw new TypeError(`routing profile ${id} is not registered`);
    return p;
  }

  /**
   * The pointer of a typed array in this kernel's memory: where it already lies when it views the kernel's shared
   * routing memory (a region file read into it, routing-memory.ts), else a copy in fresh resident memory.
   */
  private put(arr: ArrayBufferView): number {
    if (this.opts.memory && viewsMemory(arr, this.opts.memory)) return arr.byteOffset;
    const ptr = this.w.alloc(Math.max(arr.byteLength, 8));
    new Uint8Array(this.w.memory.buffer, ptr, arr.byteLength).set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
    return ptr;
  }

  /** A scratch region of at least `bytes`, valid until the next call (grows only). */
  private scratchFor(bytes: number): number {
    if (bytes > this.scratchBytes) {
      this.scratchBytes = Math.max(bytes, this.scratchBytes * 2, 4096);
      this.scratch = this.w.alloc(this.scratchBytes);
    }
    return this.scratch;
  }

  private useGrid(core: PreparedCore): void {
    const g = this.graph;
    const grid = core.grid;
    this.grid = grid;
    const lon = this.put(g.nodeLonE7);
    const lat = this.put(g.nodeLatE7);
    const start = this.put(grid.cellStart);
    const items = this.put(grid.cellItems);
    const chains = [this.put(g.pieceStart), this.put(g.chainFrom), this.put(g.chainTo), g.towerCount, g.chainCount];
    this.spatial = [lon, lat, ...chains, grid.w, grid.h, grid.west, grid.south, grid.cellDeg, start, items];
  }

  /** Re-selects this kernel's snapping grid (another kernel in the thread may have selected its own). */
  private useSpatial(): void {
    const s = this.spatial;
    this.w.useSpatial(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, s[5]!, s[6]!, s[7]!, s[8]!, s[9]!, s[10]!, s[11]!, s[12]!, s[13]!);
  }

  /** Cost of `part` (0..1) of edge e; Infinity when the edge is closed or carries a hazard of `mask`. */
  private pieceCost(p: ProfileState, e: number, part: number, mask: number): number {
    if (part <= 0) return 0;
    const cost = p.weights.cost(e);
    if ((p.weights.hazard(e) & mask) !== 0 || !(cost < Infinity)) return Infinity;
    return part * cost;
  }

  /**
   * Where a position sits on its chain: costs (and hazard-checked reachability) to both chain ends,
   * and the original edges walked each way.
   */
  private chainPoint(pos: EdgePosition, p: ProfileState, mask: number): ChainPoint {
    const e = pos.edge;
    const f = pos.fraction;
    const { chain, index: k } = this.chains.locate(e);
    const chainEdges = this.chains.edges(chain);
    const end = chainEdges.length;
    const piece = (ei: number, part: number): number => this.pieceCost(p, ei, part, mask);
    let costToEnd = piece(chainEdges[k]!, 1 - f); // forwards from P to the chain's end
    for (let i = k + 1; i < end; i++) costToEnd += piece(chainEdges[i]!, 1);
    let costToStart = piece(chainEdges[k]! ^ 1, f); // backwards from P over the twins
    for (let i = k - 1; i >= 0; i--) costToStart += piece(chainEdges[i]! ^ 1, 1);
    let costFromStart = piece(chainEdges[k]!, f); // arriving at P from the chain's start
    for (let i = 0; i < k; i++) costFromStart += piece(chainEdges[i]!, 1);
    let costFromEnd = piece(chainEdges[k]! ^ 1, 1 - f); // arriving from the chain's end
    for (let i = end - 1; i > k; i--) costFromEnd += piece(chainEdges[i]! ^ 1, 1);
    return { chain, index: k, edges: chainEdges, fraction: f, costToEnd, costToStart, costFromStart, costFromEnd };
  }

  /** The path along one chain when both points lie on it (or on its twin). */
  private directOnChain(a: ChainPoint, b: ChainPoint, p: ProfileState, mask: number): EdgePath | null {
    let bk = b.index;
    let bf = b.fraction;
    if (b.chain !== a.chain) {
      if (this.coreTwin[b.chain] !== a.chain) return null;
      // Express b on a's chain: the twin chain runs the same edges in reverse.
      bk = a.edges.length - 1 - b.index;
      bf = 1 - b.fraction;
    }
    const ahead = bk > a.index || (bk === a.index && bf >= a.fraction);
    const edges: number[] = [];
    let cost = 0;
    if (ahead) {
      for (let i = a.index; i <= bk; i++) {
        const e = a.edges[i]!;
        const from = i === a.index ? a.fraction : 0;
        const to = i === bk ? bf : 1;
        if (to > from) {
          const c = this.pieceCost(p, e, to - from, mask);
          if (!(c < Infinity)) return null;
          cost += c;
        }
        edges.push(e);
      }
      return { cost, edges: Int32Array.from(edges), startFraction: a.fraction, endFraction: bf };
    }
    for (let i = a.index; i >= bk; i--) {
      const e = a.edges[i]! ^ 1;
      const from = i === a.index ? 1 - a.fraction : 0;
      const to = i === bk ? 1 - bf : 1;
      if (to > from) {
        const c = this.pieceCost(p, e, to - from, mask);
        if (!(c < Infinity)) return null;
        cost += c;
      }
      edges.push(e);
    }
    return { cost, edges: Int32Array.from(edges), startFraction: 1 - a.fraction, endFraction: 1 - bf };
  }

  /**
   * ALT tables for a profile under an avoid mask, built on first use: bounds from the unmasked
   * graph stay admissible under a mask but are weak where the mask forces detours.
   */
  private landmarksFor(p: ProfileState, mask: number): Landmarks {
    let lm = p.landmarks.get(mask);
    if (!lm) {
      const t0 = performance.now();
      lm = this.buildLandmarks(p, mask);
      this.stats.computed.landmarks++;
      p.landmarks.set(mask, lm);
      this.stats.landmarkMs[`${mask}`] = performance.now() - t0;
      this.stats.wasmBytes = this.w.memory.buffer.byteLength;
    }
    return lm;
  }

  private buildLandmarks(p: ProfileState, mask: number): Landmarks {
    const none: Landmarks = { count: 0, from: 0, to: 0 };
    const w = this.w;
    const nc = this.coreNodes;
    if (nc === 0 || this.opts.landmarks === 0) return none;
    const comp = this.componentsFor(p, mask);
    // Landmarks go in the largest component; others fall back to plain Dijkstra order (h = 0).
    const sizes = new Map<number, number>();
    for (const c of comp) sizes.set(c, (sizes.get(c) ?? 0) + 1);
    let big = -1;
    let bigSize = 0;
    for (const [c, s] of sizes) if (s > bigSize) [big, bigSize] = [c, s];
    let startNode = comp.indexOf(big);
    const k = Math.min(this.opts.landmarks, bigSize);
    if (k < 2) return none;
    const from = w.alloc(k * nc * 4);
    const to = w.alloc(k * nc * 4);
    w.useGraph(nc, this.cFirst, this.cTarget, this.cSource, this.cTwin);
    w.useWeights(p.coreCost, p.coreHaz, mask);
    w.useLandmarks(0, 0, 0, 0);
    const minDist = new Float64Array(nc).fill(Infinity);
    // Farthest-first selection: the first landmark is the node farthest from an arbitrary one.
    w.clearEndpoints();
    w.addSource(startNode, 0);
    w.search(0, Infinity);
    startNode = lastSettled(w);
    for (let i = 0; i < k; i++) {
      w.clearEndpoints();
      w.addSource(startNode, 0);
      w.search(0, Infinity);
      w.copyDistances(from + i * nc * 4);
      w.clearEndpoints();
      w.addSource(startNode, 0);
      w.search(1, Infinity);
      w.copyDistances(to + i * nc * 4);
      const f = new Float32Array(w.memory.buffer, from + i * nc * 4, nc);
      const t = new Float32Array(w.memory.buffer, to + i * nc * 4, nc);
      for (let v = 0; v < nc; v++) {
        const d = f[v]! + t[v]!;
        if (d < minDist[v]!) minDist[v] = d;
      }
      let next = -1;
      let nextD = -1;
      for (let v = 0; v < nc; v++) {
        const d = minDist[v]!;
        if (d < Infinity && d > nextD) [next, nextD] = [v, d];
      }
      if (next < 0) break;
      startNode = next;
    }
    return { count: k, from, to };
  }
}

interface CoreSearch {
  cost: number;
  coreEdges: number[];
  firstNode: number;
  lastNode: number;
}

interface ResidentHierarchy {
  hierarchy: Hierarchy;
  /** WASM pointers: forward first/target/weight, then backward. */
  ptrs: number[];
}

interface Landmarks {
  count: number;
  from: number; // ptr f32[count * coreNodes]: cost from landmark to node
  to: number; // ptr f32[count * coreNodes]: cost from node to landmark
}

interface ChainPoint {
  chain: number;
  index: number;
  /** The chain's original edges. */
  edges: Uint32Array;
  fraction: number;
  costToEnd: number;
  costToStart: number;
  costFromStart: number;
  costFromEnd: number;
}

/** The last node settled by the last search: the farthest one reached. */
function lastSettled(w: RoutingExports): number {
  const count = w.settled();
  const list = new Int32Array(w.memory.buffer, w.settledList(), count);
  return count > 0 ? list[count - 1]! : 0;
}
