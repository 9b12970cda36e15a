// GPX 1.0/1.1 and KML 2.2 files → ImportedTrack, through @tmcw/togeojson on an @xmldom/xmldom document.
// The format is decided by the root element, so application/xml and text/xml uploads work too.

import { gpx, kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { type ImportedTrack, nonEmptyText, readFeatures } from './imported-track.js';
import { ImportProblem } from './transfer-messages.js';

type XmlDocument = ReturnType<DOMParser['parseFromString']>;
type XmlElement = NonNullable<XmlDocument['documentElement']>;

/** Parses XML, refusing anything not well-formed (xmldom's errors and fatal errors; warnings pass). */
function parseXml(source: string): XmlDocument {
  let problem: string | undefined;
  const parser = new DOMParser({
    // Without the locator xmldom parses about 40% faster; messages then carry no line and column.
    locator: false,
    onError: (level, message) => {
      if (level !== 'warning') problem ??= String(message).split('\n')[0]?.trim() || 'parse error';
    },
  });
  let doc: XmlDocument;
  try {
    doc = parser.parseFromString(source, 'text/xml');
  } catch (error) {
    throw new ImportProblem('malformed_xml', { detail: problem ?? (error instanceof Error ? error.message.split('\n')[0] ?? '' : 'parse error') });
  }
  if (problem || !doc.documentElement) throw new ImportProblem('malformed_xml', { detail: problem ?? 'missing root element' });
  return doc;
}

/** The text of the first direct child of `parent` named `name` (namespace prefix ignored). */
function childText(parent: XmlElement | null | undefined, name: string): string | undefined {
  if (!parent) return undefined;
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && ((n as XmlElement).localName ?? n.nodeName) === name) return nonEmptyText(n.textContent);
  }
  return undefined;
}

function childElement(parent: XmlElement | null | undefined, name: string): XmlElement | undefined {
  if (!parent) return undefined;
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && ((n as XmlElement).localName ?? n.nodeName) === name) return n as XmlElement;
  }
  return undefined;
}

function readGpx(doc: XmlDocument): ImportedTrack {
  const root = doc.documentElement as XmlElement;
  const collection = gpx(doc as never);
  // Tracks are what was walked; routes are only a plan, used when the file has no track.
  const hasTrack = collection.features.some((f) => f.properties?._gpxType === 'trk' && f.geometry);
  const wanted = hasTrack ? 'trk' : 'rte';
  const { lines, waypoints } = readFeatures(collection, {
    lineFeature: (p) => p._gpxType === wanted,
    kindProperty: 'type',
  });
  const metadata = childElement(root, 'metadata');
  const first = childElement(root, hasTrack ? 'trk' : 'rte');
  const track: ImportedTrack = { lines, waypoints };
  // GPX 1.1 names the file in <metadata>; GPX 1.0 directly under <gpx>.
  const name = childText(metadata, 'name') ?? childText(root, 'name') ?? childText(first, 'name');
  const description = childText(metadata, 'desc') ?? childText(root, 'desc') ?? childText(first, 'desc');
  if (name) track.name = name;
  if (description) track.description = description;
  return track;
}

function readKml(doc: XmlDocument): ImportedTrack {
  const root = doc.documentElement as XmlElement;
  const { lines, waypoints } = readFeatures(kml(doc as never), { kindProperty: 'kind' });
  const container = childElement(root, 'Document') ?? childElement(root, 'Folder');
  const placemark = doc.getElementsByTagName('Placemark')[0];
  const track: ImportedTrack = { lines, waypoints };
  const name = childText(container, 'name') ?? childText(placemark, 'name');
  const description = childText(container, 'description');
  if (name) track.name = name;
  if (description) track.description = description;
  return track;
}

/** Reads a GPX or KML file (by its root element); throws ImportProblem when it is neither or is malformed. */
export function parseXmlTrack(bytes: Uint8Array): ImportedTrack {
  const doc = parseXml(new TextDecoder('utf-8').decode(bytes));
  const root = doc.documentElement as XmlElement;
  const kind = (root.localName ?? root.nodeName).toLowerCase();
  if (kind === 'gpx') return readGpx(doc);
  if (kind === 'kml') return readKml(doc);
  throw new ImportProblem('not_gpx_or_kml');
}
