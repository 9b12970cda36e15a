// The trail layers of a region as GeoJSON features (`trails`, `hazards`, `places`, `contours`), each with the
// zoom it first appears at: what the import cuts into the region's tile archive (./tile-cut.ts). At low zooms a map
// shows the network's skeleton (the higher classes, the ways of hiking routes, towns), as the OpenMapTiles schema
// does for roads; every way is in from MIN_ZOOM_ALL_WAYS on, every place from 12, contours from CONTOURS_MIN_ZOOM.
// The region's own first class of ways and of places shows from zoom 0 (a village's valley road, a country's motorways).

import type { PlaceKind } from '../contracts/region-lookup.js';
import { CONTOURS_MIN_ZOOM } from '../contracts/tiles.js';
import type { DemGrid } from '../data/region/dem-grid.js';
import {
  AccessMode,
  edgeHighway,
  edgeTables,
  edgeSac,
  edgeSurface,
  HighwayClass,
  highwayTag,
  latOf,
  lonOf,
  type RegionGraph,
  wayOf,
} from '../data/region/region-graph.js';
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

/**
 * A layer's features by index, made one at a time on demand: at country scale the whole layer as GeoJSON would take
 * gigabytes (an array per position), so the cut makes only the features of the blocks it is cutting.
 */
export interface LayerSource {
  count: number;
  /** Positions over all features (a line's vertices, a point's one). */
  positions: number;
  /** The first zoom that shows each feature. */
  minZoom: Uint8Array;
  /** Each feature's box in degrees: west, south, east, north (4 per feature). */
  boxes: Float64Array;
  feature(i: number): Feature;
}

/** Each layer's features by index (contours: null without a DEM). */
export type TrailLayerSources = Record<Exclude<TrailLayer, 'contours'>, LayerSource> & { contours: LayerSource | null };

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

/** Each layer's GeoJSON features with their first zooms (contours: null without a DEM), all made at once. */
export function trailLayerFeatures(region: Region): TrailLayerFeatures {
  const sources = trailLayerSources(region);
  const all = (source: LayerSource): LayerFeatures => ({
    features: Array.from({ length: source.count }, (_, i) => source.feature(i)),
    minZoom: source.minZoom,
  });
  return {
    trails: all(sources.trails),
    hazards: all(sources.hazards),
    places: all(sources.places),
    contours: sources.contours ? all(sources.contours) : null,
  };
}

