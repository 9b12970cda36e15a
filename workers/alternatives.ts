// Alternative routes by the penalty method: every chain the routes found so far run on is made more
// expensive, the waypoints are routed again, and a candidate is kept only when it is really another way
// (at least MIN_DIFFERENCE of its length off every route kept) and not absurdly long (MAX_STRETCH of the
// first route's cost). Each alternative follows the same avoidance rule as the first route: a second,
// masked pass only when it crosses an avoided hazard. See docs/routing.md, "Alternatives".
import type { EdgePath, RoutingKernel } from '../geo-wasm/src/routing.js';
import type { AvoidanceOutcome } from '../contracts/routing.js';
import { edgeLength } from '../data/region/region-graph.js';

/** Fraction of a candidate's length that must lie off every route already kept (the contract's 20%). */
export const MIN_DIFFERENCE = 0.2;
/** Most an alternative may cost (travel time) relative to the first route. */
export const MAX_STRETCH = 1.5;
/** Factor applied to a chain's cost each time a route found so far runs on it. */
const PENALTY_FACTOR = 1.4;
/** Candidates tried per alternative asked for (each try penalises what it found). */
const TRIES_PER_ALTERNATIVE = 3;

export interface Legs {
  legs: EdgePath[];
  avoidance: AvoidanceOutcome;
}

export interface AlternativeSearch {
  kernel: RoutingKernel;
  /** The first route, already decided (with its avoidance outcome). */
  primary: Legs;
  /** Alternatives wanted (the result may hold fewer). */
  count: number;
  /** Avoided hazard bits (0 when nothing is avoided). */
  mask: number;
  /** Routes every leg under the penalty and mask; null when a leg has no route. */
  routeLegs(penalty: Float32Array, mask: number): EdgePath[] | null;
  /** Unpenalised cost (s) of a route. */
  costOf(legs: EdgePath[]): number;
  /** True when a route crosses an edge carrying one of the mask's hazards. */
  crosses(legs: EdgePath[], mask: number): boolean;
}

/** Up to `count` alternatives to the first route, cheapest first. */
export function findAlternatives(search: AlternativeSearch): Legs[] {
  const { kernel, primary, count, mask } = search;
  if (count <= 0) return [];
  const penalty = kernel.newPenalty();
  const penalise = (legs: EdgePath[]) => {
    for (const leg of legs) kernel.penalisePath(penalty, leg, PENALTY_FACTOR);
  };
  penalise(primary.legs);
  const maxCost = search.costOf(primary.legs) * MAX_STRETCH;
  const kept: Legs[] = [];
  const keptEdges = [undirectedLengths(search, primary.legs)];
  for (let tries = 0; tries < count * TRIES_PER_ALTERNATIVE && kept.length < count; tries++) {
    const found = search.routeLegs(penalty, 0);
    if (!found) break;
    // Whatever this try found is penalised too, so that the next one looks elsewhere.
    penalise(found);
    let candidate: Legs = { legs: found, avoidance: 'NOT_NEEDED' };
    if (mask !== 0 && search.crosses(found, mask)) {
      const around = search.routeLegs(penalty, mask);
      candidate = around ? { legs: around, avoidance: 'APPLIED' } : { legs: found, avoidance: 'NO_ROUTE' };
    }
    if (search.costOf(candidate.legs) > maxCost) continue;
    const edges = undirectedLengths(search, candidate.legs);
    if (!keptEdges.every((other) => differs(edges, other) && differs(other, edges))) continue;
    kept.push(candidate);
    keptEdges.push(edges);
  }
  return kept.sort((a, b) => search.costOf(a.legs) - search.costOf(b.legs));
}

/** Length (m) a route covers on each piece, keyed by the piece (edge >> 1: an edge and its twin). */
function undirectedLengths(search: AlternativeSearch, legs: EdgePath[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const leg of legs) {
    const n = leg.edges.length;
    for (let i = 0; i < n; i++) {
      const e = leg.edges[i]!;
      const from = i === 0 ? leg.startFraction : 0;
      const to = i === n - 1 ? leg.endFraction : 1;
      if (!(to > from)) continue;
      const key = e >>> 1;
      out.set(key, (out.get(key) ?? 0) + edgeLength(search.kernel.graph, e) * (to - from));
    }
  }
  return out;
}

/** True when at least MIN_DIFFERENCE of `candidate`'s length lies off `other` (checked both ways by the caller). */
export function differs(candidate: Map<number, number>, other: Map<number, number>): boolean {
  let total = 0;
  let shared = 0;
  for (const [edge, length] of candidate) {
    total += length;
    shared += Math.min(length, other.get(edge) ?? 0);
  }
  return total > 0 && total - shared >= MIN_DIFFERENCE * total;
}
