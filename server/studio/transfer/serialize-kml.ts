// An itinerary view → KML 2.2: a Placemark with a LineString per segment, a Placemark with a Point per waypoint.

import type { ItineraryView, ViewPosition } from '../itineraries/itinerary-view.js';
import { escapeXml } from './xml-text.js';

const tuple = (p: ViewPosition) => p.join(',');
const tag = (name: string, value: string | null | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '');
const data = (name: string, value: string | number | null) =>
  value === null || value === '' ? '' : `<Data name="${name}"><value>${escapeXml(String(value))}</value></Data>`;

/** KML 2.2 text; coordinates `lon,lat[,ele]` at full precision, altitudes absolute when known. */
export function toKml(view: ItineraryView): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    `<Document>${tag('name', view.name)}${tag('description', view.description)}`,
  ];
  for (const s of [...view.segments].sort((a, b) => a.position - b.position)) {
    const has3d = s.geometry.coordinates.some((p) => p.length > 2);
    out.push(
      `<Placemark>${tag('name', s.name ?? `Segment ${s.position + 1}`)}` +
        `<ExtendedData>${data('engine', s.engine)}${data('position', s.position)}${data('groupId', s.groupId)}</ExtendedData>` +
        `<LineString>${has3d ? '<altitudeMode>absolute</altitudeMode>' : ''}` +
        `<coordinates>${s.geometry.coordinates.map(tuple).join(' ')}</coordinates></LineString></Placemark>`,
    );
  }
  for (const w of view.waypoints) {
    out.push(
      `<Placemark>${tag('name', w.name)}<ExtendedData>${data('kind', w.kind)}${data('position', w.position)}</ExtendedData>` +
        `<Point>${w.coordinates.length > 2 ? '<altitudeMode>absolute</altitudeMode>' : ''}` +
        `<coordinates>${tuple(w.coordinates)}</coordinates></Point></Placemark>`,
    );
  }
  out.push('</Document>', '</kml>', '');
  return out.join('\n');
}
