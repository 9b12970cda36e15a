// The trail layers of a region as GeoJSON features (`trails`, `hazards`, `places`, `contours`), each with the
// zoom it first appears at: what the import cuts into the region's tile archive (./tile-cut.ts). At low zooms a map
// shows the network's skeleton (the higher classes, the ways of hiking routes, towns), as the OpenMapTiles schema
// does for roads; every way is in from MIN_ZOOM_ALL_WAYS on, every place from 12, contours from CONTOURS_MIN_ZOOM.
// The region's own first class of ways and of places shows from zoom 0 (a village's valley road, a country's motorways).

import type { PlaceKind } from '../contracts/region-lookup.js';
import { CONTOURS_MIN_ZOOM } from '../contracts/tiles.js';
import type { DemGrid } from '../data/region/dem-grid.js';
import { edgeSources } from '../data/region/edge-grid.js';
import { AccessMode, HighwayClass, highwayTag, type RegionGraph } from '../data/region/region-graph.js';
import type { Region } from '../data/region/region.js';
import { contourLines } from './contours.js';
import { ACCESS_NAMES, edgeAccess } from './profiles.js';

export const TRAIL_LAYERS = ['trails', 'hazards', 'places', 'contours'] as const;
export type TrailLayer = (typeof TRAIL_LAYERS)[number];

export type Feature = {
  type: 'Feature';
  geometry: { type: 'LineString'; coordinates: number[][] } | { type: 'Point'; coordinates: number[] };
  properties: Record<string, string | number>;
};

/** A layer's features and, for each, the first zoom that shows it. */
export interface LayerFeatures {
  features: Feature[];
  minZoom: Uint8Array;
}

/** Each layer's features (contours: null without a DEM). */
export type TrailLayerFeatures = Record<Exclude<TrailLayer, 'contours'>, LayerFeatures> & { contours: LayerFeatures | null };

/** Every way is drawn from this zoom on (a ~20 km tile); the skeleton below it is WAY_MIN_ZOOM. */
export const MIN_ZOOM_ALL_WAYS = 11;

/** The first zoom of a way by its class (the OpenMapTiles transportation layer's choices, trails earlier). */
const WAY_MIN_ZOOM: Readonly<Partial<Record<HighwayClass, number>>> = {
  [HighwayClass.Motorway]: 5,
  [HighwayClass.Trunk]: 6,
  [HighwayClass.Primary]: 7,
  [HighwayClass.Secondary]: 8,
  [HighwayClass.Tertiary]: 9,
  [HighwayClass.Service]: 12,
  [HighwayClass.Pedestrian]: 12,
  [HighwayClass.Steps]: 12,
};
/** A way of a hiking route relation shows from this zoom, whatever its class: the route network at a glance. */
const ROUTE_WAY_MIN_ZOOM = 9;

/** The first zoom of a place by its kind (settlements by size, then summits and huts). */
const PLACE_MIN_ZOOM: Readonly<Record<Exclude<PlaceKind, 'address'>, number>> = {
  town: 7,
  village: 9,
  peak: 10,
  alpine_hut: 10,
  hamlet: 11,
  wilderness_hut: 12,
  shelter: 12,
  viewpoint: 12,
};

function wayMinZoom(highway: HighwayClass, onRoute: boolean): number {
  const byClass = WAY_MIN_ZOOM[highway] ?? MIN_ZOOM_ALL_WAYS;
  return onRoute ? Math.min(byClass, ROUTE_WAY_MIN_ZOOM) : byClass;
}

/** Each layer's GeoJSON features with their first zooms (contours: null without a DEM). */
export function trailLayerFeatures(region: Region): TrailLayerFeatures {
  const lines = wayLines(region.graph);
  const onRoute = new Set<number>();
  for (const route of region.routes) for (const way of route.ways) if (way >= 0) onRoute.add(way);
  const trails = trailFeatures(region.graph, lines, onRoute);
  const hazards = hazardFeatures(region, lines, onRoute);
  const places = placeFeatures(region);
  // The region's first class of ways and of places shows from zoom 0, whatever it is: no zoom shows an empty region.
  const top = trails.minZoom.reduce((a, b) => Math.min(a, b), 255);
  for (const layer of [trails, hazards]) layer.minZoom = layer.minZoom.map((z) => (z === top ? 0 : z));
  const topPlace = places.minZoom.reduce((a, b) => Math.min(a, b), 255);
  places.minZoom = places.minZoom.map((z) => (z === topPlace ? 0 : z));
  return { trails, hazards, places, contours: region.dem ? contourFeatures(region.dem) : null };
}

function layer(list: { feature: Feature; minZoom: number }[]): LayerFeatures {
  return { features: list.map((f) => f.feature), minZoom: Uint8Array.from(list, (f) => f.minZoom) };
}

/** The DEM's contour lines (workers/contours.ts): elevation in metres, `index` 1 on index lines. */
function contourFeatures(dem: DemGrid): LayerFeatures {
  return layer(
    contourLines(dem).map((line) => ({
      feature: {
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: line.coordinates },
        properties: { elevation: line.elevation, index: line.index ? 1 : 0 },
      },
      minZoom: CONTOURS_MIN_ZOOM,
    })),
  );
}

