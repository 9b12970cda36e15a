// Request schemas of import and export (DESIGN §6 #19, #25; §16).

import { Type } from '@sinclair/typebox';
import { ACTIVITIES } from '../../../data/model/itinerary.js';
import { NameText, StringEnum } from '../../http/schema-types.js';
import { RESPONSE_CONTENT_TYPES } from '../../openapi/openapi-document.js';
import { Itinerary } from '../itineraries/itinerary-schemas.js';
import { EXPORT_FORMATS, type ExportFormat, LOSS_KINDS } from '../../../contracts/transfer.js';

/**
 * Media types an import accepts. application/xml and text/xml are read as GPX or KML by their root element;
 * a zip archive is read as KMZ under any of the XML types too (Google Earth files are often mislabelled);
 * application/octet-stream is told apart by content (zip, JSON, else XML).
 */
export const IMPORT_CONTENT_TYPES = [
  'application/gpx+xml',
  'application/vnd.google-earth.kml+xml',
  'application/vnd.google-earth.kmz',
  'application/geo+json',
  'application/json',
  'application/xml',
  'text/xml',
  'application/octet-stream',
];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  gpx: 'application/gpx+xml',
  kml: 'application/vnd.google-earth.kml+xml',
  geojson: 'application/geo+json',
};

export const ItineraryImportQuery = Type.Object(
  {
    name: Type.Optional(
      NameText({
        description:
          "The new itinerary's name (one line, no control characters). Without it: the file's own name (GPX metadata, " +
          'KML Document, GeoJSON `name`), then its first track\'s name, then "Imported itinerary"; names from the file ' +
          'lose their control characters, and a blank one counts as none.',
      }),
    ),
    activity: Type.Optional(StringEnum(ACTIVITIES, { description: 'Default HIKING_AND_TRAIL.' })),
    privacy: Type.Optional(StringEnum(['public', 'private'], { description: 'Default private.' })),
    collection_id: Type.Optional(Type.String({ format: 'uuid', description: 'File the new itinerary in this collection.' })),
    organization_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Signed-in users in several organizations: where to create it.' }),
    ),
  },
  { additionalProperties: false },
);

export const ItineraryExportQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(EXPORT_FORMATS, { description: 'Default gpx.' })),
    version: Type.Optional(
      StringEnum(['draft', 'published'], { description: 'Members and keys: default draft. Share tokens: published only.' }),
    ),
  },
  { additionalProperties: false },
);

/** The export's body, as the OpenAPI document shows it: one media type per format. */
export const ItineraryExportFile = Type.Unsafe<string>({
  description: 'The itinerary as a file, by `format`.',
  [RESPONSE_CONTENT_TYPES]: {
    [EXPORT_CONTENT_TYPES.gpx]: {
      type: 'string',
      description: 'GPX 1.1: one trk with one trkseg (a <cairn:segment> marker on each segment start), a wpt per named waypoint.',
    },
    [EXPORT_CONTENT_TYPES.kml]: {
      type: 'string',
      description: 'KML 2.2: one LineString Placemark (segment starts in its ExtendedData), a Point Placemark per named waypoint.',
    },
    [EXPORT_CONTENT_TYPES.geojson]: {
      type: 'object',
      description: 'FeatureCollection: a LineString Feature per segment (engine, position, groupId), a Point Feature per named waypoint.',
      required: ['type', 'features'],
      properties: { type: { const: 'FeatureCollection' }, features: { type: 'array', items: { type: 'object' } } },
    },
  },
});

/** One thing of a kind an import left out (server/studio/transfer/import-warnings.ts). */
export const ImportWarning = Type.Object(
  {
    kind: StringEnum(LOSS_KINDS, { description: 'What was left out; stable, for clients to branch on.' }),
    count: Type.Integer({ minimum: 1, description: 'How many (points, waypoints, features…).' }),
    message: Type.String({ description: 'Why, in the language of Accept-Language.' }),
    distance_m: Type.Optional(
      Type.Integer({ minimum: 0, description: 'waypoint_moved_onto_track: the longest move, in metres (rounded up).' }),
    ),
  },
  { $id: 'ImportWarning' },
);

/** The import's answer: the new itinerary, and in the metadata what the file held that it does not keep. */
export const ItineraryImportResponse = Type.Object({
  data: Itinerary,
  extensions: Type.Object({
    metadata: Type.Object({
      warnings: Type.Array(ImportWarning, { description: 'Empty when the import kept everything the file holds.' }),
    }),
  }),
});
