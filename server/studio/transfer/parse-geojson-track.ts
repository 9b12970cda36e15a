// GeoJSON files (RFC 7946) → ImportedTrack: LineStrings and MultiLineStrings are the lines, Points the waypoints.

import { type ImportedTrack, isObject, nonEmptyText, readFeatures } from './imported-track.js';
import { ImportProblem } from './transfer-messages.js';

/** Reads already-parsed JSON (application/json bodies) or raw bytes (application/geo+json). */
export function parseGeoJsonTrack(input: Uint8Array | unknown): ImportedTrack {
  let root: unknown = input;
  if (input instanceof Uint8Array) {
    try {
      root = JSON.parse(new TextDecoder('utf-8').decode(input));
    } catch {
      throw new ImportProblem('malformed_json');
    }
  }
  const track: ImportedTrack = readFeatures(root, { kindProperty: 'kind' });
  if (isObject(root)) {
    // `name` and `description` as foreign members (what Cairn exports), else the collection's or first line's properties.
    const props = isObject(root.properties) ? root.properties : {};
    const firstLine = Array.isArray(root.features)
      ? root.features.find((f: unknown) => isObject(f) && isObject(f.geometry) && /LineString$/.test(String(f.geometry.type)))
      : undefined;
    const lineProps = isObject(firstLine) && isObject(firstLine.properties) ? firstLine.properties : {};
    const name = nonEmptyText(root.name) ?? nonEmptyText(props.name) ?? nonEmptyText(lineProps.name);
    const description = nonEmptyText(root.description) ?? nonEmptyText(props.description);
    if (name) track.name = name;
    if (description) track.description = description;
  }
  return track;
}
