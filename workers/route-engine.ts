// Routing semantics over the kernels: waypoint routes with partial end edges, the two-pass
// avoidance rule, freehand-line snapping with exact ends, line analysis and reachable areas. Lengths,
// elevations and ascent of drawn lines come from the geometry kernels. Positions arrive validated (the
// operations' input schemas: degrees in range); what only the engine knows, off the network, it reports.
import type { DemGrid } from '../data/region/dem-grid.js';
import {
  edgeEnds,
  edgeHighway,
  latOf,
  lonOf,
  nodeDistance,
  nodeRise,
  outEdges,
  type RegionGraph,
  wayOf,
} from '../data/region/region-graph.js';
import { cumulativeDistances, elevationGain, lineLength, sampleDem } from '../geo-wasm/src/geometry.js';
import { RoutingKernel, type EdgePath, type EdgePosition, type EdgeWeights, type RoutingKernelOptions } from '../geo-wasm/src/routing.js';
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import type { AnalyzeInput, AnalyzeOutput } from '../contracts/line-tasks.js';
import {
  type DirectionsInput,
  type DirectionsOutput,
  type IsochroneInput,
  type IsochroneOutput,
  MAX_ALTERNATIVES,
  MAX_ISOCHRONE_RANGES,
  MAX_ISOCHRONE_SECONDS,
  type LonLat,
  type MeasuredLine,
  type ReachableInput,
  type ReachableOutput,
  type RouteResult,
  type SnapInput,
  type SnapLineInput,
  type SnapLineOutput,
  type SnapOutput,
} from '../contracts/routing.js';
import { HAZARD_BITS, isActivity, profileFor, type Profile } from './profiles.js';
import type { Activity } from '../contracts/activity.js';
import { isochronePolygons } from './isochrone.js';
import { findAlternatives, type Legs } from './alternatives.js';
import { kernelValue, RECORDED_GAIN } from './line-geometry.js';
import { LineBuilder, measureLine } from './route-line.js';
import { edgeWeights, fastestSpeed, type PreparedRouting } from './routing-prep.js';

export interface RouteEngineOptions {
  /** Farthest a waypoint may be from the network (m). */
  maxSnapDistance: number;
  /** Farthest a drawn line may be from an edge to be matched to it (m). */
  matchDistance: number;
  /** Spacing of the points a freehand line is re-routed through (m). */
  snapLineSpacing: number;
  kernel: Partial<RoutingKernelOptions>;
  /** Told whenever an activity is prepared on its first use rather than taken prepared (routing-prep.ts). */
  onPrepare?: (activity: Activity, ms: number) => void;
}

const DEFAULTS: RouteEngineOptions = { maxSnapDistance: 1000, matchDistance: 20, snapLineSpacing: 150, kernel: {} };

interface Prepared {
  profile: Profile;
  /** The profile's costs and hazards per edge, computed when asked. */
  weights: EdgeWeights;
  /** Fastest edge speed (m/s), computed on first use. */
  fastest?: number;
}

export class RouteEngine {
  readonly kernel: RoutingKernel;
  private readonly prepared = new Map<Activity, Prepared>();
  private readonly opts: RouteEngineOptions;
  /** Activities this engine prepared itself on first use (none when every activity came prepared). */
  preparedOnUse = 0;

  /**
   * With `prepared` (routing.bin, or prepareRouting for the demo region) the kernel takes the core graph and
   * every activity's arrays as they are: nothing is computed here or on a request. Without it, each activity is
   * prepared on its first use.
   */
  constructor(
    readonly graph: RegionGraph,
    readonly dem: DemGrid | null,
    options: Partial<RouteEngineOptions> = {},
    prepared?: PreparedRouting,
  ) {
    this.opts = { ...DEFAULTS, ...options };
    this.kernel = RoutingKernel.create(graph, this.opts.kernel, prepared?.core);
    for (const a of prepared?.activities.values() ?? []) {
      this.kernel.addPreparedProfile(a.profileId, a.profile, a.weights, a.masks);
      this.prepared.set(a.activity, { profile: profileFor(a.activity), weights: a.weights, fastest: a.fastest });
    }
  }

  /** The profile's weights, registered with the kernel on first use (landmarks included) unless prepared. */
  prepare(activity: Activity): Prepared {
    let p = this.prepared.get(activity);
    if (!p) {
      const t0 = performance.now();
      const profile = profileFor(activity);
      p = { profile, weights: edgeWeights(this.graph, profile) };
      this.kernel.addProfile(profile.id, p.weights);
      this.kernel.prepareMask(profile.id, HAZARD_BITS.TOLLWAY | HAZARD_BITS.RESTRICTED_ACCESS);
      this.prepared.set(activity, p);
      this.preparedOnUse++;
      this.opts.onPrepare?.(activity, performance.now() - t0);
    }
    return p;
  }

