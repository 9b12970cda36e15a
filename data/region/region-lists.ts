// The lists built beside the graph: places (with elevation), hazard ways, hiking routes.
import type { DemGrid } from './dem-grid.js';
import { sampleDem } from './dem.js';
import type { OsmCollector } from './osm-collector.js';
import { accessFor, isRestrictedAccess, isToll, parseEle, type Tags } from './osm-tags.js';
import { placeKind, type Place } from './places.js';
import type { HazardKind, HazardWay, HikingRoute } from './region.js';
import { AccessClass, AccessMode } from './region-graph.js';

/** Places in collector order (nodes, then ways); elevation from the DEM, else the ele tag. */
export function buildPlaces(osm: OsmCollector, dem: DemGrid | null): Place[] {
  const places: Place[] = [];
  for (const src of osm.placeSources()) {
    const kind = placeKind(src.tags);
    if (kind === null) continue;
    let lon = 0;
    let lat = 0;
    for (const s of src.slots) {
      lon += osm.lon[s]!;
      lat += osm.lat[s]!;
    }
    lon /= src.slots.length;
    lat /= src.slots.length;
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
export function buildHazards(wayOsmId: number[], wayName: string[], wayTags: Tags[]): HazardWay[] {
  const out: HazardWay[] = [];
  for (let w = 0; w < wayOsmId.length; w++) {
    const t = wayTags[w]!;
    const access: [AccessClass, AccessClass, AccessClass] = [
      accessFor(t, AccessMode.Foot),
      accessFor(t, AccessMode.Bicycle),
      accessFor(t, AccessMode.Horse),
    ];
    const toll = isToll(t);
    const kinds: HazardKind[] = [];
    if (toll) kinds.push('TOLLWAY');
    if (access.some(isRestrictedAccess)) kinds.push('RESTRICTED_ACCESS');
    if (access.includes(AccessClass.Permissive)) kinds.push('PERMISSIVE');
    if (kinds.length > 0) out.push({ way: w, osmId: wayOsmId[w]!, name: wayName[w]!, kinds, toll, access });
  }
  return out;
}

/** Hiking relations with each member's graph way index (-1 when not in the graph). */
export function buildRoutes(osm: OsmCollector, wayOsmId: number[]): HikingRoute[] {
  const wayOf = new Map<number, number>();
  for (const [i, id] of wayOsmId.entries()) wayOf.set(id, i);
  return osm.routes.map((r) => {
    const t = r.tags ?? {};
    const wayOsmIds = r.members.filter((m) => m.type === 'way').map((m) => m.ref);
    return {
      osmId: r.id,
      name: t.name ?? '',
      ref: t.ref ?? '',
      network: t.network ?? '',
      wayOsmIds,
      ways: wayOsmIds.map((id) => wayOf.get(id) ?? -1),
    };
  });
}
