// Routing prepared ahead of any request: for every activity, its edge costs and hazards, chain sums, components,
// fastest speed, and per avoid mask the contraction hierarchy and masked components. The import computes it and
// writes it into the region folder as routing.bin (data/region/prepare-routing.ts); a worker reads it back with
// views and hands it to its RouteEngine, and prepares it itself at load only for the demo region or a folder
// without (or with a stale) routing.bin. The engine without it prepares lazily, the way the same functions do here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVITIES, type Activity } from '../contracts/activity.js';
import { edgeLength, type RegionGraph } from '../data/region/region-graph.js';
import { REGION_FILES } from '../data/region/region-folder.js';
import type { Hierarchy } from '../geo-wasm/src/routing-ch.js';
import {
  coreFromSections,
  coreSections,
  decodeSections,
  encodeSections,
  maskFromSections,
  maskSections,
  profileFromSections,
  profileSections,
  RoutingFileError,
  section,
  type Sections,
} from '../geo-wasm/src/routing-file.js';
import {
  type CoreLinks,
  type CoreWeights,
  type EdgeWeights,
  maskedComponents,
  type PreparedCore,
  type PreparedMask,
  type PreparedProfile,
  prepareCore,
  prepareProfile,
  profileHierarchy,
} from '../geo-wasm/src/routing-prepare.js';
import { edgeCost, edgeHazard, HAZARD_BITS, pavedSurfaces, type Profile, profileFor } from './profiles.js';

/**
 * A profile's weights over a graph, computed per
 * edge when asked: travel time (s, as a float32, Infinity where the profile may not go) and hazard bits. The kernel
 * and the engine read them along routes and the chains of a query's ends, so no array per profile and edge is held.
 */
export function edgeWeights(g: RegionGraph, p: Profile): EdgeWeights {
  const paved = pavedSurfaces(g);
  return { cost: (e) => Math.fround(edgeCost(g, p, e, paved)), hazard: (e) => edgeHazard(g, p, e) };
}

/** The file's name in a region folder. */
export const ROUTING_FILE = REGION_FILES.routing;

/** Snapping grid cell (degrees) the engine's kernel uses unless told otherwise (RoutingKernel's default). */
export const DEFAULT_CELL_DEG = 0.0025;

/** Every avoid mask a request can ask for: each combination of the hazards the API avoids (0 = none). */
export const AVOID_MASKS: readonly number[] = (() => {
  const bits = Object.values(HAZARD_BITS);
  const masks = new Set<number>([0]);
  for (const b of bits) for (const m of [...masks]) masks.add(m | b);
  return [...masks].sort((a, b) => a - b);
})();

/** One activity, ready for its first request. */
export interface PreparedActivity {
  activity: Activity;
  profileId: number;
  profile: PreparedProfile;
  /** The profile's costs and hazards per original edge (computed when asked, never stored). */
  weights: EdgeWeights;
  /** What queries under each of AVOID_MASKS use (masks that remove the same edges share one object). */
  masks: Map<number, PreparedMask>;
  /** Fastest speed (m/s) the profile gives any edge (isochrone reach). */
  fastest: number;
}

export interface PreparedRouting {
  core: PreparedCore;
  activities: Map<Activity, PreparedActivity>;
}

/** An activity's cheap part (weights, chain sums, components, fastest speed); its hierarchies are added later. */
export interface ActivityPlan {
  activity: Activity;
  profileId: number;
  profile: PreparedProfile;
  weights: EdgeWeights;
  fastest: number;
  /**
   * Each avoid mask → the mask whose hierarchy it uses: the mask with the hazard bits no core edge of this profile
   * carries left out, so masks that remove the same edges share one hierarchy.
   */
  effective: Map<number, number>;
}

/** A plan once its weights are written: what its hierarchies and masked components read (core-graph arrays only). */
export interface CorePlan extends Omit<ActivityPlan, 'profile'> {
  profile: CoreWeights;
}

/** The fastest speed (m/s) a profile's costs give any edge. */
export function fastestSpeed(graph: RegionGraph, weights: EdgeWeights): number {
  let fastest = 0;
  for (let e = 0; e < graph.edgeCount; e++) {
    const c = weights.cost(e);
    if (c > 0 && Number.isFinite(c)) fastest = Math.max(fastest, edgeLength(graph, e) / c);
  }
  return fastest;
}