  directions(input: DirectionsInput): DirectionsOutput | TaskFailure {
    if (!isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
    const wps = input.waypoints;
    if (!Array.isArray(wps) || wps.length < 2 || wps.length > 50) {
      return failure('bad_input', 'waypoints must hold 2 to 50 points', ['input', 'waypoints']);
    }
    const wanted = input.alternatives ?? 0;
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > MAX_ALTERNATIVES) {
      return failure('bad_input', `alternatives must be 0 to ${MAX_ALTERNATIVES}`, ['input', 'alternatives']);
    }
    let mask = 0;
    for (const [i, h] of (input.avoid ?? []).entries()) {
      const bit = HAZARD_BITS[h];
      if (bit === undefined) return failure('bad_input', 'unknown hazard', ['input', 'avoid', i]);
      mask |= bit;
    }
    const p = this.prepare(input.activity);
    const snaps: (EdgePosition & { lon: number; lat: number; distance: number })[] = [];
    for (const [i, wp] of wps.entries()) {
      const s = this.kernel.snap(wp[0], wp[1], this.opts.maxSnapDistance, p.profile.id);
      if (!s) return failure('off_network', 'waypoint is not near any way this activity may use', ['input', 'waypoints', i]);
      snaps.push(s);
    }
    const first = this.routeLegs(snaps, p, 0);
    if (typeof first === 'number') {
      return failure('unroutable', `no route to waypoint ${first + 1}`, ['input', 'waypoints', first + 1]);
    }
    let legs = first;
    let avoidance: RouteResult['avoidance'] = 'NOT_NEEDED';
    if (mask !== 0 && legs.some((leg) => crosses(leg, p.weights, mask))) {
      const second = this.routeLegs(snaps, p, mask);
      if (typeof second === 'number') avoidance = 'NO_ROUTE';
      else {
        legs = second;
        avoidance = 'APPLIED';
      }
    }
    const primary: Legs = { legs, avoidance };
    const alternatives = findAlternatives({
      kernel: this.kernel,
      primary,
      count: wanted,
      mask,
      routeLegs: (penalty, m) => this.routeLegsPenalised(snaps, p, m, penalty),
      costOf: (ls) => ls.reduce((sum, leg) => sum + pathCost(leg, p.weights), 0),
      crosses: (ls, m) => ls.some((leg) => crosses(leg, p.weights, m)),
    });
    const snapped = snaps.map((s) => ({ lon: s.lon, lat: s.lat, distance: s.distance }));
    const routes = [primary, ...alternatives].map((route): RouteResult => {
      const line = new LineBuilder();
      for (const leg of route.legs) this.appendPath(line, leg, p);
      if (line.pointCount === 0) this.startAt(line, snaps[0]!);
      return { ...measureLine(this.graph, line, p.profile, p.weights), avoidance: route.avoidance, snapped };
    });
    return { ok: true, routes };
  }

  /** Routes consecutive snapped points under an alternatives penalty; null when a leg has no route. */
  private routeLegsPenalised(snaps: EdgePosition[], p: Prepared, mask: number, penalty: Float32Array): EdgePath[] | null {
    const legs: EdgePath[] = [];
    for (let i = 0; i + 1 < snaps.length; i++) {
      const leg = this.kernel.routePenalised(snaps[i]!, snaps[i + 1]!, p.profile.id, mask, penalty);
      if (!leg) return null;
      legs.push(leg);
    }
    return legs;
  }

  /**
   * The route through `points` (each snapped to the nearest way the activity may use) that never takes an
   * edge with a hazard of `mask`, measured, with the edges it runs on; null when a point snaps nowhere or a
   * leg has no such route. The building block of route suggestions (./suggestions.ts).
   */
  measuredRoute(points: readonly LonLat[], activity: Activity, mask: number): { route: MeasuredLine; edges: number[] } | null {
    const p = this.prepare(activity);
    const snaps: EdgePosition[] = [];
    for (const [lon, lat] of points) {
      const s = this.kernel.snap(lon, lat, this.opts.maxSnapDistance, p.profile.id);
      if (!s) return null;
      snaps.push(s);
    }
    const legs = this.routeLegs(snaps, p, mask);
    if (typeof legs === 'number') return null;
    const line = new LineBuilder();
    for (const leg of legs) this.appendPath(line, leg, p);
    if (line.pointCount === 0) this.startAt(line, snaps[0]!);
    return { route: measureLine(this.graph, line, p.profile, p.weights), edges: legs.flatMap((leg) => [...leg.edges]) };
  }

