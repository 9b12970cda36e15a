// Activity profiles: which edges each activity may use, how fast it moves on them, and which
// hazards (toll, restricted access, permissive) each edge carries for it. See docs/routing.md.
import {
  AccessClass,
  AccessMode,
  EdgeFlag,
  edgeAccessBits,
  edgeFlags,
  edgeHighway,
  edgeEnds,
  edgeSac,
  edgeSurface,
  HighwayClass,
  nodeDistance,
  nodeRise,
  type RegionGraph,
} from '../data/region/region-graph.js';
import { ACTIVITIES, Activity, type HazardName } from '../contracts/activity.js';

/** Hazard bits per edge and activity (also the `avoid` mask bits). */
export const Hazard = {
  Toll: 1,
  Restricted: 2,
  Permissive: 4, // reported, never avoided
} as const;

export const HAZARD_BITS: Readonly<Record<HazardName, number>> = { TOLLWAY: Hazard.Toll, RESTRICTED_ACCESS: Hazard.Restricted };

export interface Profile {
  activity: Activity;
  /** Kernel profile id. */
  id: number;
  /** Access tag family read (`foot` or `bicycle`, over `access`). */
  mode: AccessMode;
  /** Highway classes the activity may use. */
  highways: ReadonlySet<HighwayClass>;
  /** Highest sac_scale allowed (0 = no sac_scale-tagged way at all). */
  maxSac: number;
  /** Speed (m/s) on an edge of this slope (rise/run), highway and pavedness. */
  speed(slope: number, highway: HighwayClass, paved: boolean): number;
  /** Bikes may not ride the reverse direction of oneway roads. */
  respectsOneway: boolean;
}

const H = HighwayClass;
const ALL_BUT_FAST = [
  H.Path,
  H.Footway,
  H.Track,
  H.Steps,
  H.Bridleway,
  H.Cycleway,
  H.Pedestrian,
  H.LivingStreet,
  H.Residential,
  H.Service,
  H.Unclassified,
  H.Tertiary,
  H.Secondary,
  H.Primary,
  H.Road,
  H.Unknown,
];

/** Tobler's hiking function: km/h on a slope (rise/run), 6 km/h peak at -5%. */
export function toblerKmh(slope: number): number {
  return 6 * Math.exp(-3.5 * Math.abs(slope + 0.05));
}

function footSpeed(factor: number) {
  return (slope: number, highway: HighwayClass): number => {
    const kmh = toblerKmh(slope) * factor * (highway === H.Steps ? 0.7 : 1);
    return kmh / 3.6;
  };
}

/** Bike speed: flat speed slowed uphill (1 + 15·grade), faster downhill (capped), 4 km/h floor (pushing). */
export function bikeKmh(flatKmh: number, slope: number, downhillCap: number): number {
  const kmh = slope >= 0 ? flatKmh / (1 + 15 * slope) : Math.min(flatKmh * (1 + 4 * -slope), flatKmh * downhillCap);
  return Math.max(4, kmh);
}

const PROFILES: readonly Profile[] = [
  {
    activity: Activity.HIKING_AND_TRAIL,
    id: 0,
    mode: AccessMode.Foot,
    maxSac: 6,
    respectsOneway: false,
    highways: new Set(ALL_BUT_FAST),
    speed: footSpeed(1),
  },
  {
    activity: Activity.WALKING,
    id: 1,
    mode: AccessMode.Foot,
    maxSac: 2,
    respectsOneway: false,
    highways: new Set(ALL_BUT_FAST),
    speed: footSpeed(1),
  },
  {
    activity: Activity.TRAIL_RUNNING,
    id: 2,
    mode: AccessMode.Foot,
    maxSac: 4,
    respectsOneway: false,
    highways: new Set(ALL_BUT_FAST),
    speed: footSpeed(1.8),
  },
  {
    activity: Activity.MOUNTAIN_BIKING,
    id: 3,
    mode: AccessMode.Bicycle,
    maxSac: 3,
    respectsOneway: true,
    highways: new Set(ALL_BUT_FAST.filter((h) => h !== H.Steps && h !== H.Pedestrian)),
    speed: (slope, _hw, paved) => bikeKmh(paved ? 18 : 12, slope, 1.3) / 3.6,
  },
  {
    activity: Activity.ROAD_CYCLING,
    id: 4,
    mode: AccessMode.Bicycle,
    maxSac: 0,
    respectsOneway: true,
    highways: new Set([
      H.Track,
      H.Cycleway,
      H.LivingStreet,
      H.Residential,
      H.Service,
      H.Unclassified,
      H.Tertiary,
      H.Secondary,
      H.Primary,
      H.Road,
    ]),
    speed: (slope, _hw, paved) => bikeKmh(paved ? 25 : 10, slope, 1.6) / 3.6,
  },
];

