// Measures a line made of segments that may lie on graph edges: totals, advisories (toll,
// restricted, permissive) with index and distance ranges, and sac_scale difficulty stretches.
import type { RegionGraph } from '../data/region/region-graph.js';
import type { Advisory, AdvisoryKind, Difficulty, DifficultyStretch, MeasuredLine } from '../contracts/routing.js';
import { ACCESS_NAMES, edgeAccess, Hazard, type Profile } from './profiles.js';
import type { EdgeWeights } from '../geo-wasm/src/routing-prepare.js';
import { edgeSac, wayOf } from '../data/region/region-graph.js';

/**
 * A line under construction: points (lon, lat, ele) and, per segment, its edge (-1 = off network) and measures.
 * The per-segment columns are typed arrays grown by doubling (a cross-country route has ~25,000 segments).
 */
export class LineBuilder {
  readonly coords: number[] = [];
  private edges = new Int32Array(64);
  /** Per segment: length (m), ascent (m), descent (m), duration (s). */
  private measures = new Float64Array(4 * 64);
  private count = 0;

  get pointCount(): number {
    return this.coords.length / 3;
  }

  get segmentCount(): number {
    return this.count;
  }

  /** Adds a point; the first call starts the line, later calls need the segment that leads to it. */
  start(lon: number, lat: number, ele: number): void {
    this.coords.push(lon, lat, ele);
  }

  segment(lon: number, lat: number, ele: number, edge: number, length: number, ascent: number, descent: number, duration: number): void {
    this.coords.push(lon, lat, ele);
    const i = this.count++;
    if (i === this.edges.length) {
      const edges = new Int32Array(i * 2);
      edges.set(this.edges);
      this.edges = edges;
      const measures = new Float64Array(i * 8);
      measures.set(this.measures);
      this.measures = measures;
    }
    this.edges[i] = edge;
    const m = this.measures;
    m[4 * i] = length;
    m[4 * i + 1] = ascent;
    m[4 * i + 2] = descent;
    m[4 * i + 3] = duration;
  }

  edge(i: number): number {
    return this.edges[i]!;
  }
  length(i: number): number {
    return this.measures[4 * i]!;
  }
  ascent(i: number): number {
    return this.measures[4 * i + 1]!;
  }
  descent(i: number): number {
    return this.measures[4 * i + 2]!;
  }
  duration(i: number): number {
    return this.measures[4 * i + 3]!;
  }
}

const DIFFICULTIES: readonly Difficulty[] = ['UNKNOWN', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6'];

const ADVISORY_BITS = Hazard.Toll | Hazard.Restricted | Hazard.Permissive;

/**
 * Advisories of piece `i` (on edge `e`, hazard bits `h`, from `from` to `to` metres along the line): an open
 * advisory of the same kind on the same way grows, one that stops here closes, a new kind opens one.
 */
function trackAdvisories(
  g: RegionGraph,
  e: number,
  h: number,
  i: number,
  from: number,
  to: number,
  profile: Profile,
  open: Map<AdvisoryKind, Advisory>,
  advisories: Advisory[],
): void {
  const way = e >= 0 ? wayOf(g, e) : -1;
  const kinds: AdvisoryKind[] = [];
  if (h & Hazard.Toll) kinds.push('TOLLWAY');
  if (h & Hazard.Restricted) kinds.push('RESTRICTED_ACCESS');
  if (h & Hazard.Permissive) kinds.push('PERMISSIVE');
  for (const [kind, adv] of open) {
    if (!kinds.includes(kind) || g.wayOsmId[way] !== adv.osmWayId) open.delete(kind);
  }
  for (const kind of kinds) {
    const cur = open.get(kind);
    if (cur) {
      cur.toIndex = i + 1;
      cur.toDistance = to;
      continue;
    }
    const access = edgeAccess(g, e, profile.mode);
    const adv: Advisory = {
      kind,
      access: ACCESS_NAMES[access],
      isRestriction: kind !== 'PERMISSIVE',
      osmWayId: g.wayOsmId[way]!,
      fromIndex: i,
      toIndex: i + 1,
      fromDistance: from,
      toDistance: to,
    };
    advisories.push(adv);
    open.set(kind, adv);
  }
}

/** Totals, advisories and difficulty stretches of a built line, for one profile's hazards. */
export function measureLine(g: RegionGraph, line: LineBuilder, profile: Profile, weights: EdgeWeights): MeasuredLine {
  let distance = 0;
  let duration = 0;
  let ascent = 0;
  let descent = 0;
  const advisories: Advisory[] = [];
  const open = new Map<AdvisoryKind, Advisory>();
  const stretches: DifficultyStretch[] = [];
  const n = line.segmentCount;
  for (let i = 0; i < n; i++) {
    const e = line.edge(i);
    const from = distance;
    distance += line.length(i);
    duration += line.duration(i);
    ascent += line.ascent(i);
    descent += line.descent(i);
    const h = e >= 0 ? weights.hazard(e) & ADVISORY_BITS : 0;
    // Most pieces carry no advisory and none is open: nothing to track.
    if (h !== 0 || open.size > 0) trackAdvisories(g, e, h, i, from, distance, profile, open, advisories);
    const difficulty = e >= 0 ? (DIFFICULTIES[edgeSac(g, e)] ?? 'UNKNOWN') : 'UNKNOWN';
    const last = stretches[stretches.length - 1];
    if (last && last.difficulty === difficulty) {
      last.toDistance = distance;
      last.toIndex = i + 1;
    } else {
      stretches.push({ difficulty, fromDistance: from, toDistance: distance, fromIndex: i, toIndex: i + 1 });
    }
  }
  return { distance, duration, ascent, descent, coordinates: line.coords, advisories, trailDifficultyInfo: stretches };
}
