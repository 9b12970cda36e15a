// What gpsbabel's KML writer (`gpsbabel -o kml`) generates on its own, told apart from the file's content.
// gpsbabel writes every track point a second time as a Point Placemark in a "Points" folder, named
// "<track name>-<index>" and described by a table of its own coordinates, time and speed; it names every
// Document "GPS device" and every track line "Path", with the track's name on the enclosing Folder.
// Left as they are, the points would each become a named waypoint splitting the track, and every import
// would be called "GPS device". Once their generated text is removed they carry nothing of their own, and
// the import plan treats such points on the line as track decoration (import-plan.ts).

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
 * Removes the text gpsbabel generated from `doc`: the "GPS device" Document name, and the names and
 * descriptions it made up for Point Placemarks. Text a person gave (a named track point, a real
 * description) is left alone.
 */
export function removeGpsbabelText(doc: XmlDocument): void {
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

/** gpsbabel names each track's line Placemark "Path" inside a Folder named after the track: that name. */
export function gpsbabelTrackName(placemark: XmlElement): string | undefined {
  if (childText(placemark, 'name')?.trim() !== 'Path') return undefined;
  const folder = parentElement(placemark);
  return isFolder(folder) ? childText(folder, 'name') : undefined;
}
