// An itinerary view → KML 2.2: one Placemark with one LineString for the whole chain (the index of each
// segment's first point in its ExtendedData `segment_starts`), a Placemark with a Point per marked waypoint
// (export-track.ts).

import type { ItineraryView, ViewPosition } from '../../contracts/itinerary-view.js';
import { continuousTrack, markedWaypoints } from './export-track.js';
import { escapeXml } from './xml-text.js';

const tuple = (p: ViewPosition) => p.join(',');
const tag = (name: string, value: string | null | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '');
const data = (name: string, value: string | number | null) =>
  value === null || value === '' ? '' : `<Data name="${name}"><value>${escapeXml(String(value))}</value></Data>`;

/**
 * KML 2.2 text; coordinates `lon,lat[,ele]` at full precision, altitudes absolute when known. One line, not a
 * line per segment: viewers draw separate pieces with gaps and list each as a track of its own.
 */
export function toKml(view: ItineraryView): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    `<Document>${tag('name', view.name)}${tag('description', view.description)}`,
  ];
  const { points, starts } = continuousTrack(view);
  if (points.length > 0) {
    const has3d = points.some((p) => p.length > 2);
    const engines = starts.map(({ segment }) => segment.engine).join(' ');
    out.push(
      `<Placemark>${tag('name', view.name)}` +
        `<ExtendedData>${data('segment_starts', starts.map(({ index }) => index).join(' '))}${data('segment_engines', engines)}</ExtendedData>` +
        `<LineString>${has3d ? '<altitudeMode>absolute</altitudeMode>' : ''}` +
        `<coordinates>${points.map(tuple).join(' ')}</coordinates></LineString></Placemark>`,
    );
  }
  for (const w of markedWaypoints(view)) {
    out.push(
      `<Placemark>${tag('name', w.name)}${tag('description', w.description)}<ExtendedData>${data('kind', w.kind)}${data('position', w.position)}</ExtendedData>` +
        `<Point>${w.coordinates.length > 2 ? '<altitudeMode>absolute</altitudeMode>' : ''}` +
        `<coordinates>${tuple(w.coordinates)}</coordinates></Point></Placemark>`,
    );
  }
  out.push('</Document>', '</kml>', '');
  return out.join('\n');
}
