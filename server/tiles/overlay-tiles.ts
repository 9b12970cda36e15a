// Overlay tiles of published content (DESIGN §8): a collection's or one itinerary's published snapshots
// (segments with engine, group name and colour; waypoints) and a collection's zones, as tiles and as the MapLibre
// style fragment that draws them. Every request reads through the Studio operations, so the access rules are
// theirs (a share link or an embed sees the published snapshot; a never-published itinerary is 404). The cache
// key names the content's version: an itinerary's published version, or a collection's visible items and their
// versions; a publish, edit or delete changes the key, and the change events free the old tiles at once.

import { createHash } from 'node:crypto';
import type { WorkerPool } from '../pool/pool.js';
import { OVERLAY_TILE_ZOOMS, type OverlayContent } from '../../contracts/tiles.js';
import { taskError } from '../pool/task-error.js';
import type { Access } from '../auth/access.js';
import type { ChangeEventBus } from '../core/change-events.js';
import { defineOperation, type OperationContext } from '../core/operation.js';
import { ApiError } from '../errors.js';
import type { ItineraryView } from '../../contracts/itinerary-view.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import type { ZoneView } from '../studio/zones/zone-view.js';
import type { EncodedTile, TileCache } from './tile-cache.js';
import { checkTileAddress, encodedTile, TILE_REACH, type TileAddress } from './trail-tiles.js';

/** A segment outside any group is drawn in this colour. */
const DEFAULT_COLOR = '#d9480f';
/** Zone fill colours by level. */
const LEVEL_COLORS = { INFO: '#1c7ed6', WARNING: '#f59f00', DANGER: '#e03131', PROHIBITED: '#862e9c' };
/** Most itineraries a collection overlay draws (its first ones, as the collection lists them). */
const MAX_OVERLAY_ITINERARIES = 500;
const PAGE = 100;

export type OverlayKind = 'itineraries' | 'collections';

/** An overlay's content as the worker reads it, and the key that names its version. */
interface Overlay {
  key: string;
  content: () => Promise<string>;
}

function itineraryContent(view: ItineraryView): OverlayContent['itineraries'][number] {
  const groups = new Map(view.groups.map((g) => [g.id, g]));
  return {
    id: view.id,
    name: view.name,
    segments: view.segments.map((s) => {
      const group = s.groupId ? groups.get(s.groupId) : undefined;
      return {
        id: s.id,
        engine: s.engine,
        group_id: s.groupId,
        group_name: group?.name ?? null,
        color: group?.color ?? DEFAULT_COLOR,
        coordinates: s.geometry.coordinates as number[][],
      };
    }),
    waypoints: view.waypoints.map((w) => ({
      id: w.id,
      name: w.name,
      kind: w.kind,
      position: w.position,
      coordinates: w.coordinates as number[],
    })),
  };
}

function zoneContent(z: ZoneView): OverlayContent['zones'][number] {
  return {
    id: z.id,
    name: z.name,
    level: z.level,
    mode: z.mode,
    geometry: z.geometry as { type: string; coordinates: unknown },
    radius_m: z.radius_m,
    width_m: z.width_m,
  };
}

/** The MapLibre style fragment (sources + layers) that draws an overlay's tiles. */
export interface OverlaySpec {
  version: 8;
  sources: Record<string, { type: 'vector'; tiles: string[]; minzoom: number; maxzoom: number }>;
  layers: Record<string, unknown>[];
}

function overlaySpec(kind: OverlayKind, id: string, origin: string): OverlaySpec {
  const source = `cairn-${kind}-${id}`;
  const layer = (suffix: string, rest: Record<string, unknown>) => ({ id: `${source}-${suffix}`, source, ...rest });
  return {
    version: 8,
    sources: {
      [source]: {
        type: 'vector',
        tiles: [`${origin}/v1/tiles/${kind}/${id}/{z}/{x}/{y}.mvt`],
        minzoom: OVERLAY_TILE_ZOOMS.min,
        maxzoom: OVERLAY_TILE_ZOOMS.max,
      },
    },
    layers: [
      layer('zones-fill', {
        type: 'fill',
        'source-layer': 'zones',
        paint: { 'fill-color': ['match', ['get', 'level'], ...Object.entries(LEVEL_COLORS).flat(), '#868e96'], 'fill-opacity': 0.2 },
      }),
      layer('zones-outline', {
        type: 'line',
        'source-layer': 'zones',
        paint: { 'line-color': ['match', ['get', 'level'], ...Object.entries(LEVEL_COLORS).flat(), '#868e96'], 'line-width': 1.5 },
      }),
      layer('itineraries-casing', {
        type: 'line',
        'source-layer': 'itineraries',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': '#ffffff', 'line-width': 6 },
      }),
      layer('itineraries', {
        type: 'line',
        'source-layer': 'itineraries',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: {
          'line-color': ['get', 'color'],
          'line-width': 3.5,
          'line-dasharray': ['case', ['==', ['get', 'engine'], 'freehand'], ['literal', [2, 1.5]], ['literal', [1, 0]]],
        },
      }),
      layer('waypoints', {
        type: 'circle',
        'source-layer': 'waypoints',
        paint: { 'circle-radius': 5, 'circle-color': '#ffffff', 'circle-stroke-color': '#212529', 'circle-stroke-width': 2 },
      }),
    ],
  };
}

export interface OverlayTileDeps {
  pool: WorkerPool | undefined;
  cache: TileCache;
  studio: StudioOperations;
  events: ChangeEventBus;
}

