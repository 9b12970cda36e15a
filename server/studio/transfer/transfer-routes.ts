// Import and export of itineraries (DESIGN §6 #19 postItineraryImport, #25 getItineraryExport): GPX, KML,
// KMZ and GeoJSON in; GPX, KML and GeoJSON out. Parsing and serializing live in their own files; the chain is
// made by the itinerary service.

import type { Activity } from '../../../data/stores/itinerary-store.js';
import type { Access } from '../../auth/access.js';
import { ApiError } from '../../errors.js';
import type { RequestContext, RouteDef } from '../../http/route.js';
import { actorOf } from '../itineraries/itinerary-access.js';
import { Envelope, Itinerary, ItineraryParams } from '../itineraries/itinerary-schemas.js';
import { createItineraryFromLines, readVisibleItinerary, targetOrganization } from '../itineraries/itinerary-service.js';
import type { ItineraryView } from '../itineraries/itinerary-view.js';
import { declaredWrites } from '../operations.js';
import type { StudioDeps } from '../studio-deps.js';
import type { ImportedTrack } from './imported-track.js';
import { DECORATION_DISTANCE_M, planImport, SPLIT_DISTANCE_M } from './import-plan.js';
import { cleanDescription, importName } from './import-text.js';
import { looksLikeJson, parseGeoJsonTrack } from './parse-geojson-track.js';
import { toGeoJson } from './serialize-geojson.js';
import { toGpx } from './serialize-gpx.js';
import { toKml } from './serialize-kml.js';
import {
  EXPORT_CONTENT_TYPES,
  type ExportFormat,
  IMPORT_CONTENT_TYPES,
  ItineraryExportFile,
  ItineraryExportQuery,
  ItineraryImportQuery,
} from './transfer-schemas.js';
import { ImportProblem, problemToError } from './transfer-messages.js';
import { createXmlParser, type XmlParser } from './xml-parser-thread.js';

interface ImportQuery {
  name?: string;
  activity?: Activity;
  privacy?: 'public' | 'private';
  collection_id?: string;
  organization_id?: string;
}

interface ExportQuery {
  format?: ExportFormat;
  version?: 'draft' | 'published';
}

/**
 * Reads the body by its media type (JSON bodies arrive parsed, the others as bytes). Bytes of any other
 * type are a GPX, KML or KMZ file, told apart by their content; application/octet-stream may also be GeoJSON.
 */
async function readTrack(ctx: RequestContext, xml: XmlParser): Promise<ImportedTrack> {
  const body = ctx.body as unknown;
  if (body === undefined) throw new ImportProblem('empty');
  const mediaType = (ctx.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || mediaType === 'application/geo+json') return parseGeoJsonTrack(body);
  if (mediaType === 'application/octet-stream' && looksLikeJson(body as Uint8Array)) return parseGeoJsonTrack(body);
  return xml.parse(body as Uint8Array, ctx.signal);
}

/** A file name for Content-Disposition: the itinerary's name in plain ASCII, and the exact name as filename*. */
function disposition(name: string, extension: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7E]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'itinerary';
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${name}.${extension}`)}`;
}

/**
 * The itinerary service names fields of a JSON create body; an import has a query and a file instead:
 * `collection_id` is a query parameter and a refused line is the file itself.
 */
function relocate(error: ApiError): ApiError {
  const moved = error.entries.map((entry) => {
    const [a, b, field] = entry.path ?? [];
    if (a !== 'request' || b !== 'body') return entry;
    if (field === 'collection_id') return { ...entry, path: ['request', 'query', 'collection_id'] };
    if (field === 'lines') return { ...entry, path: ['request', 'body'] };
    return entry;
  });
  return new ApiError(error.code, moved, error.metadata);
}

const SERIALIZERS: Record<ExportFormat, { write: (view: ItineraryView) => string; extension: string }> = {
  gpx: { write: toGpx, extension: 'gpx' },
  kml: { write: toKml, extension: 'kml' },
  geojson: { write: toGeoJson, extension: 'geojson' },
};

