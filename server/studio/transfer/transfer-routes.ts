// REST bindings of import and export (DESIGN §6 #19 postItineraryImport, #25 getItineraryExport). The rules
// live in ./transfer-operations.ts.

import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import type { Config } from '../../config.js';
import { DECORATION_DISTANCE_M, SPLIT_DISTANCE_M } from '../../../contracts/transfer.js';
import type { transferOperations } from './transfer-operations.js';
import { IMPORT_CONTENT_TYPES, ItineraryExportFile, ItineraryImportResponse } from './transfer-schemas.js';

/** A file name for Content-Disposition: the name in plain ASCII, and the exact name as filename*. */
function disposition(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const [stem, extension] = [fileName.slice(0, dot), fileName.slice(dot + 1)];
  const ascii =
    stem
      .normalize('NFKD')
      .replace(/[^\x20-\x7E]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'itinerary';
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function transferRoutes(ops: ReturnType<typeof transferOperations>, config: Config): RouteDef[] {
  return [
    studioRest(ops.postItineraryImport, {
      summary: 'Create an itinerary from a GPX, KML, KMZ or GeoJSON file',
      description:
        'The body is the file itself, typed by Content-Type (application/xml and text/xml are read as GPX or KML by ' +
        'their root element; a zip archive is read as KMZ whatever its type; application/octet-stream is told apart ' +
        'by content). Every track point is kept, with its elevation, as freehand segments. GPX tracks ' +
        '(all track segments in order) are used, or its routes when it has no track; KML and GeoJSON lines in ' +
        'document order. Each waypoint splits the line at its nearest track vertex (or names its start or end); one ' +
        `farther than ${SPLIT_DISTANCE_M} m from the line is moved onto it there. A KML or GeoJSON Point with no name, ` +
        `description, kind or position of its own within ${DECORATION_DISTANCE_M} m of a vertex is a track point ` +
        'drawn again (gpsbabel writes one per track point), not a waypoint. The name is the `name` parameter, else ' +
        'the file\'s own name, else its first track\'s, else "Imported itinerary"; control characters are removed. ' +
        'What the file holds that an itinerary does not keep (point times, sensor data, descriptions, styles…) is ' +
        'listed by kind in `extensions.metadata.warnings` (`[]` when nothing was left out).',
      contentTypes: IMPORT_CONTENT_TYPES,
      bodyLimit: config.importBodyLimit,
      budgetMs: config.importBudgetMs,
      status: 201,
      conflict: 'ResponseMetadataPostItinerary',
      response: ItineraryImportResponse,
      reply: ({ itinerary, warnings }) => ({ status: 201, json: { data: itinerary, extensions: { metadata: { warnings } } } }),
    }),
    studioRest(ops.getItineraryExport, {
      summary: 'Download an itinerary as GPX, KML or GeoJSON',
      description:
        "GPX 1.1 (one trk with one continuous trkseg, each segment's first point marked with a <cairn:segment> " +
        'extension; a wpt per named waypoint), KML 2.2 (one LineString Placemark for the whole chain with the index of ' +
        "each segment's first point in its ExtendedData `segment_starts`; a Point Placemark per named waypoint) or a " +
        'GeoJSON FeatureCollection (a LineString Feature per segment with engine, position and groupId; a Point ' +
        'Feature per named waypoint). Waypoints without a name or kind are only junctions and are not written; ' +
        'importing an export gives back the same segments and waypoints. Members and keys read the draft unless ' +
        '`version=published`; share tokens always get the published version (404 when never published).',
      response: ItineraryExportFile,
      reply: (file) => ({
        body: file.bytes,
        contentType: `${file.mediaType}; charset=utf-8`,
        headers: { 'Content-Disposition': disposition(file.fileName), 'Cache-Control': 'private, no-store' },
      }),
    }),
  ];
}
