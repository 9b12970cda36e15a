// Import and export of itineraries (DESIGN §6 #19 postItineraryImport, #25 getItineraryExport), transport-free:
// GPX, KML, KMZ and GeoJSON in; GPX, KML and GeoJSON out. Files are read and planned, and exports written, on
// the worker pool (workers/transfer.ts); the chain is made by the itinerary service.
// Failure paths are relative to each operation's input (`file` is the uploaded file).

import type { Activity } from '../../../data/model/itinerary.js';
import type { Access } from '../../auth/access.js';
import { defineOperation, inputObject, SHARED_READ_REACH, STUDIO_REACH, type UploadedFile } from '../../core/operation.js';
import { actorOf } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import { createItineraryFromLines, readVisibleItinerary, targetOrganization } from '../itineraries/itinerary-service.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import type { StudioDeps } from '../studio-deps.js';
import { taskError } from '../../pool/task-error.js';
import { cleanDescription, importName } from '../../../lib/import-text.js';
import { type ImportWarning, importWarnings } from './import-warnings.js';
import { problemToError } from './transfer-messages.js';
import { EXPORT_CONTENT_TYPES, ItineraryExportQuery, ItineraryImportQuery } from './transfer-schemas.js';
import { ItineraryParams } from '../itineraries/itinerary-schemas.js';
import type { ExportFormat } from '../../../contracts/transfer.js';

export interface ImportInput {
  file: UploadedFile;
  name?: string;
  activity?: Activity;
  privacy?: 'public' | 'private';
  collection_id?: string;
  organization_id?: string;
}

export interface ExportInput {
  itinerary_id: string;
  format?: ExportFormat;
  version?: 'draft' | 'published';
}

/** An exported itinerary: its UTF-8 text in `format`, with the media type and a file name. */
export interface ExportedFile {
  bytes: Uint8Array;
  mediaType: string;
  /** The itinerary's name with the format's extension. */
  fileName: string;
}

/** An import's result: the new itinerary, and what the file held that it does not keep (`[]` when nothing). */
export interface ImportResult {
  itinerary: ItineraryView;
  warnings: ImportWarning[];
}

const EXTENSIONS: Record<ExportFormat, string> = { gpx: 'gpx', kml: 'kml', geojson: 'geojson' };

export function transferOperations(deps: StudioDeps) {
  return {
    postItineraryImport: defineOperation({
      id: 'postItineraryImport',
      scope: 'resources',
      writes: true,
      reach: STUDIO_REACH,
      input: inputObject({ query: ItineraryImportQuery, file: 'file' }),
      async run(caller: Access, input: ImportInput, { signal, lang }): Promise<ImportResult> {
        const actor = actorOf(caller);
        if (!actor) throw new ApiError('FORBIDDEN');
        // Who may write where is decided before the file is read: a viewer learns nothing about their file.
        const organizationId = await targetOrganization(deps, caller, input.organization_id, input.collection_id);
        if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
        const { content, mediaType } = input.file;
        const read = await deps.pool.runTask('readImport', { content, mediaType, inflateLimit: deps.config.importBodyLimit }, { signal });
        if (!read.ok) throw 'problem' in read ? problemToError(read.problem, lang, ['file']) : taskError(read);
        const { plan } = read;
        const itinerary = await createItineraryFromLines(deps, {
          organizationId,
          actorUserId: actor,
          name: importName({ requested: input.name, file: read.name, track: read.trackName }),
          description: cleanDescription(read.description),
          activity: input.activity ?? 'HIKING_AND_TRAIL',
          privacy: input.privacy ?? 'private',
          collectionId: input.collection_id,
          lines: plan.lines,
          waypoints: plan.waypoints,
        }).catch((error: unknown) => {
          // The planned lines are the file's: a line the chain refuses is a problem of the file.
          throw error instanceof ApiError ? error.withPaths((path) => (path[0] === 'lines' ? ['file'] : path)) : error;
        });
        return { itinerary, warnings: importWarnings(plan.losses, lang) };
      },
    }),

    /** The itinerary as a file: members and keys read the draft unless asked otherwise; share links the published one. */
    getItineraryExport: defineOperation({
      id: 'getItineraryExport',
      scope: 'resources',
      writes: false,
      reach: SHARED_READ_REACH,
      input: inputObject({ params: ItineraryParams, query: ItineraryExportQuery }),
      async run(caller: Access, input: ExportInput, { signal }): Promise<ExportedFile> {
        const view = await readVisibleItinerary(deps, caller, input.itinerary_id, input.version ?? 'draft');
        const format = input.format ?? 'gpx';
        if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
        // Thousands of track points to format: written on the pool, the bytes handed back without a copy.
        const bytes = await deps.pool.runTask('writeExport', { view, format }, { signal });
        if (!(bytes instanceof Uint8Array)) throw taskError(bytes);
        return { bytes, mediaType: EXPORT_CONTENT_TYPES[format], fileName: `${view.name}.${EXTENSIONS[format]}` };
      },
    }),
  };
}