export function transferRoutes(deps: StudioDeps): RouteDef[] {
  const xml = createXmlParser({ inflateLimit: deps.config.importBodyLimit });
  return [
    {
      op: 'postItineraryImport',
      writes: declaredWrites('postItineraryImport'),
      method: 'POST',
      path: '/v1/itineraries/import',
      scope: 'resources',
      public: true,
      summary: 'Create an itinerary from a GPX, KML, KMZ or GeoJSON file',
      description:
        'The body is the file itself, typed by Content-Type (application/xml and text/xml are read as GPX or KML by ' +
        'their root element; a zip archive is read as KMZ whatever its type; application/octet-stream is told apart ' +
        'by content). Every track point is kept, with its elevation, as freehand segments. GPX tracks ' +
        '(all track segments in order) are used, or its routes when it has no track; KML and GeoJSON lines in ' +
        `document order. A waypoint within ${SPLIT_DISTANCE_M} m of a track vertex splits the line at that vertex ` +
        '(or names its start or end); waypoints farther away are left out. A KML or GeoJSON Point with no name, ' +
        `description, kind or position of its own within ${DECORATION_DISTANCE_M} m of a vertex is a track point ` +
        'drawn again (gpsbabel writes one per track point), not a waypoint. The name is the `name` parameter, else ' +
        'the file\'s own name, else its first track\'s, else "Imported itinerary"; control characters are removed.',
      query: ItineraryImportQuery,
      contentTypes: IMPORT_CONTENT_TYPES,
      bodyLimit: deps.config.importBodyLimit,
      budgetMs: deps.config.importBudgetMs,
      status: 201,
      conflict: 'ResponseMetadataPostItinerary',
      response: Envelope(Itinerary),
      handler: async (ctx) => {
        const access = ctx.access as Access;
        const query = ctx.query as ImportQuery;
        const actor = actorOf(access);
        if (!actor) throw new ApiError('FORBIDDEN');
        // Who may write where is decided before the file is read: a viewer learns nothing about their file.
        const organizationId = targetOrganization(deps, access, query.organization_id, query.collection_id);
        let track: ImportedTrack;
        let plan: ReturnType<typeof planImport>;
        try {
          track = await readTrack(ctx, xml);
          plan = planImport(track);
        } catch (error) {
          if (error instanceof ImportProblem) throw problemToError(error, ctx.lang);
          throw error;
        }
        const view = await createItineraryFromLines(deps, {
          organizationId,
          actorUserId: actor,
          name: importName({ requested: query.name, file: track.name, track: track.trackName }),
          description: cleanDescription(track.description),
          activity: query.activity ?? 'HIKING_AND_TRAIL',
          privacy: query.privacy ?? 'private',
          collectionId: query.collection_id,
          lines: plan.lines,
          waypoints: plan.waypoints,
        }).catch((error: unknown) => {
          throw error instanceof ApiError ? relocate(error) : error;
        });
        return { status: 201, json: { data: view, extensions: { metadata: {} } } };
      },
    },
    {
      op: 'getItineraryExport',
      writes: declaredWrites('getItineraryExport'),
      method: 'GET',
      path: '/v1/itineraries/{itinerary_id}/export',
      scope: 'resources',
      public: true,
      share: true,
      summary: 'Download an itinerary as GPX, KML or GeoJSON',
      description:
        'GPX 1.1 (one trk, a trkseg per segment, a wpt per waypoint), KML 2.2 (a LineString Placemark per segment, ' +
        'a Point Placemark per waypoint) or a GeoJSON FeatureCollection (a LineString Feature per segment with ' +
        'engine, position and groupId; a Point Feature per waypoint). Members and keys read the draft unless ' +
        '`version=published`; share tokens always get the published version (404 when never published).',
      params: ItineraryParams,
      query: ItineraryExportQuery,
      response: ItineraryExportFile,
      handler: async (ctx) => {
        const { itinerary_id: id } = ctx.params as { itinerary_id: string };
        const query = ctx.query as ExportQuery;
        const view = await readVisibleItinerary(deps, ctx.access as Access, id, query.version ?? 'draft');
        const format = query.format ?? 'gpx';
        const { write, extension } = SERIALIZERS[format];
        return {
          body: write(view),
          contentType: `${EXPORT_CONTENT_TYPES[format]}; charset=utf-8`,
          headers: { 'Content-Disposition': disposition(view.name, extension), 'Cache-Control': 'private, no-store' },
        };
      },
    },
  ];
}
