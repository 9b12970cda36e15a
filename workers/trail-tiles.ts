// Piscina task module for the region's trail tiles (DESIGN §8): layers `trails` (every way of the network,
// with its highway, name, T1–T6 difficulty, surface, access per mode and OSM id), `hazards` (toll and
// access-restricted ways, with their kind) and `places` (peaks, huts, shelters, viewpoints, settlements, with
// their elevation), and `contours` (isolines of the region's DEM, from z12, when it has one). The thread builds one
// geojson-vt index per layer from its region once (at start with TILES_WARM, else on its first tile) and keeps them;
// each tile is encoded from the index's stored tiles (./mvt-encoder.ts): a lone tile's bytes are moved (not copied) to
// the caller, a batch's copied once.

import { createHash } from 'node:crypto';
import GeoJSONVT from 'geojson-vt';
import { move } from 'piscina';
import type { DemGrid } from '../data/region/dem-grid.js';
import { edgeSources } from '../data/region/edge-grid.js';
import { contourLines } from './contours.js';
import { encodeMvt } from './mvt-encoder.js';
import { AccessMode, type HighwayClass, highwayTag, type RegionGraph } from '../data/region/region-graph.js';
import type { Region } from '../data/region/region.js';
import { ACCESS_NAMES, edgeAccess } from './profiles.js';
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import { threadRouting } from './region-source.js';
import { CONTOURS_MIN_ZOOM, TRAIL_TILE_ZOOMS, type TrailTileInput, type TrailTileSource } from '../contracts/tiles.js';

const EXTENT = 4096;

export const TRAIL_LAYERS = ['trails', 'hazards', 'places', 'contours'] as const;
export type TrailLayer = (typeof TRAIL_LAYERS)[number];

export type Feature = {
  type: 'Feature';
  geometry: { type: 'LineString'; coordinates: number[][] } | { type: 'Point'; coordinates: number[] };
  properties: Record<string, string | number>;
};

/** The per-layer indexes of one region, built once (a few hundred milliseconds for a country). */
export type TrailIndexes = Record<Exclude<TrailLayer, 'contours'>, GeoJSONVT> & { contours: GeoJSONVT | null };

let threadIndexes: TrailIndexes | undefined;

/** The thread's indexes, built from its region on first use. */
function indexesOfThread(): TrailIndexes {
  threadIndexes ??= buildIndexes(threadRouting().region);
  return threadIndexes;
}

/**
 * The tile's bytes (a Mapbox Vector Tile, uncompressed), empty when no layer has a feature there, moved to the
 * caller; the thread's region is indexed on its first tile. Coordinates out of range are a failure at their field.
 */
export function trailTile(input: TrailTileInput): Uint8Array | TaskFailure {
  const bad = checkTile(input);
  if (bad) return bad;
  return move(encodeTrailTile(indexesOfThread(), input)) as unknown as Uint8Array;
}

/** Builds the thread's indexes now (a worker's start-up, TILES_WARM=1: see ./routing.ts). */
export function warmTrailTiles(): void {
  indexesOfThread();
}

/** Tiles asked together: encoded one after the other, sent back in one message (their bytes copied once). */
export function trailTileBatch(inputs: TrailTileInput[]): { ok: true; results: (Uint8Array | TaskFailure)[] } {
  const indexes = indexesOfThread();
  return { ok: true, results: inputs.map((input) => checkTile(input) ?? encodeTrailTile(indexes, input)) };
}

/** What a TileJSON document says of the thread's region; builds the thread's indexes when not yet built. */
export function trailTileSource(): TrailTileSource {
  const { region } = threadRouting();
  indexesOfThread();
  return {
    bbox: region.meta.bbox,
    attribution: region.meta.attribution,
    kind: region.meta.kind,
    hasDem: region.dem !== null,
    tag: createHash('sha256')
      .update(`${TRAIL_TILE_FORMAT}\n${JSON.stringify(region.meta)}`)
      .digest('base64url')
      .slice(0, 12),
  };
}

/** Bumped whenever what a tile holds changes, so that clients' cached tiles are revalidated. */
const TRAIL_TILE_FORMAT = 2;

/** Why `input` names no tile, or undefined when it does. */
export function checkTile({ z, x, y }: TrailTileInput): TaskFailure | undefined {
  if (!Number.isInteger(z) || z < TRAIL_TILE_ZOOMS.min || z > TRAIL_TILE_ZOOMS.max)
    return failure('bad_input', `zoom is ${TRAIL_TILE_ZOOMS.min} to ${TRAIL_TILE_ZOOMS.max}`, ['input', 'z']);
  const side = 2 ** z;
  if (!Number.isInteger(x) || x < 0 || x >= side) return failure('bad_input', 'x is 0 to 2^z - 1', ['input', 'x']);
  if (!Number.isInteger(y) || y < 0 || y >= side) return failure('bad_input', 'y is 0 to 2^z - 1', ['input', 'y']);
  return undefined;
}