/** Weights, chain sums and components of an activity, and which masks share a hierarchy. */
export function planActivity(graph: RegionGraph, core: PreparedCore, activity: Activity): ActivityPlan {
  const p = profileFor(activity);
  const weights = edgeWeights(graph, p);
  const profile = prepareProfile(graph, core, weights);
  let present = 0;
  for (const h of profile.coreHazard) present |= h;
  const effective = new Map(AVOID_MASKS.map((mask) => [mask, mask & present]));
  return { activity, profileId: p.id, profile, weights, fastest: fastestSpeed(graph, weights), effective };
}

/** The distinct masks whose hierarchies a plan needs. */
export function hierarchyMasks(plan: CorePlan): number[] {
  return [...new Set(plan.effective.values())].sort((a, b) => a - b);
}

/** The activity with its hierarchies (by effective mask) and masked components. */
export function finishActivity(core: CoreLinks, plan: ActivityPlan, hierarchies: ReadonlyMap<number, Hierarchy>): PreparedActivity {
  return {
    activity: plan.activity,
    profileId: plan.profileId,
    profile: plan.profile,
    weights: plan.weights,
    masks: activityMasks(core, plan, hierarchies),
    fastest: plan.fastest,
  };
}

/** Each avoid mask's hierarchy and masked components; masks with the same effect share one object. */
export function activityMasks(core: CoreLinks, plan: CorePlan, hierarchies: ReadonlyMap<number, Hierarchy>): Map<number, PreparedMask> {
  const shared = new Map<number, PreparedMask>();
  for (const mask of hierarchyMasks(plan)) {
    const hierarchy = hierarchies.get(mask);
    if (!hierarchy) throw new TypeError(`routing: no hierarchy for ${plan.activity} under mask ${mask}`);
    shared.set(mask, { hierarchy, component: maskedComponents(core, plan.profile, mask) });
  }
  return new Map([...plan.effective].map(([mask, eff]) => [mask, shared.get(eff)!]));
}

/** Prepares one activity in this thread. */
export function prepareActivity(graph: RegionGraph, core: PreparedCore, activity: Activity): PreparedActivity {
  const plan = planActivity(graph, core, activity);
  const hierarchies = new Map(hierarchyMasks(plan).map((mask) => [mask, profileHierarchy(core, plan.profile, mask)]));
  return finishActivity(core, plan, hierarchies);
}

/** Prepares everything in this thread (the demo region, or a region folder without routing.bin). */
export function prepareRouting(graph: RegionGraph, cellDeg = DEFAULT_CELL_DEG): PreparedRouting {
  const core = prepareCore(graph, cellDeg);
  return { core, activities: new Map(ACTIVITIES.map((a) => [a, prepareActivity(graph, core, a)])) };
}

/** routing.bin's bytes for a graph and what was prepared for it. */
export function encodePreparedRouting(graph: RegionGraph, prepared: PreparedRouting): Uint8Array {
  return encodeSections(preparedSections(graph, prepared));
}

/** The section listing the profile ids, between the activities' weights and their hierarchies. */
export const PROFILES_SECTION = 'profiles';

/**
 * routing.bin's sections for a graph and what was prepared for it (encodeSections or writeSections writes them), in
 * the order the import makes them: the core graph, each activity's weights, the profile ids, each activity's masks.
 */
export function preparedSections(graph: RegionGraph, prepared: PreparedRouting): Sections {
  const s: Sections = coreSections(prepared.core, graph.nodeCount, graph.edgeCount);
  for (const a of prepared.activities.values()) weightSections(a, graph.edgeCount, s);
  s.set(PROFILES_SECTION, Uint32Array.from([...prepared.activities.values()].map((a) => a.profileId)));
  for (const a of prepared.activities.values()) maskSetSections(a, s);
  return s;
}

/**
 * An activity's weights (its profile's arrays, fastest speed, and the costs and hazards of a sample of edges that
 * tell a stale file), added to `s`.
 */
export function weightSections(
  a: Pick<PreparedActivity, 'profileId' | 'profile' | 'weights' | 'fastest'>,
  edgeCount: number,
  s: Sections,
): Sections {
  const prefix = `p${a.profileId}`;
  profileSections(prefix, a.profile, s);
  s.set(`${prefix}.fastest`, new Float64Array([a.fastest]));
  s.set(`${prefix}.sample`, weightSample(a.weights, edgeCount));
  return s;
}

