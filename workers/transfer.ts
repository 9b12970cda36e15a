// Piscina task module for transfers: reads an uploaded GPX, KML, KMZ or GeoJSON file and plans the chain it
// imports as. @xmldom/xmldom and @tmcw/togeojson need about a second per MiB of GPX, and a small KMZ may
// unpack to the whole import limit, so no upload is read on the main thread.
import { planImport } from '../server/studio/transfer/import-plan.js';
import type { ImportedTrack } from '../server/studio/transfer/imported-track.js';
import { looksLikeJson, parseGeoJsonTrack } from '../server/studio/transfer/parse-geojson-track.js';
import { parseXmlTrack } from '../server/studio/transfer/parse-xml-track.js';
import { ImportProblem } from '../server/studio/transfer/transfer-messages.js';
import type { ImportFileProblem, ReadImportInput, ReadImportOutput } from './protocol.js';

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