  /** Routes consecutive snapped points; returns the failing leg index when one has no route. */
  private routeLegs(snaps: EdgePosition[], p: Prepared, mask: number): EdgePath[] | number {
    const legs: EdgePath[] = [];
    for (let i = 0; i + 1 < snaps.length; i++) {
      const leg = this.kernel.route(snaps[i]!, snaps[i + 1]!, p.profile.id, mask);
      if (!leg) return i;
      legs.push(leg);
    }
    return legs;
  }

  /** Route between two graph nodes (benchmarks and tests): leaves and reaches the nodes exactly. */
  routeNodes(from: number, to: number, activity: Activity, mask = 0): EdgePath | null {
    const p = this.prepare(activity);
    const a = this.nodePosition(from);
    const b = this.nodePosition(to);
    if (!a || !b) return null;
    const path = this.kernel.route(a, b, p.profile.id, 0);
    if (!path || mask === 0 || !crosses(path, p.weights, mask)) return path;
    return this.kernel.route(a, b, p.profile.id, mask);
  }

  private nodePosition(v: number): EdgePosition | null {
    const g = this.graph;
    const out = outEdges(g, v);
    return out.length === 0 ? null : { edge: out[0]!, fraction: 0 };
  }

  /** Snaps a freehand line to the network, keeping its exact first and last coordinates. */
  snapLine(input: SnapLineInput): SnapLineOutput | TaskFailure {
    if (!isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
    const coords = input.coordinates;
    if (!Array.isArray(coords) || coords.length < 2)
      return failure('bad_input', 'a line needs at least 2 points', ['input', 'coordinates']);
    const p = this.prepare(input.activity);
    // Re-route through points of the line spaced by snapLineSpacing (at most 50).
    const cum = kernelValue(cumulativeDistances(flatLonLat(coords), 2));
    const total = cum[cum.length - 1]!;
    const spacing = Math.max(this.opts.snapLineSpacing, total / 49);
    const picks: LonLat[] = [coords[0]!];
    let next = spacing;
    for (let i = 1; i < coords.length - 1; i++) {
      if (cum[i]! >= next && total - cum[i]! >= spacing / 2) {
        picks.push(coords[i]!);
        next = cum[i]! + spacing;
      }
    }
    picks.push(coords[coords.length - 1]!);
    const snaps: (EdgePosition & { lon: number; lat: number })[] = [];
    for (const [i, c] of picks.entries()) {
      const s = this.kernel.snap(c[0], c[1], this.opts.maxSnapDistance, p.profile.id);
      if (s) snaps.push(s);
      else if (i === 0 || i === picks.length - 1) {
        return failure('off_network', 'the line does not start or end near a way', [
          'input',
          'coordinates',
          i === 0 ? 0 : coords.length - 1,
        ]);
      }
    }
    const legs = this.routeLegs(snaps, p, 0);
    if (typeof legs === 'number') return failure('unroutable', 'the line cannot be routed on the network', ['input', 'coordinates']);
    const line = new LineBuilder();
    const [lon0, lat0] = coords[0]!;
    line.start(lon0, lat0, this.elevation(lon0, lat0));
    const s0 = snaps[0]!;
    this.connector(line, s0.lon, s0.lat, this.pointEle(s0), p);
    for (const leg of legs) this.appendPath(line, leg, p);
    const [lon1, lat1] = coords[coords.length - 1]!;
    this.connector(line, lon1, lat1, this.elevation(lon1, lat1), p);
    return { ok: true, route: measureLine(this.graph, line, p.profile, p.weights) };
  }

  /** Matches a drawn line to the network: advisories, difficulty, distance, ascent, descent. */
  analyze(input: AnalyzeInput): AnalyzeOutput | TaskFailure {
    if (!isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
    const coords = input.coordinates;
    if (!Array.isArray(coords) || coords.length < 2) return failure('bad_input', 'a line needs at least 2 points', ['input', 'geometry']);
    const p = this.prepare(input.activity);
    const flat = flatLonLat(coords);
    const matched = this.kernel.matchLine(flat, this.opts.matchDistance);
    const cum = kernelValue(cumulativeDistances(flat, 2));
    // DEM elevation at every point; where the DEM has none, the previous point's (0 at the start).
    const ele = this.elevations(flat);
    // The profile as the DEM gives it (null where it has no value), before the gaps are filled for measuring.
    const elevationProfile = Array.from(ele, (e, i) => ({ distance: cum[i]!, elevation: Number.isFinite(e) ? e : null }));
    for (let i = 0; i < ele.length; i++) if (!Number.isFinite(ele[i])) ele[i] = i > 0 ? ele[i - 1]! : 0;
    const line = new LineBuilder();
    line.start(coords[0]![0], coords[0]![1], ele[0]!);
    let matchedLength = 0;
    for (let i = 1; i < coords.length; i++) {
      const [lon, lat] = coords[i]!;
      const len = cum[i]! - cum[i - 1]!;
      const e = matched[i - 1]!;
      const rise = ele[i]! - ele[i - 1]!;
      const hw = e >= 0 ? edgeHighway(this.graph, e) : 0;
      const speed = p.profile.speed(len > 0 ? Math.max(-1, Math.min(1, rise / len)) : 0, hw, true);
      if (e >= 0) matchedLength += len;
      line.segment(lon, lat, ele[i]!, e, len, Math.max(0, rise), Math.max(0, -rise), len / speed);
    }
    const m = measureLine(this.graph, line, p.profile, p.weights);
    // Ascent and descent of the whole profile from the kernel; each piece's rise above only sets its speed.
    const { ascent, descent } = kernelValue(elevationGain(ele, cum, RECORDED_GAIN));
    const matchedFraction = m.distance > 0 ? matchedLength / m.distance : 0;
    return { ok: true, analysis: { ...m, ascent, descent, matchedFraction, elevationProfile } };
  }

  reachable(input: ReachableInput): ReachableOutput | TaskFailure {
    if (!isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
    if (!(input.budget > 0) || input.budget > 86_400) return failure('bad_input', 'budget must be 1 s to 24 h', ['input', 'ranges']);
    const p = this.prepare(input.activity);
    const s = this.kernel.snap(input.center[0], input.center[1], this.opts.maxSnapDistance, p.profile.id);
    if (!s) return { ok: true, center: null, points: [] };
    const { nodes, times } = this.kernel.reachable(s, p.profile.id, input.budget);
    const points = new Array<number>(nodes.length * 3);
    for (let i = 0; i < nodes.length; i++) {
      const v = nodes[i]!;
      points[i * 3] = lonOf(this.graph, v);
      points[i * 3 + 1] = latOf(this.graph, v);
      points[i * 3 + 2] = times[i]!;
    }
    return { ok: true, center: [s.lon, s.lat], points };
  }

  /**
   * Isochrones: one Dijkstra to the largest range, then a nested polygon per range (./isochrone.ts). The
   * circle of `reachFactor` uses the fastest speed the profile reaches on any edge of this region.
   */
  isochrone(input: IsochroneInput): IsochroneOutput | TaskFailure {
    const ranges = input.ranges;
    if (!Array.isArray(ranges) || ranges.length === 0 || ranges.length > MAX_ISOCHRONE_RANGES)
      return failure('bad_input', `1 to ${MAX_ISOCHRONE_RANGES} ranges`, ['input', 'ranges']);
    for (const [i, r] of ranges.entries())
      if (!Number.isInteger(r) || r < 1 || r > MAX_ISOCHRONE_SECONDS)
        return failure('bad_input', `a range is 1 to ${MAX_ISOCHRONE_SECONDS} whole seconds`, ['input', 'ranges', i]);
    const reached = this.reachable({ activity: input.activity, center: input.center, budget: Math.max(...ranges) });
    if (!reached.ok) return reached;
    // A start that snaps nowhere reaches nothing: each range still answers, with an empty polygon and no center.
    const polygons = isochronePolygons(reached.center ?? input.center, reached.points, ranges, this.fastestSpeed(input.activity));
    return { ok: true, center: reached.center, isochrones: polygons };
  }

  /** The fastest speed (m/s) the activity's profile gives any edge of this region. */
  private fastestSpeed(activity: Activity): number {
    const p = this.prepare(activity);
    p.fastest ??= fastestSpeed(this.graph, p.weights);
    return p.fastest;
  }

  snap(input: SnapInput): SnapOutput | TaskFailure {
    if (!isActivity(input.activity)) return failure('bad_input', 'unknown activity', ['input', 'activity']);
    const p = this.prepare(input.activity);
    const s = this.kernel.snap(input.point[0], input.point[1], this.opts.maxSnapDistance, p.profile.id);
    if (!s) return failure('off_network', 'no way near this point', ['input', 'point']);
    return { ok: true, point: [s.lon, s.lat], distance: s.distance, osmWayId: this.graph.wayOsmId[wayOf(this.graph, s.edge)]! };
  }

  /** Appends an EdgePath's pieces (skipping zero-length ones) to a line. */
  appendPath(line: LineBuilder, path: EdgePath, p: Prepared): void {
    const g = this.graph;
    const n = path.edges.length;
    for (let i = 0; i < n; i++) {
      const e = path.edges[i]!;
      const from = i === 0 ? path.startFraction : 0;
      const to = i === n - 1 ? path.endFraction : 1;
      if (line.pointCount === 0) this.startAt(line, { edge: e, fraction: from });
      if (!(to > from)) continue;
      const part = to - from;
      // The piece's ends found once (a chain lookup) for its point, length and climb.
      const [a, b] = edgeEnds(g, e);
      const [lon, lat, ele] = pointBetween(g, a, b, to);
      const rise = nodeRise(g, a, b) * part;
      line.segment(lon, lat, ele, e, nodeDistance(g, a, b) * part, Math.max(0, rise), Math.max(0, -rise), p.weights.cost(e) * part);
    }
  }

  private startAt(line: LineBuilder, pos: EdgePosition): void {
    const [lon, lat, ele] = this.pointOn(pos.edge, pos.fraction);
    line.start(lon, lat, ele);
  }

  /** A straight connector (off the network) from the line's end to (lon, lat). */
  private connector(line: LineBuilder, lon: number, lat: number, ele: number, p: Prepared): void {
    const c = line.coords;
    const plon = c[c.length - 3]!;
    const plat = c[c.length - 2]!;
    const pele = c[c.length - 1]!;
    const len = kernelValue(lineLength(new Float64Array([plon, plat, lon, lat]), 2));
    if (len === 0) return;
    const rise = ele - pele;
    const speed = p.profile.speed(Math.max(-1, Math.min(1, rise / len)), 0, true);
    line.segment(lon, lat, ele, -1, len, Math.max(0, rise), Math.max(0, -rise), len / speed);
  }

  private pointOn(e: number, f: number): [number, number, number] {
    const [a, b] = edgeEnds(this.graph, e);
    return pointBetween(this.graph, a, b, f);
  }

  private pointEle(pos: EdgePosition): number {
    return this.pointOn(pos.edge, pos.fraction)[2];
  }

  /** DEM elevations (m) at flat lon,lat points; NaN where no DEM covers them. */
  private elevations(flat: Float64Array): Float64Array {
    return this.dem ? kernelValue(sampleDem(this.dem, flat, 2)) : new Float64Array(flat.length / 2).fill(Number.NaN);
  }

  /** DEM elevation (m) at a point; 0 where no DEM covers it. */
  private elevation(lon: number, lat: number): number {
    const v = this.elevations(new Float64Array([lon, lat]))[0]!;
    return Number.isFinite(v) ? v : 0;
  }
}

/** [lon, lat] pairs as flat lon,lat (degrees), the kernels' input. */
function flatLonLat(coords: readonly LonLat[]): Float64Array {
  const flat = new Float64Array(coords.length * 2);
  coords.forEach((c, i) => {
    flat[i * 2] = c[0];
    flat[i * 2 + 1] = c[1];
  });
  return flat;
}

/** Unpenalised cost (s) of a path under a profile's edge costs. */
function pathCost(path: EdgePath, weights: EdgeWeights): number {
  const n = path.edges.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const from = i === 0 ? path.startFraction : 0;
    const to = i === n - 1 ? path.endFraction : 1;
    if (to > from) sum += weights.cost(path.edges[i]!) * (to - from);
  }
  return sum;
}

function crosses(path: EdgePath, weights: EdgeWeights, mask: number): boolean {
  const n = path.edges.length;
  for (let i = 0; i < n; i++) {
    const from = i === 0 ? path.startFraction : 0;
    const to = i === n - 1 ? path.endFraction : 1;
    if (to > from && (weights.hazard(path.edges[i]!) & mask) !== 0) return true;
  }
  return false;
}

/** The point at fraction f from node a to node b: lon, lat and elevation (0 where either node has none). */
function pointBetween(g: RegionGraph, a: number, b: number, f: number): [number, number, number] {
  const ea = g.nodeEle[a]!;
  const eb = g.nodeEle[b]!;
  return [
    lonOf(g, a) + (lonOf(g, b) - lonOf(g, a)) * f,
    latOf(g, a) + (latOf(g, b) - latOf(g, a)) * f,
    Number.isNaN(ea) || Number.isNaN(eb) ? 0 : ea + (eb - ea) * f,
  ];
}
