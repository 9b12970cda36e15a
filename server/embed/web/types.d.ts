// The Studio API's answers the pages read, as far as the pages read them (spec/interface.md has the full shapes).

export type Position = number[];

export interface Hazard {
  kind: string;
}

export interface Segment {
  id: string;
  engine: 'smart' | 'freehand';
  distance: number;
  groupId: string | null;
  hazards: Hazard[];
  geometry: { type: 'LineString'; coordinates: Position[] };
}

export interface Waypoint {
  id: string;
  name?: string | null;
  coordinates: Position;
}

export interface SegmentGroup {
  id: string;
  name: string;
  color: string;
  speed: number | null;
}

export interface Itinerary {
  id: string;
  organization_id: string;
  name: string;
  version: number;
  published_version: number | null;
  distance: number;
  ascent: number;
  descent: number;
  duration: number;
  segments: Segment[];
  waypoints: Waypoint[];
  groups: SegmentGroup[];
}

/** A part of an itinerary a lock covers. */
export interface Part {
  type: 'segment' | 'waypoint' | 'segment_group';
  id: string;
}
