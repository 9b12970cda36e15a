// An itinerary view → GPX 1.1: one <trk> with one continuous <trkseg> (each segment's first point marked
// with <cairn:segment>), and a <wpt> per named, kinded or described waypoint.

import type { ItineraryView, SegmentView, ViewPosition } from '../../contracts/itinerary-view.js';
import { continuousTrack, markedWaypoints } from './export-track.js';
import { CAIRN_GPX_NAMESPACE } from './gpx-extras.js';
import { escapeXml } from './xml-text.js';

const latLon = (p: ViewPosition) => `lat="${p[1]}" lon="${p[0]}"`;
const ele = (p: ViewPosition) => (p.length > 2 ? `<ele>${p[2]}</ele>` : '');
const tag = (name: string, value: string | null | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '');

/** The marker of a segment's first point: the importer splits there (gpx-extras.ts); other readers skip it. */
const marker = (s: SegmentView) =>
  `<extensions><cairn:segment position="${s.position}" engine="${s.engine}"${s.name ? ` name="${escapeXml(s.name)}"` : ''}/></extensions>`;

/**
 * GPX 1.1 text. Coordinates are written at full precision (shortest round-trip form of each double). The
 * segments make one trkseg: a device draws each trkseg break as a gap in the line.
 */
export function toGpx(view: ItineraryView): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Cairn" xmlns="http://www.topografix.com/GPX/1/1" ' +
      `xmlns:cairn="${CAIRN_GPX_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
      'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    `<metadata>${tag('name', view.name)}${tag('desc', view.description)}<time>${escapeXml(view.updated_at)}</time></metadata>`,
  ];
  for (const w of markedWaypoints(view))
    out.push(
      `<wpt ${latLon(w.coordinates)}>${ele(w.coordinates)}${tag('name', w.name)}${tag('desc', w.description)}${tag('type', w.kind)}</wpt>`,
    );
  out.push(`<trk>${tag('name', view.name)}${tag('type', view.activity)}`);
  const { points, starts } = continuousTrack(view);
  if (points.length > 0) {
    const startOf = new Map(starts.map(({ index, segment }) => [index, segment]));
    out.push('<trkseg>');
    points.forEach((p, i) => {
      const segment = startOf.get(i);
      out.push(`<trkpt ${latLon(p)}>${ele(p)}${segment ? marker(segment) : ''}</trkpt>`);
    });
    out.push('</trkseg>');
  }
  out.push('</trk>', '</gpx>', '');
  return out.join('\n');
}