/** One tile of `indexes` (checked coordinates), in a buffer of its own: empty when no layer has a feature. */
export function encodeTrailTile(indexes: TrailIndexes, { z, x, y }: TrailTileInput): Uint8Array {
  const layers = TRAIL_LAYERS.filter((name) => name !== 'contours' || z >= CONTOURS_MIN_ZOOM).map(
    (name) => [name, indexes[name]?.getTileRaw(z, x, y)] as const,
  );
  // In a buffer of its own, so that moving it detaches nothing else.
  return encodeMvt(layers, EXTENT);
}

/** geojson-vt's options for every layer (exported for the benchmark's bare peer). */
export const TRAIL_INDEX_OPTIONS = { maxZoom: TRAIL_TILE_ZOOMS.max, indexMaxZoom: 5, extent: EXTENT, buffer: 64, tolerance: 3 };

/** Each layer's GeoJSON features (contours: null without a DEM). */
export function trailLayerFeatures(region: Region): Record<Exclude<TrailLayer, 'contours'>, Feature[]> & { contours: Feature[] | null } {
  return {
    trails: trailFeatures(region.graph),
    hazards: hazardFeatures(region),
    places: placeFeatures(region),
    contours: region.dem ? contourFeatures(region.dem) : null,
  };
}

export function buildIndexes(region: Region): TrailIndexes {
  const features = trailLayerFeatures(region);
  const index = (list: Feature[]) => new GeoJSONVT({ type: 'FeatureCollection', features: list } as never, TRAIL_INDEX_OPTIONS);
  return {
    trails: index(features.trails),
    hazards: index(features.hazards),
    places: index(features.places),
    contours: features.contours ? index(features.contours) : null,
  };
}

/** The DEM's contour lines (workers/contours.ts): elevation in metres, `index` 1 on index lines. */
function contourFeatures(dem: DemGrid): Feature[] {
  return contourLines(dem).map((line) => ({
    type: 'Feature',
    geometry: { type: 'LineString', coordinates: line.coordinates },
    properties: { elevation: line.elevation, index: line.index ? 1 : 0 },
  }));
}

/**
 * Each way's edges chained into as few lines as possible: the graph holds one edge per pair of consecutive
 * OSM nodes and direction; a way is walked from its ends (then any loop left over), one edge per node pair.
 */
function wayLines(g: RegionGraph): Map<number, { edge: number; lines: number[][][] }> {
  const src = edgeSources(g);
  const byWay = new Map<number, number[]>();
  for (let e = 0; e < g.edgeCount; e++) {
    if (src[e]! >= g.edgeTarget[e]!) continue; // one of the two directions
    const way = g.edgeWay[e]!;
    let list = byWay.get(way);
    if (!list) byWay.set(way, (list = []));
    list.push(e);
  }
  const out = new Map<number, { edge: number; lines: number[][][] }>();
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
    const used = new Set<string>();
    const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
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

function trailFeatures(g: RegionGraph): Feature[] {
  const features: Feature[] = [];
  for (const [way, { edge, lines }] of wayLines(g)) {
    const properties: Record<string, string | number> = {
      osm_id: g.wayOsmId[way]!,
      highway: highwayTag(g.edgeHighway[edge]! as HighwayClass) ?? 'road',
      foot: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Foot)],
      bicycle: ACCESS_NAMES[edgeAccess(g, edge, AccessMode.Bicycle)],
    };
    if (g.wayName[way]) properties.name = g.wayName[way]!;
    if (g.edgeSac[edge]! > 0) properties.sac_scale = `T${g.edgeSac[edge]}`;
    if (g.surfaces[g.edgeSurface[edge]!]) properties.surface = g.surfaces[g.edgeSurface[edge]!]!;
    for (const coordinates of lines) features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties });
  }
  return features;
}

function hazardFeatures(region: Region): Feature[] {
  const lines = wayLines(region.graph);
  const features: Feature[] = [];
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
    for (const coordinates of lines.get(hazard.way)?.lines ?? []) {
      features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties });
    }
  }
  return features;
}

function placeFeatures(region: Region): Feature[] {
  return region.places
    .filter((p) => p.kind !== 'address' && p.name !== '')
    .map((p) => {
      const properties: Record<string, string | number> = { name: p.name, kind: p.kind, id: `${p.osmType}/${p.osmId}` };
      if (p.ele !== null) properties.ele = Math.round(p.ele);
      return { type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties };
    });
}
