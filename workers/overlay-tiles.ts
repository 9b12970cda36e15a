// Piscina task module for overlay tiles of published content (DESIGN §8): layers `itineraries` (one line per
// segment, with its engine, group name and colour), `waypoints` and `zones` (polygons as drawn, circles and
// corridors as their true shapes: a circle's ring, a corridor's line buffered by half its width). The main thread
// sends the overlay's content as JSON text with a key naming its version; each thread keeps the indexes of the
// overlays it was asked for last, so the tiles of one map view parse and index the content once.

import buffer from '@turf/buffer';
import circle from '@turf/circle';
import GeoJSONVT from 'geojson-vt';
import { move } from 'piscina';
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import { encodeMvt } from './mvt-encoder.js';
import { OVERLAY_TILE_ZOOMS, type OverlayContent, type OverlayTileInput } from '../contracts/tiles.js';

const EXTENT = 4096;
export const OVERLAY_LAYERS = ['itineraries', 'waypoints', 'zones'] as const;
export type OverlayLayer = (typeof OVERLAY_LAYERS)[number];

type Feature = { type: 'Feature'; geometry: { type: string; coordinates: unknown }; properties: Record<string, string | number> };
type Indexes = Record<OverlayLayer, GeoJSONVT>;

/** Indexes of the overlays this thread served last, most recent last. */
const indexes = new Map<string, Indexes>();
const KEPT = 32;

export function overlayTile(input: OverlayTileInput): Uint8Array | TaskFailure {
  const { z, x, y } = input;
  if (!Number.isInteger(z) || z < OVERLAY_TILE_ZOOMS.min || z > OVERLAY_TILE_ZOOMS.max)
    return failure('bad_input', `zoom is ${OVERLAY_TILE_ZOOMS.min} to ${OVERLAY_TILE_ZOOMS.max}`, ['input', 'z']);
  let index = indexes.get(input.key);
  if (index) indexes.delete(input.key);
  else index = buildOverlayIndexes(JSON.parse(input.content) as OverlayContent);
  indexes.set(input.key, index);
  if (indexes.size > KEPT) indexes.delete(indexes.keys().next().value as string);
  return move(encodeOverlayTile(index, z, x, y)) as unknown as Uint8Array;
}

export function encodeOverlayTile(index: Indexes, z: number, x: number, y: number): Uint8Array {
  return encodeMvt(
    OVERLAY_LAYERS.map((name) => [name, index[name].getTileRaw(z, x, y)] as const),
    EXTENT,
  );
}

export function buildOverlayIndexes(content: OverlayContent): Indexes {
  const options = { maxZoom: OVERLAY_TILE_ZOOMS.max, indexMaxZoom: 4, extent: EXTENT, buffer: 64, tolerance: 3 };
  const collection = (features: Feature[]) => new GeoJSONVT({ type: 'FeatureCollection', features } as never, options);
  return {
    itineraries: collection(segmentFeatures(content)),
    waypoints: collection(waypointFeatures(content)),
    zones: collection(content.zones.flatMap(zoneFeature)),
  };
}

function segmentFeatures(content: OverlayContent): Feature[] {
  return content.itineraries.flatMap((it) =>
    it.segments
      .filter((s) => s.coordinates.length >= 2)
      .map((s) => ({
        type: 'Feature' as const,
        geometry: { type: 'LineString', coordinates: s.coordinates.map((c) => [c[0]!, c[1]!]) },
        properties: {
          itinerary_id: it.id,
          itinerary_name: it.name,
          segment_id: s.id,
          engine: s.engine,
          color: s.color,
          ...(s.group_id ? { group_id: s.group_id } : {}),
          ...(s.group_name ? { group_name: s.group_name } : {}),
        },
      })),
  );
}

function waypointFeatures(content: OverlayContent): Feature[] {
  return content.itineraries.flatMap((it) =>
    it.waypoints.map((w) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point', coordinates: [w.coordinates[0]!, w.coordinates[1]!] },
      properties: {
        itinerary_id: it.id,
        waypoint_id: w.id,
        position: w.position,
        ...(w.name ? { name: w.name } : {}),
        ...(w.kind ? { kind: w.kind } : {}),
      },
    })),
  );
}

/** A zone as the shape it covers: a polygon as drawn, a circle's ring (64 sides), a corridor's buffered line. */
export function zoneFeature(zone: OverlayContent['zones'][number]): Feature[] {
  const properties = { zone_id: zone.id, name: zone.name, level: zone.level, mode: zone.mode };
  switch (zone.mode) {
    case 'POLYGON':
      return [{ type: 'Feature', geometry: zone.geometry, properties }];
    case 'CIRCLE': {
      const ring = circle(zone.geometry.coordinates as number[], (zone.radius_m ?? 0) / 1000, { steps: 64, units: 'kilometers' });
      return [{ type: 'Feature', geometry: ring.geometry, properties: { ...properties, radius_m: zone.radius_m ?? 0 } }];
    }
    case 'CORRIDOR': {
      const line = { type: 'Feature' as const, geometry: zone.geometry as never, properties: {} };
      const shape = buffer(line, (zone.width_m ?? 0) / 2 / 1000, { units: 'kilometers', steps: 16 });
      return shape ? [{ type: 'Feature', geometry: shape.geometry, properties: { ...properties, width_m: zone.width_m ?? 0 } }] : [];
    }
  }
}
