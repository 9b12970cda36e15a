// The API view of an itinerary (draft or published snapshot): what GET answers and what an export writes.

export type ViewPosition = [number, number] | [number, number, number];

export interface SegmentView {
  id: string;
  position: number;
  engine: 'smart' | 'freehand';
  groupId: string | null;
  name: string | null;
  description: string | null;
  distance: number;
  ascent: number;
  descent: number;
  duration: number;
  geometry: { type: 'LineString'; coordinates: ViewPosition[] };
  /** Restrictions the line crosses for the itinerary's activity, in metres from the segment's start. */
  hazards: { kind: 'TOLLWAY' | 'RESTRICTED_ACCESS'; from_distance: number; to_distance: number }[];
}

export interface WaypointView {
  id: string;
  position: number;
  name: string | null;
  kind: string | null;
  description: string | null;
  coordinates: ViewPosition;
}

export interface GroupView {
  id: string;
  name: string;
  color: string;
  speed: number | null;
}

export interface ItineraryView {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  activity: string;
  privacy: 'public' | 'private';
  /** The draft version this view shows. */
  version: number;
  published_version: number | null;
  published_at: string | null;
  distance: number;
  ascent: number;
  descent: number;
  duration: number;
  segments: SegmentView[];
  waypoints: WaypointView[];
  groups: GroupView[];
  created_at: string;
  updated_at: string;
}
