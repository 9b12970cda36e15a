// Builds the API view of an itinerary (draft or published snapshot) from its record and chain: what GET answers
// and export reads. The view's shapes are in contracts/itinerary-view.ts, since a worker writes exports from them.

import type { Itinerary } from '../../../data/model/itinerary.js';
import type { Chain, ChainGroup, ChainSegment, ChainWaypoint, Coord } from './chain.js';
import type { GroupView, ItineraryView, SegmentView, ViewPosition, WaypointView } from '../../../contracts/itinerary-view.js';

/** A coordinate for JSON: unknown elevation is left out. */
export function viewPosition(c: Coord): ViewPosition {
  return Number.isFinite(c[2]) ? [c[0], c[1], c[2]] : [c[0], c[1]];
}

export function segmentView(s: ChainSegment, position: number): SegmentView {
  return {
    id: s.id,
    position,
    engine: s.engine,
    groupId: s.groupId,
    name: s.name,
    description: s.description,
    distance: s.distance,
    ascent: s.ascent,
    descent: s.descent,
    duration: s.duration,
    geometry: { type: 'LineString', coordinates: s.geometry.map(viewPosition) },
    hazards: s.hazards.map((h) => ({ kind: h.kind, from_distance: h.from, to_distance: h.to })),
  };
}

export function waypointView(w: ChainWaypoint, position: number): WaypointView {
  return { id: w.id, position, name: w.name, kind: w.kind, description: w.description, coordinates: viewPosition(w.coord) };
}

export function groupView(g: ChainGroup): GroupView {
  return { id: g.id, name: g.name, color: g.color, speed: g.speed };
}

/** The fields of a view that come from the itinerary's record alone. */
function recordFields(it: Itinerary) {
  return {
    name: it.name,
    description: it.description,
    activity: it.activity,
    privacy: it.privacy,
    version: it.draftVersion,
    published_version: it.publishedVersion,
    published_at: it.publishedAt,
  };
}

/** `view` with the record fields of `it` (a change that left the chain as it was). */
export function withRecord(view: ItineraryView, it: Itinerary): ItineraryView {
  return { ...view, ...recordFields(it), updated_at: it.updatedAt };
}

export function itineraryView(it: Itinerary, chain: Chain): ItineraryView {
  const sum = (f: (s: ChainSegment) => number) => chain.segments.reduce((n, s) => n + f(s), 0);
  return {
    id: it.id,
    organization_id: it.organizationId,
    ...recordFields(it),
    distance: sum((s) => s.distance),
    ascent: sum((s) => s.ascent),
    descent: sum((s) => s.descent),
    duration: sum((s) => s.duration),
    segments: chain.segments.map(segmentView),
    waypoints: chain.waypoints.map(waypointView),
    groups: chain.groups.map(groupView),
    created_at: it.createdAt,
    updated_at: it.updatedAt,
  };
}
