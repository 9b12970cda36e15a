// An itinerary view → a GeoJSON FeatureCollection: one LineString Feature per segment, one Point per marked
// waypoint (export-track.ts).

import type { ItineraryView } from '../../contracts/itinerary-view.js';
import { markedWaypoints } from './export-track.js';

/**
 * RFC 7946 FeatureCollection. Segment features carry `engine`, `position` and `groupId` (the importer splits
 * between features so marked); waypoint features, for waypoints with a name, kind or description, `name`,
 * `kind`, `description` and `position`. The itinerary's `name` and `description` ride as foreign members.
 */
export function toGeoJson(view: ItineraryView): string {
  const segments = [...view.segments]
    .sort((a, b) => a.position - b.position)
    .map((s) => ({
      type: 'Feature',
      id: s.id,
      properties: {
        engine: s.engine,
        position: s.position,
        groupId: s.groupId,
        name: s.name,
        distance: s.distance,
        ascent: s.ascent,
        descent: s.descent,
        duration: s.duration,
      },
      geometry: { type: 'LineString', coordinates: s.geometry.coordinates },
    }));
  const waypoints = markedWaypoints(view).map((w) => ({
    type: 'Feature',
    id: w.id,
    properties: { name: w.name, kind: w.kind, description: w.description, position: w.position },
    geometry: { type: 'Point', coordinates: w.coordinates },
  }));
  return JSON.stringify({
    type: 'FeatureCollection',
    name: view.name,
    description: view.description,
    features: [...segments, ...waypoints],
  });
}
