// An itinerary as the exports write it: its segments as one continuous line (devices draw a break between
// GPX track segments or KML pieces as a gap), with the point where each segment starts, and the waypoints
// worth a mark of their own.

import type { ItineraryView, SegmentView, ViewPosition, WaypointView } from '../../contracts/itinerary-view.js';

export interface ExportTrack {
  /** Every point of the chain in order, each junction once. */
  points: ViewPosition[];
  /** Index in `points` of each segment's first point, in chain order. */
  starts: { index: number; segment: SegmentView }[];
}

const samePlace = (a: ViewPosition | undefined, b: ViewPosition | undefined) =>
  a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1];

/** The chain as one line. A segment starting where the previous one ended (the chain's rule) shares that point. */
export function continuousTrack(view: ItineraryView): ExportTrack {
  const points: ViewPosition[] = [];
  const starts: ExportTrack['starts'] = [];
  for (const segment of [...view.segments].sort((a, b) => a.position - b.position)) {
    const coords = segment.geometry.coordinates;
    const joined = samePlace(points[points.length - 1], coords[0]);
    starts.push({ index: joined ? points.length - 1 : points.length, segment });
    points.push(...(joined ? coords.slice(1) : coords));
  }
  return { points, starts };
}

/**
 * The waypoints an export marks: those with a name, a kind or a description. A junction with none is only where one
 * segment ends and the next begins, which the track's segment markers already say; written as a point it
 * shows on a device as a blank waypoint.
 */
export function markedWaypoints(view: ItineraryView): WaypointView[] {
  return view.waypoints.filter((w) => (w.name ?? '') !== '' || (w.kind ?? '') !== '' || (w.description ?? '') !== '');
}
