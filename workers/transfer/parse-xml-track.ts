// GPX 1.0/1.1 and KML 2.2 files (and KMZ archives of KML) → ImportedTrack, through @tmcw/togeojson on an
// @xmldom/xmldom document. The format is decided by the content (a zip, then the root element), so
// application/xml, text/xml and application/octet-stream uploads work too.

import { gpx, kml } from '@tmcw/togeojson';
import { gpsbabelTrackName, removeGpsbabelExtras } from './gpsbabel-kml.js';
import { readGpxExtras } from './gpx-extras.js';
import { type ImportedTrack, readFeatures } from './imported-track.js';
import { addLoss } from './import-losses.js';
import { cleanDescription, cleanName } from '../../lib/import-text.js';
import { isZip, kmlFromKmz } from './kmz-archive.js';
import { ImportProblem } from './import-problem.js';
import { childElement, childText, localName, parseXmlDocument, type XmlDocument, type XmlElement } from './xml-document.js';

function readGpx(doc: XmlDocument): ImportedTrack {
  const root = doc.documentElement as XmlElement;
  const collection = gpx(doc as never);
  // Tracks are what was walked; routes are only a plan, used when the file has no track.
  const hasTrack = collection.features.some((f) => f.properties?._gpxType === 'trk' && f.geometry);
  const wanted = hasTrack ? 'trk' : 'rte';
  const track: ImportedTrack = readFeatures(collection, {
    lineFeature: (p) => p._gpxType === wanted,
    kindProperty: 'type',
    pointsMayDecorate: false,
    countLineProperties: false,
  });
  const metadata = childElement(root, 'metadata');
  const first = childElement(root, wanted);
  // GPX 1.1 names the file in <metadata>; GPX 1.0 directly under <gpx>.
  const name = cleanName(childText(metadata, 'name')) ?? cleanName(childText(root, 'name'));
  const trackName = cleanName(childText(first, 'name'));
  const description =
    cleanDescription(childText(metadata, 'desc')) ??
    cleanDescription(childText(root, 'desc')) ??
    cleanDescription(childText(first, 'desc'));
  if (name) track.name = name;
  if (trackName) track.trackName = trackName;
  if (description) track.description = description;
  const fileDescription = cleanDescription(childText(metadata, 'desc')) ?? cleanDescription(childText(root, 'desc'));
  readGpxExtras(doc, track, wanted, description !== undefined && fileDescription === undefined);
  return track;
}

const LINE_ELEMENTS = new Set(['LineString', 'Track', 'MultiTrack']);

/** True when `element` holds a line (LineString, gx:Track, gx:MultiTrack), at any depth. */
function holdsLine(element: XmlElement): boolean {
  for (let n = element.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (LINE_ELEMENTS.has(localName(n as XmlElement)) || holdsLine(n as XmlElement))) return true;
  }
  return false;
}

/** The name of the first Placemark holding a line. */
function firstLineName(doc: XmlDocument): string | undefined {
  const placemarks = doc.getElementsByTagName('Placemark');
  for (let i = 0; i < placemarks.length; i++) {
    const placemark = placemarks[i] as XmlElement;
    if (holdsLine(placemark)) return cleanName(gpsbabelTrackName(placemark)) ?? cleanName(childText(placemark, 'name'));
  }
  return undefined;
}

/**
 * Points of gx:Track lines that carry data of their own (heart rate, cadence… as gx:SimpleArrayData, one
 * value per point), which @tmcw/togeojson does not read: the longest such array of each track.
 */
function trackPointData(doc: XmlDocument): number {
  let points = 0;
  const arrays = doc.getElementsByTagNameNS('*', 'SimpleArrayData');
  const longest = new Map<unknown, number>();
  for (let i = 0; i < arrays.length; i++) {
    const array = arrays[i] as XmlElement;
    const values = array.getElementsByTagNameNS('*', 'value').length;
    let track = array.parentNode;
    while (track && localName(track as XmlElement) !== 'Track') track = track.parentNode;
    longest.set(track, Math.max(longest.get(track) ?? 0, values));
  }
  for (const n of longest.values()) points += n;
  return points;
}

function readKml(doc: XmlDocument): ImportedTrack {
  removeGpsbabelExtras(doc);
  const sensorPoints = trackPointData(doc);
  const root = doc.documentElement as XmlElement;
  const track: ImportedTrack = readFeatures(kml(doc as never), {
    kindProperty: 'kind',
    pointsMayDecorate: true,
    countLineProperties: true,
  });
  track.losses ??= {};
  addLoss(track.losses, 'track_point_extension', sensorPoints);
  const container = childElement(root, 'Document') ?? childElement(root, 'Folder');
  const name = cleanName(childText(container, 'name'));
  const trackName = firstLineName(doc);
  const description = cleanDescription(childText(container, 'description'));
  if (name) track.name = name;
  if (trackName) track.trackName = trackName;
  if (description) track.description = description;
  return track;
}

/**
 * Reads a GPX or KML file, or a KMZ archive (whose KML may unpack to at most `inflateLimit` bytes); throws
 * ImportProblem when it is none of these or is malformed.
 */
export function parseXmlTrack(bytes: Uint8Array, inflateLimit: number): ImportedTrack {
  const doc = parseXmlDocument(isZip(bytes) ? kmlFromKmz(bytes, inflateLimit) : bytes);
  const root = doc.documentElement as XmlElement;
  const kind = localName(root).toLowerCase();
  if (kind === 'gpx') return readGpx(doc);
  if (kind === 'kml') return readKml(doc);
  throw new ImportProblem('not_gpx_or_kml');
}
