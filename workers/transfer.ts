// Piscina task module for transfers: reads an uploaded GPX, KML, KMZ or GeoJSON file and plans the chain it
// imports as, and writes an itinerary out as GPX, KML or GeoJSON. @xmldom/xmldom and @tmcw/togeojson need
// about a second per MiB of GPX, a small KMZ may unpack to the whole import limit, and an export formats
// every track point: none of it runs on the main thread.
import { move } from 'piscina';
import { planImport } from './transfer/import-plan.js';
import type { ImportedTrack } from './transfer/imported-track.js';
import { looksLikeJson, parseGeoJsonTrack } from './transfer/parse-geojson-track.js';
import { parseXmlTrack } from './transfer/parse-xml-track.js';
import { ImportProblem } from './transfer/import-problem.js';
import { toGeoJson } from './transfer/serialize-geojson.js';
import { toGpx } from './transfer/serialize-gpx.js';
import { toKml } from './transfer/serialize-kml.js';
import type { ExportFormat, ImportFileProblem, ReadImportInput, ReadImportOutput, WriteExportInput } from '../contracts/transfer.js';

const WRITERS: Record<ExportFormat, typeof toGpx> = { gpx: toGpx, kml: toKml, geojson: toGeoJson };

/** The itinerary as a file in `format`: UTF-8 bytes in a buffer of their own, moved to the caller (not copied). */
export function writeExport({ view, format }: WriteExportInput): Uint8Array {
  return move(new TextEncoder().encode(WRITERS[format](view))) as unknown as Uint8Array;
}

/**
 * The file read by its media type (JSON arrives parsed, the others as bytes). Bytes of any other type are a
 * GPX, KML or KMZ file, told apart by their content; application/octet-stream may also be GeoJSON.
 */
function readTrack({ content, mediaType, inflateLimit }: ReadImportInput): ImportedTrack {
  if (content === undefined) throw new ImportProblem('empty');
  if (mediaType === 'application/json' || mediaType === 'application/geo+json') return parseGeoJsonTrack(content);
  const bytes = content as Uint8Array;
  if (mediaType === 'application/octet-stream' && looksLikeJson(bytes)) return parseGeoJsonTrack(bytes);
  return parseXmlTrack(bytes, inflateLimit);
}

/** Reads the upload and plans its chain; a file that cannot be imported is a problem value, not an error. */
export function readImport(input: ReadImportInput): ReadImportOutput | ImportFileProblem {
  try {
    const track = readTrack(input);
    const out: ReadImportOutput = { ok: true, plan: planImport(track) };
    if (track.name !== undefined) out.name = track.name;
    if (track.trackName !== undefined) out.trackName = track.trackName;
    if (track.description !== undefined) out.description = track.description;
    return out;
  } catch (error) {
    if (error instanceof ImportProblem) return { ok: false, problem: { key: error.key, params: error.params } };
    throw error;
  }
}