type WayLines = Map<number, { edge: number; lines: number[][][] }>;

/**
 * Each way's edges chained into as few lines as possible: the graph holds one edge per pair of consecutive
 * OSM nodes and direction; a way is walked from its ends (then any loop left over), one edge per node pair.
 */
function wayLines(g: RegionGraph): WayLines {
  const src = edgeSources(g);
  const byWay = new Map<number, number[]>();
  for (let e = 0; e < g.edgeCount; e++) {
    if (src[e]! >= g.edgeTarget[e]!) continue; // one of the two directions
    const way = g.edgeWay[e]!;
    let list = byWay.get(way);
    if (!list) byWay.set(way, (list = []));
    list.push(e);
  }
  const out: WayLines = new Map();
  const at = (v: number) => [g.nodeLon[v]!, g.nodeLat[v]!];
  for (const [way, edges] of byWay) {
    const next = new Map<number, number[]>();
    const link = (a: number, b: number) => {
      const list = next.get(a);
      if (list) list.push(b);
      else next.set(a, [b]);
    };
    for (const e of edges) {
      link(src[e]!, g.edgeTarget[e]!);
      link(g.edgeTarget[e]!, src[e]!);
    }
    const used = new Set<number>();
    // A node pair as one number (node indexes are below 2^26: a region of 67 M nodes).
    const key = (a: number, b: number) => (a < b ? a * 67_108_864 + b : b * 67_108_864 + a);
    const walk = (start: number): number[][] | undefined => {
      const line = [at(start)];
      let v = start;
      for (;;) {
        const w = (next.get(v) ?? []).find((n) => !used.has(key(v, n)));
        if (w === undefined) break;
        used.add(key(v, w));
        line.push(at(w));
        v = w;
      }
      return line.length > 1 ? line : undefined;
    };
    const lines: number[][][] = [];
    const ends = [...next].filter(([, list]) => list.length !== 2).map(([v]) => v);
    for (const v of [...ends, ...next.keys()]) {
      for (let line = walk(v); line; line = walk(v)) lines.push(line);
    }
    out.set(way, { edge: edges[0]!, lines });
  }
  return out;
}

function trailFeatures(g: RegionGraph, ways: WayLines, onRoute: Set<number>): LayerFeatures {
  const list: { feature: Feature; minZoom: number }[] = [];
  for (const [way, { edge, lines }] of ways) {
    const properties: Record<string, string | number> = {
      osm_id: g.wayOsmId[way]!,
      highway: highwayTag(g.edgeHighway[edge]! as HighwayClass) ?? 'road',
      foot: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Foot)],
      bicycle: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Bicycle)],
    };
    if (g.wayName[way]) properties.name = g.wayName[way]!;
    if (g.edgeSac[edge]! > 0) properties.sac_scale = `T${g.edgeSac[edge]}`;
    if (g.surfaces[g.edgeSurface[edge]!]) properties.surface = g.surfaces[g.edgeSurface[edge]!]!;
    const minZoom = wayMinZoom(g.edgeHighway[edge]! as HighwayClass, onRoute.has(way));
    for (const coordinates of lines)
      list.push({ feature: { type: 'Feature', geometry: { type: 'LineString', coordinates }, properties }, minZoom });
  }
  return layer(list);
}

function hazardFeatures(region: Region, ways: WayLines, onRoute: Set<number>): LayerFeatures {
  const g = region.graph;
  const list: { feature: Feature; minZoom: number }[] = [];
  for (const hazard of region.hazards) {
    // Permissive ways are advisories, not hazards: the layer holds toll and restricted ways only.
    const kind = hazard.toll ? 'TOLLWAY' : hazard.kinds.includes('RESTRICTED_ACCESS') ? 'RESTRICTED_ACCESS' : undefined;
    if (!kind) continue;
    const properties: Record<string, string | number> = {
      osm_id: hazard.osmId,
      kind,
      foot: ACCESS_NAMES[hazard.access[AccessMode.Foot]],
      bicycle: ACCESS_NAMES[hazard.access[AccessMode.Bicycle]],
    };
    if (hazard.name) properties.name = hazard.name;
    const entry = ways.get(hazard.way);
    if (!entry) continue;
    const minZoom = wayMinZoom(g.edgeHighway[entry.edge]! as HighwayClass, onRoute.has(hazard.way));
    for (const coordinates of entry.lines) {
      list.push({ feature: { type: 'Feature', geometry: { type: 'LineString', coordinates }, properties }, minZoom });
    }
  }
  return layer(list);
}

function placeFeatures(region: Region): LayerFeatures {
  return layer(
    region.places
      .filter((p) => p.kind !== 'address' && p.name !== '')
      .map((p) => {
        const properties: Record<string, string | number> = { name: p.name, kind: p.kind, id: `${p.osmType}/${p.osmId}` };
        if (p.ele !== null) properties.ele = Math.round(p.ele);
        return {
          feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties },
          minZoom: PLACE_MIN_ZOOM[p.kind as Exclude<PlaceKind, 'address'>] ?? 12,
        };
      }),
  );
}