export function profileFor(activity: Activity): Profile {
  const p = PROFILES.find((x) => x.activity === activity);
  if (!p) throw new TypeError(`unknown activity ${String(activity)}`);
  return p;
}

export function isActivity(value: unknown): value is Activity {
  return typeof value === 'string' && (ACTIVITIES as readonly string[]).includes(value);
}

const PAVED = new Set([
  'asphalt',
  'paved',
  'concrete',
  'concrete:plates',
  'concrete:lanes',
  'paving_stones',
  'sett',
  'chipseal',
  'metal',
  'wood',
]);
/** Highway classes presumed paved when no surface is tagged. */
const PAVED_BY_DEFAULT = new Set([
  H.Cycleway,
  H.LivingStreet,
  H.Residential,
  H.Service,
  H.Unclassified,
  H.Tertiary,
  H.Secondary,
  H.Primary,
  H.Trunk,
  H.Motorway,
  H.Pedestrian,
]);

/** Access values that make an edge RESTRICTED_ACCESS for the non-motorised modes routed here. */
export const RESTRICTED_CLASSES: ReadonlySet<AccessClass> = new Set([
  AccessClass.Private,
  AccessClass.Customers,
  AccessClass.Delivery,
  AccessClass.Permit,
  AccessClass.Destination,
  AccessClass.Agricultural,
  AccessClass.Forestry,
]);

export const ACCESS_NAMES: Readonly<Record<AccessClass, string>> = {
  [AccessClass.Yes]: 'yes',
  [AccessClass.Permissive]: 'permissive',
  [AccessClass.Destination]: 'destination',
  [AccessClass.Private]: 'private',
  [AccessClass.Customers]: 'customers',
  [AccessClass.Delivery]: 'delivery',
  [AccessClass.Permit]: 'permit',
  [AccessClass.Agricultural]: 'agricultural',
  [AccessClass.Forestry]: 'forestry',
  [AccessClass.No]: 'no',
};

/** Access class of edge e for a mode. */
export function edgeAccess(g: RegionGraph, e: number, mode: AccessMode): AccessClass {
  return ((edgeAccessBits(g, e) >> (4 * mode)) & 15) as AccessClass;
}

/** Hazard bits of edge e for a profile (toll, restricted, permissive). */
export function edgeHazard(g: RegionGraph, p: Profile, e: number): number {
  let h = 0;
  if (edgeFlags(g, e) & EdgeFlag.Toll) h |= Hazard.Toll;
  const a = edgeAccess(g, e, p.mode);
  if (RESTRICTED_CLASSES.has(a)) h |= Hazard.Restricted;
  else if (a === AccessClass.Permissive) h |= Hazard.Permissive;
  return h;
}

/** Whether each of the graph's surfaces (`g.surfaces`) counts as paved. */
export function pavedSurfaces(g: RegionGraph): boolean[] {
  return g.surfaces.map((s) => PAVED.has(s));
}

/** Travel time (s) of directed edge e for a profile; Infinity where the profile may not go. */
export function edgeCost(g: RegionGraph, p: Profile, e: number, pavedSurface: readonly boolean[]): number {
  const hw = edgeHighway(g, e);
  const sac = edgeSac(g, e);
  const surface = edgeSurface(g, e);
  const paved = surface === 0 ? PAVED_BY_DEFAULT.has(hw) : pavedSurface[surface] === true;
  let ok = p.highways.has(hw) && sac <= p.maxSac && edgeAccess(g, e, p.mode) !== AccessClass.No;
  if (p.respectsOneway && edgeFlags(g, e) & EdgeFlag.OnewayForBikes) ok = false;
  if (p.activity === Activity.ROAD_CYCLING && hw === H.Track && !paved) ok = false;
  if (!ok) return Infinity;
  const [a, b] = edgeEnds(g, e);
  const len = nodeDistance(g, a, b);
  if (len <= 0) return 0;
  const rise = nodeRise(g, a, b);
  const slope = Math.max(-1, Math.min(1, rise / len));
  return len / p.speed(slope, hw, paved);
}
