// The lists built beside the graph: places (with elevation), hazard ways, hiking routes.
import type { DemGrid } from './dem-grid.js';
import { sampleDem } from './dem.js';
import type { PlaceSource, RouteSource } from './osm-extract.js';
import { isRestrictedAccess, parseEle, unpackAccess } from './osm-tags.js';
import { placeKind, type Place } from './places.js';
import type { HazardKind, HazardWay, HikingRoute } from './region.js';
import { AccessClass, AccessMode, EdgeFlag } from './region-graph.js';

/** Places in source order (nodes, then ways); elevation from the DEM, else the ele tag. */
export function buildPlaces(sources: readonly PlaceSource[], dem: DemGrid | null): Place[] {
  const places: Place[] = [];
  for (const src of sources) {
    const kind = placeKind(src.tags);
    if (kind === null) continue;
    const { lon, lat } = src;
    const eleTag = parseEle(src.tags.ele);
    const sampled = dem ? sampleDem(dem, lon, lat) : Number.NaN;
    places.push({
      id: places.length,
      osmType: src.osmType,
      osmId: src.osmId,
      kind,
      name: src.tags.name ?? '',
      lon,
      lat,
      ele: Number.isFinite(sampled) ? Math.round(sampled * 10) / 10 : eleTag,
      eleTag,
      houseNumber: src.tags['addr:housenumber'] ?? null,
      street: src.tags['addr:street'] ?? null,
    });
  }
  return places;
}

/** One entry per routable way that is a toll way or has a non-plain access for some mode. */
export function buildHazards(
  wayOsmId: ArrayLike<number>,
  wayName: readonly string[],
  wayAccess: Uint16Array,
  wayFlags: Uint8Array,
): HazardWay[] {
  const out: HazardWay[] = [];
  for (let w = 0; w < wayOsmId.length; w++) {
    const packed = wayAccess[w]!;
    const access: [AccessClass, AccessClass, AccessClass] = [
      unpackAccess(packed, AccessMode.Foot),
      unpackAccess(packed, AccessMode.Bicycle),
      unpackAccess(packed, AccessMode.Horse),
    ];
    const toll = (wayFlags[w]! & EdgeFlag.Toll) !== 0;
    const kinds: HazardKind[] = [];
    if (toll) kinds.push('TOLLWAY');
    if (access.some(isRestrictedAccess)) kinds.push('RESTRICTED_ACCESS');
    if (access.includes(AccessClass.Permissive)) kinds.push('PERMISSIVE');
    if (kinds.length > 0) out.push({ way: w, osmId: wayOsmId[w]!, name: wayName[w]!, kinds, toll, access });
  }
  return out;
}

/** Hiking relations with each member's graph way index (-1 when not in the graph). */
export function buildRoutes(routes: readonly RouteSource[], wayOsmId: ArrayLike<number>): HikingRoute[] {
  const wayOf = new Map<number, number>();
  for (let i = 0; i < wayOsmId.length; i++) wayOf.set(wayOsmId[i]!, i);
  return routes.map((r) => {
    const t = r.tags;
    return {
      osmId: r.id,
      name: t.name ?? '',
      ref: t.ref ?? '',
      network: t.network ?? '',
      wayOsmIds: r.wayIds,
      ways: r.wayIds.map((id) => wayOf.get(id) ?? -1),
    };
  });
}
