// Waypoints of itinerary chains: the joints W0..Wn between segments, ordered by position.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

export interface WaypointRecord {
  id: string;
  itineraryId: string;
  /** 0-based place in the chain. */
  position: number;
  lon: number; // degrees
  lat: number; // degrees
  /** Metres; null when unknown. */
  ele: number | null;
  name: string | null;
  kind: string | null;
  /** Multi-line text; null when none. */
  description: string | null;
}

export interface WaypointRow {
  id: string;
  itinerary_id: string;
  position: number;
  lon: number;
  lat: number;
  ele: number | null;
  name: string | null;
  kind: string | null;
  description: string | null;
}

export const COLUMNS = 'id, itinerary_id, position, lon, lat, ele, name, kind, description';

export function toRecord(row: WaypointRow): WaypointRecord {
  return {
    id: row.id,
    itineraryId: row.itinerary_id,
    position: row.position,
    lon: row.lon,
    lat: row.lat,
    ele: row.ele,
    name: row.name,
    kind: row.kind,
    description: row.description,
  };
}
