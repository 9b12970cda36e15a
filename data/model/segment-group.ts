// Segment groups: flat runs of neighbouring segments sharing a displayed name, color and speed.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

export interface SegmentGroupRecord {
  id: string;
  itineraryId: string;
  name: string;
  color: string;
  /** km/h on the elevation profile; null = the activity's speed model. */
  speed: number | null;
}

export interface GroupRow {
  id: string;
  itinerary_id: string;
  name: string;
  color: string;
  speed: number | null;
}

export const COLUMNS = 'id, itinerary_id, name, color, speed';

export function toRecord(row: GroupRow): SegmentGroupRecord {
  return { id: row.id, itineraryId: row.itinerary_id, name: row.name, color: row.color, speed: row.speed };
}