/** Each layer's features by index with their first zooms and boxes (contours: null without a DEM). */
export function trailLayerSources(region: Region): TrailLayerSources {
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

/** A source over features made beforehand (places and contours: few). */
function layer(list: { feature: Feature; minZoom: number }[]): LayerSource {
  const boxes = new Float64Array(list.length * 4);
  let positions = 0;
  list.forEach(({ feature }, i) => {
    boxes.set(boxOf(feature), 4 * i);
    positions += feature.geometry.type === 'Point' ? 1 : feature.geometry.coordinates.length;
  });
  return { count: list.length, positions, minZoom: Uint8Array.from(list, (f) => f.minZoom), boxes, feature: (i) => list[i]!.feature };
}

/** A feature's box in degrees: [west, south, east, north]. */
function boxOf(feature: Feature): [number, number, number, number] {
  const g = feature.geometry;
  if (g.type === 'Point') return [g.coordinates[0]!, g.coordinates[1]!, g.coordinates[0]!, g.coordinates[1]!];
  const points = g.coordinates;
  return boxOfPositions(
    points.length,
    (i) => points[i]![0]!,
    (i) => points[i]![1]!,
  );
}

/** The box [west, south, east, north] of `count` positions, the i-th at (lon(i), lat(i)). */
function boxOfPositions(count: number, lon: (i: number) => number, lat: (i: number) => number): [number, number, number, number] {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = lon(i);
    const y = lat(i);
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

/** The DEM's contour lines (workers/contours.ts): elevation in metres, `index` 1 on index lines. */
function contourFeatures(dem: DemGrid): LayerSource {
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

/**
 * Each way's lines as runs of graph nodes, in one pool: way `ways[k]`'s lines are `lineStart[first[k]]` … up to
 * `lineStart[first[k + 1]]` in `nodes` (line j runs from lineStart[j] to lineStart[j + 1]); `edge[k]` is one of its
 * edges (the way's attributes).
 */
interface WayLines {
  ways: number[];
  edge: number[];
  first: number[];
  lineStart: Uint32Array;
  nodes: Int32Array;
  /** k of each way index in `ways`. */
  indexOf: Map<number, number>;
}

/**
 * Each way's edges chained into as few lines as possible: the graph holds one edge per pair of consecutive
 * OSM nodes and direction; a way is walked from its ends (then any loop left over), one edge per node pair.
 */
function wayLines(g: RegionGraph): WayLines {
  const { source: src, target } = edgeTables(g);
  const byWay = new Map<number, number[]>();
  for (let e = 0; e < g.edgeCount; e += 2) {
    // One of the two directions (2u runs piece u forwards).
    const way = wayOf(g, e);
    let list = byWay.get(way);
    if (!list) byWay.set(way, (list = []));
    list.push(e);
  }
  const out: WayLines = { ways: [], edge: [], first: [], lineStart: new Uint32Array(0), nodes: new Int32Array(0), indexOf: new Map() };
  const lineStart: number[] = [];
  let nodes = new Int32Array(1 << 16);
  let used = 0;
  const put = (v: number): void => {
    if (used === nodes.length) {
      const more = new Int32Array(nodes.length * 2);
      more.set(nodes);
      nodes = more;
    }
    nodes[used++] = v;
  };
  for (const [way, edges] of byWay) {
    const next = new Map<number, number[]>();
    const link = (a: number, b: number) => {
      const list = next.get(a);
      if (list) list.push(b);
      else next.set(a, [b]);
    };
    for (const e of edges) {
      link(src[e]!, target[e]!);
      link(target[e]!, src[e]!);
    }
    const done = new Set<number>();
    // A node pair as one number (node indexes are below 2^26: a region of 67 M nodes).
    const key = (a: number, b: number) => (a < b ? a * 67_108_864 + b : b * 67_108_864 + a);
    /** Walks one line from `start` into the pool; false when no edge is left there. */
    const walk = (start: number): boolean => {
      let v = start;
      let w = (next.get(v) ?? []).find((n) => !done.has(key(v, n)));
      if (w === undefined) return false;
      lineStart.push(used);
      put(v);
      while (w !== undefined) {
        done.add(key(v, w));
        put(w);
        v = w;
        w = (next.get(v) ?? []).find((n) => !done.has(key(v, n)));
      }
      return true;
    };
    out.indexOf.set(way, out.ways.length);
    out.ways.push(way);
    out.edge.push(edges[0]!);
    out.first.push(lineStart.length);
    const ends = [...next].filter(([, list]) => list.length !== 2).map(([v]) => v);
    for (const v of [...ends, ...next.keys()]) while (walk(v));
  }
  out.first.push(lineStart.length);
  lineStart.push(used);
  out.lineStart = Uint32Array.from(lineStart);
  out.nodes = nodes.slice(0, used);
  return out;
}

/**
 * A source over lines of the pool: feature i is line `line[i]` with `properties[i]` (shared by the lines of one way).
 * Boxes come from the graph's positions, as the features' coordinates would give them.
 */
function lineSource(
  g: RegionGraph,
  lines: WayLines,
  line: number[],
  properties: Record<string, string | number>[],
  minZoom: number[],
): LayerSource {
  const boxes = new Float64Array(line.length * 4);
  let positions = 0;
  for (let i = 0; i < line.length; i++) {
    const first = lines.lineStart[line[i]!]!;
    const count = lines.lineStart[line[i]! + 1]! - first;
    positions += count;
    const node = (k: number) => lines.nodes[first + k]!;
    boxes.set(
      boxOfPositions(
        count,
        (k) => lonOf(g, node(k)),
        (k) => latOf(g, node(k)),
      ),
      4 * i,
    );
  }
  return {
    count: line.length,
    positions,
    minZoom: Uint8Array.from(minZoom),
    boxes,
    feature(i: number): Feature {
      const coordinates: number[][] = [];
      for (let j = lines.lineStart[line[i]!]!; j < lines.lineStart[line[i]! + 1]!; j++) {
        const v = lines.nodes[j]!;
        coordinates.push([lonOf(g, v), latOf(g, v)]);
      }
      return { type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: properties[i]! };
    },
  };
}

function trailFeatures(g: RegionGraph, ways: WayLines, onRoute: Set<number>): LayerSource {
  const line: number[] = [];
  const props: Record<string, string | number>[] = [];
  const minZooms: number[] = [];
  ways.ways.forEach((way, k) => {
    const edge = ways.edge[k]!;
    const properties: Record<string, string | number> = {
      osm_id: g.wayOsmId[way]!,
      highway: highwayTag(edgeHighway(g, edge)) ?? 'road',
      foot: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Foot)],
      bicycle: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Bicycle)],
    };
    if (g.wayName[way]) properties.name = g.wayName[way]!;
    if (edgeSac(g, edge) > 0) properties.sac_scale = `T${edgeSac(g, edge)}`;
    if (g.surfaces[edgeSurface(g, edge)]) properties.surface = g.surfaces[edgeSurface(g, edge)]!;
    const minZoom = wayMinZoom(edgeHighway(g, edge), onRoute.has(way));
    for (let j = ways.first[k]!; j < ways.first[k + 1]!; j++) {
      line.push(j);
      props.push(properties);
      minZooms.push(minZoom);
    }
  });
  return lineSource(g, ways, line, props, minZooms);
}

function hazardFeatures(region: Region, ways: WayLines, onRoute: Set<number>): LayerSource {
  const g = region.graph;
  const line: number[] = [];
  const props: Record<string, string | number>[] = [];
  const minZooms: number[] = [];
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
    const k = ways.indexOf.get(hazard.way);
    if (k === undefined) continue;
    const minZoom = wayMinZoom(edgeHighway(g, ways.edge[k]!), onRoute.has(hazard.way));
    for (let j = ways.first[k]!; j < ways.first[k + 1]!; j++) {
      line.push(j);
      props.push(properties);
      minZooms.push(minZoom);
    }
  }
  return lineSource(g, ways, line, props, minZooms);
}

function placeFeatures(region: Region): LayerSource {
  return layer(
    [...region.places]
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
