// GPX read on the document beyond what @tmcw/togeojson reports: what track (or route) points and tracks
// carry that an itinerary does not keep (times, device extensions such as Garmin's heart rate and cadence,
// other fields), routes left aside for the tracks, waypoints' extensions, and the segment markers of
// Cairn's own export (serialize-gpx.ts).

import type { ImportedTrack, Position } from './imported-track.js';
import { addLoss, type Losses } from './import-losses.js';
import { childElement, localName, type XmlDocument, type XmlElement } from './xml-document.js';

/** Namespace of Cairn's GPX extension elements (`<cairn:segment/>` on the first point of each segment). */
export const CAIRN_GPX_NAMESPACE = 'urn:cairn:itinerary:1';

/** Children of a track or route point that are read (the position is in its attributes). */
const POINT_READ = new Set(['ele']);
/** Children of a track or route that are read or are its points: its name names the itinerary. */
const LINE_READ = new Set(['name', 'trkseg', 'rtept']);
/**
 * A track's `<type>` spelled as a Cairn activity (HIKING_AND_TRAIL: what Cairn's export writes) is what the
 * `activity` parameter sets, so it is not a loss; a device's own type ("hiking") is.
 */
const isActivity = (e: XmlElement) => localName(e) === 'type' && /^[A-Z]+(?:_[A-Z]+)*$/.test((e.textContent ?? '').trim());

function elements(parent: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as XmlElement);
  return out;
}

const isMarker = (e: XmlElement) => e.namespaceURI === CAIRN_GPX_NAMESPACE && localName(e) === 'segment';

/** An element with text or child elements (an empty `<extensions/>` holds nothing). */
const holds = (e: XmlElement) => elements(e).length > 0 || (e.textContent ?? '').trim() !== '';

function all(doc: XmlDocument, name: string): XmlElement[] {
  const list = doc.getElementsByTagName(name);
  const out: XmlElement[] = [];
  for (let i = 0; i < list.length; i++) out.push(list[i] as XmlElement);
  return out;
}

/**
 * Counts the losses of the used lines (`wanted`: tracks, or routes when the file has none) into
 * `track.losses`, attaches each waypoint's extensions to it, and marks Cairn's segment starts. Matching
 * document points to `track.lines` (and `wpt` to `track.waypoints`) is by order; when the counts differ
 * (a point without coordinates skipped) no marker is taken rather than a wrong one.
 * `descriptionUsed`: the first line's `<desc>` became the itinerary's description.
 */
export function readGpxExtras(doc: XmlDocument, track: ImportedTrack, wanted: 'trk' | 'rte', descriptionUsed: boolean): void {
  const losses: Losses = track.losses ?? {};
  track.losses = losses;
  if (wanted === 'trk') addLoss(losses, 'route', all(doc, 'rte').length);

  const lines = all(doc, wanted);
  lines.forEach((line, i) => {
    const other = elements(line).filter((e) => !LINE_READ.has(localName(e)) && !isActivity(e) && holds(e));
    const unread = other.filter((e) => !(i === 0 && descriptionUsed && localName(e) === 'desc'));
    if (unread.length > 0) addLoss(losses, 'feature_properties');
  });

  const points = all(doc, wanted === 'trk' ? 'trkpt' : 'rtept');
  const marked: boolean[] = [];
  for (const point of points) {
    let marker = false;
    let time = false;
    let extension = false;
    let other = false;
    for (const child of elements(point)) {
      const name = localName(child);
      if (name === 'time') time ||= holds(child);
      else if (name === 'extensions') {
        const inside = elements(child);
        marker ||= inside.some(isMarker);
        extension ||= inside.some((e) => !isMarker(e));
      } else if (!POINT_READ.has(name) && holds(child)) other = true;
    }
    marked.push(marker);
    if (time) addLoss(losses, 'track_point_time');
    if (extension) addLoss(losses, 'track_point_extension');
    if (other) addLoss(losses, 'feature_properties');
  }

  const linePoints: Position[] = track.lines.flat();
  if (linePoints.length === marked.length) {
    const starts = track.segmentStarts ?? new Set<Position>();
    marked.forEach((m, i) => {
      if (m) starts.add(linePoints[i] as Position);
    });
    track.segmentStarts = starts;
  }

  const wpts = all(doc, 'wpt');
  if (wpts.length !== track.waypoints.length) return;
  wpts.forEach((wpt, i) => {
    const extensions = childElement(wpt, 'extensions');
    if (!extensions || !holds(extensions)) return;
    const w = track.waypoints[i];
    if (w && !w.losses?.includes('feature_properties')) w.losses = [...(w.losses ?? []), 'feature_properties'];
  });
}
