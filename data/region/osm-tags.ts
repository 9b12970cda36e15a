// Reading OSM tags into the region's numeric classes: highway, access per mode, sac_scale, toll, oneway.
import { AccessClass, AccessMode, EdgeFlag, HighwayClass } from './region-graph.js';

export type Tags = Readonly<Record<string, string>>;

const HIGHWAYS: Readonly<Record<string, HighwayClass>> = {
  path: HighwayClass.Path,
  footway: HighwayClass.Footway,
  track: HighwayClass.Track,
  steps: HighwayClass.Steps,
  bridleway: HighwayClass.Bridleway,
  cycleway: HighwayClass.Cycleway,
  pedestrian: HighwayClass.Pedestrian,
  living_street: HighwayClass.LivingStreet,
  residential: HighwayClass.Residential,
  service: HighwayClass.Service,
  unclassified: HighwayClass.Unclassified,
  tertiary: HighwayClass.Tertiary,
  tertiary_link: HighwayClass.Tertiary,
  secondary: HighwayClass.Secondary,
  secondary_link: HighwayClass.Secondary,
  primary: HighwayClass.Primary,
  primary_link: HighwayClass.Primary,
  trunk: HighwayClass.Trunk,
  trunk_link: HighwayClass.Trunk,
  motorway: HighwayClass.Motorway,
  motorway_link: HighwayClass.Motorway,
  road: HighwayClass.Road,
};

/**
 * The highway class of a routable way, or null when the way is not part of the graph:
 * no `highway` tag, a class outside HighwayClass (proposed, construction, platform, …) or `area=yes`.
 */
export function routableHighway(tags: Tags): HighwayClass | null {
  const hw = tags.highway;
  if (hw === undefined) return null;
  if (tags.area === 'yes') return null;
  return HIGHWAYS[hw] ?? null;
}

const ACCESS_VALUES: Readonly<Record<string, AccessClass>> = {
  yes: AccessClass.Yes,
  designated: AccessClass.Yes,
  official: AccessClass.Yes,
  use_sidepath: AccessClass.Yes, // legal to use, a routing preference only
  dismount: AccessClass.Yes, // bikes may be pushed
  permissive: AccessClass.Permissive,
  destination: AccessClass.Destination,
  private: AccessClass.Private,
  customers: AccessClass.Customers,
  delivery: AccessClass.Delivery,
  permit: AccessClass.Permit,
  agricultural: AccessClass.Agricultural,
  forestry: AccessClass.Forestry,
  no: AccessClass.No,
};

/** Mode tag names in AccessMode order. */
export const MODE_TAGS = ['foot', 'bicycle', 'horse'] as const;

/**
 * Access class of one mode: the mode tag (`foot`/`bicycle`/`horse`) overrides `access`;
 * unknown values count as Yes. Motorways (and their links) default to No for every mode,
 * since none of the modes here may use them unless tagged otherwise.
 */
export function accessFor(tags: Tags, mode: AccessMode): AccessClass {
  const own = tags[MODE_TAGS[mode]];
  if (own !== undefined) return ACCESS_VALUES[own] ?? AccessClass.Yes;
  const general = tags.access;
  if (general !== undefined) return ACCESS_VALUES[general] ?? AccessClass.Yes;
  const hw = tags.highway;
  if (hw === 'motorway' || hw === 'motorway_link') return AccessClass.No;
  return AccessClass.Yes;
}

/** The 12-bit packed access value of `edgeAccess` (mode m at bits 4m..4m+3). */
export function packedAccess(tags: Tags): number {
  return accessFor(tags, AccessMode.Foot) | (accessFor(tags, AccessMode.Bicycle) << 4) | (accessFor(tags, AccessMode.Horse) << 8);
}

/** The access class of one mode out of a packed `edgeAccess` value. */
export function unpackAccess(packed: number, mode: AccessMode): AccessClass {
  return ((packed >> (4 * mode)) & 15) as AccessClass;
}

/**
 * True for access values that make a way RESTRICTED_ACCESS for a non-motorised activity
 * (DESIGN §4): private, customers, delivery, permit, destination, and also agricultural and
 * forestry (these open a way to farm and forest vehicles, not to walkers or riders).
 * Permissive is reported but is not a restriction; No is not routable at all.
 */
export function isRestrictedAccess(access: AccessClass): boolean {
  return access >= AccessClass.Destination && access <= AccessClass.Forestry;
}

const SAC: Readonly<Record<string, number>> = {
  hiking: 1,
  mountain_hiking: 2,
  demanding_mountain_hiking: 3,
  alpine_hiking: 4,
  demanding_alpine_hiking: 5,
  difficult_alpine_hiking: 6,
};

/** 0 when untagged or unknown, 1..6 for T1..T6. */
export function sacScale(tags: Tags): number {
  const v = tags.sac_scale;
  return v === undefined ? 0 : (SAC[v] ?? 0);
}

/** toll=yes, or any toll:*=yes (toll:hgv, toll:motorcar, …). */
export function isToll(tags: Tags): boolean {
  if (tags.toll === 'yes') return true;
  for (const k in tags) if (k.startsWith('toll:') && tags[k] === 'yes') return true;
  return false;
}

/**
 * Direction of a bicycle oneway: 1 = only along the way, -1 = only against it, 0 = both.
 * `oneway:bicycle` and `cycleway=opposite*` override `oneway`; roundabouts are implied oneway.
 */
export function bikeOneway(tags: Tags): -1 | 0 | 1 {
  const own = tags['oneway:bicycle'];
  if (own === 'no') return 0;
  if (own === 'yes' || own === '1' || own === 'true') return 1;
  if (own === '-1') return -1;
  const cw = tags.cycleway ?? '';
  if (cw.startsWith('opposite')) return 0;
  const v = tags.oneway;
  if (v === 'yes' || v === '1' || v === 'true') return 1;
  if (v === '-1' || v === 'reverse') return -1;
  if (v === undefined && (tags.junction === 'roundabout' || tags.highway === 'motorway')) return 1;
  return 0;
}

/** EdgeFlag bits shared by both directions of every edge of the way (Toll, Bridge, Tunnel). */
export function wayFlags(tags: Tags): number {
  let f = 0;
  if (isToll(tags)) f |= EdgeFlag.Toll;
  const bridge = tags.bridge;
  if (bridge !== undefined && bridge !== 'no') f |= EdgeFlag.Bridge;
  const tunnel = tags.tunnel;
  if (tunnel !== undefined && tunnel !== 'no') f |= EdgeFlag.Tunnel;
  return f;
}

/** Parses an `ele` tag ("2942", "2942 m", "2942,5") into metres, or null. */
export function parseEle(v: string | undefined): number | null {
  if (v === undefined) return null;
  const m = /^\s*(-?\d+(?:[.,]\d+)?)\s*(m)?\s*$/.exec(v);
  if (!m || m[1] === undefined) return null;
  return Number(m[1].replace(',', '.'));
}