/** Edges sampled when a file is written and checked against the profiles when it is read. */
const CHECKED_EDGES = 512;

/** Cost and hazard bits of CHECKED_EDGES edges spread over the graph, in pairs: a profile changed since tells. */
function weightSample(weights: EdgeWeights, edgeCount: number): Float32Array {
  const k = Math.min(CHECKED_EDGES, edgeCount);
  const out = new Float32Array(2 * k);
  for (let i = 0; i < k; i++) {
    const e = Math.floor((i * edgeCount) / k);
    out[2 * i] = weights.cost(e);
    out[2 * i + 1] = weights.hazard(e);
  }
  return out;
}

/** An activity's hierarchies and masked components, once per distinct mask set, and which mask reads which. */
export function maskSetSections(a: Pick<PreparedActivity, 'profileId' | 'masks'>, s: Sections): Sections {
  const prefix = `p${a.profileId}`;
  // Pairs (mask, the mask whose sections it reads); the sections are written once per distinct object.
  const stored = new Map<PreparedMask, number>();
  const pairs: number[] = [];
  for (const [mask, m] of a.masks) {
    if (!stored.has(m)) {
      stored.set(m, mask);
      maskSections(`${prefix}.m${mask}`, mask, m, s);
    }
    pairs.push(mask, stored.get(m)!);
  }
  s.set(`${prefix}.masks`, Uint32Array.from(pairs));
  return s;
}

/**
 * What routing.bin holds, as views over `bytes` (no computation beyond checking a sample of edge costs against
 * the profiles). Throws RoutingFileError when the file is corrupt, of another version, made for another graph,
 * or stale (a profile changed since the import).
 */
export function decodePreparedRouting(graph: RegionGraph, bytes: Uint8Array): PreparedRouting {
  const s = decodeSections(bytes);
  const core = coreFromSections(s, graph.nodeCount, graph.edgeCount, graph.towerFirst);
  const ids = new Set(section(s, PROFILES_SECTION, Uint32Array));
  const activities = new Map<Activity, PreparedActivity>();
  for (const activity of ACTIVITIES) {
    const p = profileFor(activity);
    if (!ids.has(p.id)) continue;
    const prefix = `p${p.id}`;
    const profile = profileFromSections(s, prefix);
    if (profile.open.length !== (graph.edgeCount + 31) >>> 5) throw new RoutingFileError(`${prefix} is made for another graph`);
    const weights = edgeWeights(graph, p);
    const sample = section(s, `${prefix}.sample`, Float32Array);
    const now = weightSample(weights, graph.edgeCount);
    if (sample.length !== now.length || now.some((x, i) => !Object.is(x, sample[i]))) {
      throw new RoutingFileError(`the ${activity} profile changed since the import`);
    }
    const pairs = section(s, `${prefix}.masks`, Uint32Array);
    const byStored = new Map<number, PreparedMask>();
    const masks = new Map<number, PreparedMask>();
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const stored = pairs[i + 1]!;
      let pm = byStored.get(stored);
      if (!pm) {
        pm = maskFromSections(s, `${prefix}.m${stored}`, stored, profile);
        byStored.set(stored, pm);
      }
      masks.set(pairs[i]!, pm);
    }
    activities.set(activity, {
      activity,
      profileId: p.id,
      profile,
      weights,
      masks,
      fastest: section(s, `${prefix}.fastest`, Float64Array)[0]!,
    });
  }
  return { core, activities };
}

/**
 * Reads `dir`/routing.bin (or takes its bytes, `placed`, already read into the routing memory); null when the folder
 * has none (imported before routing was prepared at import).
 */
export function readPreparedRouting(dir: string, graph: RegionGraph, placed?: Uint8Array): PreparedRouting | null {
  if (placed) return decodePreparedRouting(graph, placed);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(dir, ROUTING_FILE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return decodePreparedRouting(graph, bytes);
}

/** The activities `prepared` lacks, prepared now in this thread (a file written before an activity existed). */
export function completePreparedRouting(graph: RegionGraph, prepared: PreparedRouting): Activity[] {
  const added: Activity[] = [];
  for (const a of ACTIVITIES) {
    if (prepared.activities.has(a)) continue;
    prepared.activities.set(a, prepareActivity(graph, prepared.core, a));
    added.push(a);
  }
  return added;
}
