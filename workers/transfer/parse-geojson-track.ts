// GeoJSON files (RFC 7946) → ImportedTrack: LineStrings and MultiLineStrings are the lines, Points the waypoints.

import { type ImportedTrack, isObject, readFeatures } from './imported-track.js';
import { cleanDescription, cleanName } from '../../lib/import-text.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import { ImportProblem } from './import-problem.js';

/** True when the bytes start (after white space and a byte-order mark) like a JSON object or array. */
export function looksLikeJson(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length && i < 1024; i++) {
    const b = bytes[i] as number;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    if (i === 0 && b === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      i += 2;
      continue;
    }
    return b === 0x7b || b === 0x5b;
  }
  return false;
}

/** Reads already-parsed JSON (application/json bodies) or raw bytes (application/geo+json). */
export function parseGeoJsonTrack(input: Uint8Array | unknown): ImportedTrack {
  let root: unknown = input;
  if (input instanceof Uint8Array) {
    const text = new TextDecoder('utf-8').decode(input);
    // The same bound as every JSON body (lib/json-depth.ts): reading a deeper document recurses per level.
    if (jsonNestsDeeperThan(text)) throw new ImportProblem('json_too_deep', { max: MAX_JSON_DEPTH });
    try {
      root = JSON.parse(text);
    } catch {
      // The parser's message quotes the file: never passed on.
      throw new ImportProblem('malformed_json');
    }
  }
  const track: ImportedTrack = readFeatures(root, {
    kindProperty: 'kind',
    pointsMayDecorate: true,
    countLineProperties: true,
  });
  if (isObject(root)) {
    // `name` and `description` as foreign members (what Cairn exports), else the collection's properties;
    // the first line's name is the track's.
    const props = isObject(root.properties) ? root.properties : {};
    const firstLine = Array.isArray(root.features)
      ? root.features.find((f: unknown) => isObject(f) && isObject(f.geometry) && /LineString$/.test(String(f.geometry.type)))
      : root.type === 'Feature'
        ? root
        : undefined;
    const lineProps = isObject(firstLine) && isObject(firstLine.properties) ? firstLine.properties : {};
    const name = cleanName(root.name) ?? (root.type === 'FeatureCollection' ? cleanName(props.name) : undefined);
    const trackName = cleanName(lineProps.name);
    const description = cleanDescription(root.description) ?? cleanDescription(props.description);
    if (name) track.name = name;
    if (trackName) track.trackName = trackName;
    if (description) track.description = description;
  }
  return track;
}
