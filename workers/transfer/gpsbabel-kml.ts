// What gpsbabel's KML writer (`gpsbabel -o kml`) generates on its own, told apart from the file's content.
// gpsbabel writes every track point a second time as a Point Placemark in a "Points" folder, named
// "<track name>-<index>" and described by a table of its own coordinates, time and speed; it names every
// Document "GPS device" and every track line "Path", with the track's name on the enclosing Folder.
// Left as they are, the points would each become a named waypoint splitting the track, and every import
// would be called "GPS device". Once their generated text is removed they carry nothing of their own, and
// the import plan treats such points on the line as track decoration (import-plan.ts).
// With `-o kml,track=1` gpsbabel also writes each track a second time, as a gx:Track Placemark styled
// "#multiTrack" next to the track's folder: read as well, every point would be imported twice.

import { childElement, childText, localName, parentElement, type XmlDocument, type XmlElement } from './xml-document.js';

/** Labels of the rows gpsbabel writes in a track point's description (kml_output_description). */
const POINT_DATA_ROW = /^(?:Longitude|Latitude|Altitude|Heart rate|Cadence|Temperature|Depth|Speed|Heading|Time): \S/;

/** A description that is only gpsbabel's table of the point's own data (position, altitude, speed…). */
function isGeneratedPointData(description: string): boolean {
  const rows = description
    .replace(/<[^>]*>/g, '\n')
    .split('\n')
    .map((row) => row.trim())
    .filter((row) => row !== '');
  return (
    rows.length >= 2 &&
    rows.every((row) => POINT_DATA_ROW.test(row)) &&
    rows.some((row) => row.startsWith('Longitude:')) &&
    rows.some((row) => row.startsWith('Latitude:'))
  );
}

const isFolder = (e: XmlElement | undefined): e is XmlElement => e !== undefined && localName(e) === 'Folder';

/** "<track name>-<n>" for a point gpsbabel put in the "Points" folder of that track's folder. */
function isGeneratedPointName(placemark: XmlElement, name: string): boolean {
  const points = parentElement(placemark);
  if (!isFolder(points) || childText(points, 'name')?.trim() !== 'Points') return false;
  const track = parentElement(points);
  if (!isFolder(track)) return false;
  const match = /^(.*)-\d+$/.exec(name);
  return match !== null && match[1] === (childText(track, 'name')?.trim() ?? '');
}

function remove(element: XmlElement | undefined): void {
  element?.parentNode?.removeChild(element);
}

/**
 * Removes what gpsbabel generated from `doc`: the "GPS device" Document name, the names and descriptions
 * it made up for Point Placemarks, and the gx:Track copy of a track also written as lines. Text a person
 * gave (a named track point, a real description) is left alone.
 */
export function removeGpsbabelExtras(doc: XmlDocument): void {
  for (const placemark of repeatedTracks(doc)) remove(placemark);
  const root = doc.documentElement;
  const document = childElement(root, 'Document');
  const name = childText(document, 'name')?.trim();
  if ((name === 'GPS device' || name === 'GPS position') && /^Created /.test(childText(document, 'snippet')?.trim() ?? '')) {
    remove(childElement(document, 'name'));
  }
  const placemarks = doc.getElementsByTagName('Placemark');
  for (let i = 0; i < placemarks.length; i++) {
    const placemark = placemarks[i] as XmlElement;
    if (!childElement(placemark, 'Point')) continue;
    const pointName = childText(placemark, 'name')?.trim();
    if (pointName !== undefined && isGeneratedPointName(placemark, pointName)) remove(childElement(placemark, 'name'));
    const description = childText(placemark, 'description');
    if (description !== undefined && isGeneratedPointData(description)) remove(childElement(placemark, 'description'));
  }
}

/** The `#multiTrack` gx:Track Placemarks that repeat a track whose folder (same name) also holds its "Path". */
function repeatedTracks(doc: XmlDocument): XmlElement[] {
  const repeated: XmlElement[] = [];
  const placemarks = doc.getElementsByTagName('Placemark');
  for (let i = 0; i < placemarks.length; i++) {
    const placemark = placemarks[i] as XmlElement;
    if (childText(placemark, 'styleUrl')?.trim() !== '#multiTrack' || !childElement(placemark, 'Track')) continue;
    const name = childText(placemark, 'name')?.trim() ?? '';
    for (let n = placemark.parentNode?.firstChild; n; n = n.nextSibling) {
      const folder = n as XmlElement;
      if (n.nodeType !== 1 || !isFolder(folder) || (childText(folder, 'name')?.trim() ?? '') !== name) continue;
      const paths = folder.getElementsByTagName('Placemark');
      let hasPath = false;
      for (let k = 0; k < paths.length && !hasPath; k++) hasPath = gpsbabelTrackName(paths[k] as XmlElement) !== undefined;
      if (hasPath) {
        repeated.push(placemark);
        break;
      }
    }
  }
  return repeated;
}

/** gpsbabel names each track's line Placemark "Path" inside a Folder named after the track: that name. */
export function gpsbabelTrackName(placemark: XmlElement): string | undefined {
  if (childText(placemark, 'name')?.trim() !== 'Path') return undefined;
  const folder = parentElement(placemark);
  return isFolder(folder) ? childText(folder, 'name') : undefined;
}
