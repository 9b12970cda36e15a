// An itinerary view → GPX 1.1: one <trk> with one <trkseg> per segment, and a <wpt> per waypoint.

import type { ItineraryView, ViewPosition } from '../itineraries/itinerary-view.js';
import { escapeXml } from './xml-text.js';

const latLon = (p: ViewPosition) => `lat="${p[1]}" lon="${p[0]}"`;
const ele = (p: ViewPosition) => (p.length > 2 ? `<ele>${p[2]}</ele>` : '');
const tag = (name: string, value: string | null | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '');

/** GPX 1.1 text. Coordinates are written at full precision (shortest round-trip form of each double). */
export function toGpx(view: ItineraryView): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Cairn" xmlns="http://www.topografix.com/GPX/1/1" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    `<metadata>${tag('name', view.name)}${tag('desc', view.description)}<time>${escapeXml(view.updated_at)}</time></metadata>`,
  ];
  for (const w of view.waypoints)
    out.push(`<wpt ${latLon(w.coordinates)}>${ele(w.coordinates)}${tag('name', w.name)}${tag('type', w.kind)}</wpt>`);
  out.push(`<trk>${tag('name', view.name)}${tag('type', view.activity)}`);
  for (const s of [...view.segments].sort((a, b) => a.position - b.position)) {
    out.push('<trkseg>');
    for (const p of s.geometry.coordinates) out.push(`<trkpt ${latLon(p)}>${ele(p)}</trkpt>`);
    out.push('</trkseg>');
  }
  out.push('</trk>', '</gpx>', '');
  return out.join('\n');
}