export function overlayTileOperations(deps: OverlayTileDeps) {
  const { studio, cache } = deps;
  // An overlay's content is built once per version and kept as JSON text for the workers (a few dozen at most).
  const contents = new Map<string, Promise<string>>();
  const contentOf = (overlay: Overlay): Promise<string> => {
    let text = contents.get(overlay.key);
    if (text) contents.delete(overlay.key);
    else text = overlay.content();
    contents.set(overlay.key, text);
    text.catch(() => contents.delete(overlay.key));
    if (contents.size > 64) contents.delete(contents.keys().next().value as string);
    return text;
  };
  // Published, edited away or deleted: that itinerary's old tiles go now rather than when the cache is full.
  deps.events.subscribe((event) => {
    if (event.type === 'itinerary.published' || event.type === 'itinerary.deleted') cache.forget(`itineraries:${event.itineraryId}@`);
    if (event.type === 'collection.changed' && event.change === 'deleted') cache.forget(`collections:${event.collectionId}:`);
  });

  const publishedView = (caller: Access, id: string, context: OperationContext) =>
    studio.itineraries.getItinerary.run(caller, { itinerary_id: id, version: 'published' }, context);

  /** The itinerary's published snapshot as an overlay (NOT_FOUND when it was never published). */
  async function itineraryOverlay(caller: Access, id: string, context: OperationContext): Promise<Overlay> {
    const view = await publishedView(caller, id, context);
    if (view.published_version === null) throw new ApiError('NOT_FOUND');
    return {
      key: `itineraries:${view.id}@${view.published_version}`,
      content: async () => JSON.stringify({ itineraries: [itineraryContent(view)], zones: [] } satisfies OverlayContent),
    };
  }

  /** The collection's published itineraries and zones as the caller may see them, keyed by their versions. */
  async function collectionOverlay(caller: Access, id: string, context: OperationContext): Promise<Overlay> {
    const collection = await studio.collections.getCollection.run(caller, { collection_id: id }, context);
    const published: { id: string; version: number }[] = [];
    for (let offset = 0; published.length < MAX_OVERLAY_ITINERARIES; offset += PAGE) {
      const page = await studio.collections.getCollectionItineraries.run(caller, { collection_id: id, limit: PAGE, offset }, context);
      for (const item of page.items) if (item.published_version !== null) published.push({ id: item.id, version: item.published_version });
      if (offset + PAGE >= page.total) break;
    }
    const zones: ZoneView[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await studio.collections.getCollectionZones.run(caller, { collection_id: id, limit: PAGE, offset }, context);
      zones.push(...page.items);
      if (offset + PAGE >= page.total) break;
    }
    const version = createHash('sha256')
      .update(published.map((p) => `${p.id}@${p.version}`).join(','))
      .update(';')
      .update(zones.map((z) => `${z.id}@${z.updated_at}`).join(','))
      .digest('base64url')
      .slice(0, 16);
    return {
      key: `collections:${collection.id}:${version}`,
      content: async () => {
        const views = await Promise.all(published.map((p) => publishedView(caller, p.id, context)));
        return JSON.stringify({ itineraries: views.map(itineraryContent), zones: zones.map(zoneContent) } satisfies OverlayContent);
      },
    };
  }

  const overlayOf = (kind: OverlayKind, caller: Access, id: string, context: OperationContext) =>
    kind === 'itineraries' ? itineraryOverlay(caller, id, context) : collectionOverlay(caller, id, context);

  const tileOperation = (kind: OverlayKind, idName: 'itinerary_id' | 'collection_id') =>
    defineOperation({
      id: kind === 'itineraries' ? 'getItineraryTile' : 'getCollectionTile',
      scope: 'tiles',
      writes: false,
      reach: TILE_REACH,
      async run(caller, input: TileAddress & Record<typeof idName, string>, context): Promise<EncodedTile> {
        const bad = checkTileAddress(input, OVERLAY_TILE_ZOOMS);
        if (bad) throw bad;
        const overlay = await overlayOf(kind, caller, input[idName], context);
        const { z, x, y } = input;
        return cache.get(`${overlay.key}/${z}/${x}/${y}`, async () => {
          if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
          const out = await deps.pool.runTask('overlayTile', { key: overlay.key, content: await contentOf(overlay), z, x, y });
          if (!(out instanceof Uint8Array)) throw taskError(out);
          const tag = createHash('sha256').update(overlay.key).digest('base64url').slice(0, 16);
          return encodedTile(out, `"o-${tag}-${z}-${x}-${y}"`);
        });
      },
    });

  const specOperation = (kind: OverlayKind, idName: 'itinerary_id' | 'collection_id') =>
    defineOperation({
      id: kind === 'itineraries' ? 'getItineraryOverlay' : 'getCollectionOverlay',
      scope: 'tiles',
      writes: false,
      reach: TILE_REACH,
      async run(caller, input: Record<typeof idName, string>, context): Promise<OverlaySpec> {
        // The same read as a tile: no style for what the caller could not draw.
        await overlayOf(kind, caller, input[idName], context);
        return overlaySpec(kind, input[idName].toLowerCase(), context.origin);
      },
    });

  return {
    itineraryTile: tileOperation('itineraries', 'itinerary_id'),
    collectionTile: tileOperation('collections', 'collection_id'),
    itineraryOverlay: specOperation('itineraries', 'itinerary_id'),
    collectionOverlay: specOperation('collections', 'collection_id'),
  };
}
