// Waypoints of itinerary chains: the joints W0..Wn between segments, ordered by position.
// SQLite statements only: the record and its row mapping live in ../model/waypoint.ts.
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import { COLUMNS, toRecord, type WaypointRecord, type WaypointRow } from '../model/waypoint.js';

export class WaypointStore {
  readonly #list: Statement<[string], WaypointRow>;
  readonly #upsert: Statement<WaypointRow & { now: string }>;
  readonly #delete: Statement<[string, string]>;

  constructor(db: Database) {
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM waypoints WHERE itinerary_id = ? ORDER BY position, rowid`);
    this.#upsert = db.prepare(
      `INSERT INTO waypoints (${COLUMNS}, created_at, updated_at) VALUES (@id, @itinerary_id, @position, @lon, @lat,
        @ele, @name, @kind, @description, @now, @now)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, lon = excluded.lon, lat = excluded.lat,
        ele = excluded.ele, name = excluded.name, kind = excluded.kind,
        description = excluded.description, updated_at = excluded.updated_at
       WHERE waypoints.itinerary_id = excluded.itinerary_id`,
    );
    this.#delete = db.prepare('DELETE FROM waypoints WHERE id = ? AND itinerary_id = ?');
  }

  /** The itinerary's waypoints in chain order. */
  listByItinerary(itineraryId: string): WaypointRecord[] {
    return this.#list.all(itineraryId).map(toRecord);
  }

  /** Inserts or replaces a waypoint (keyed by id, never moved to another itinerary). */
  upsert(record: WaypointRecord): void {
    this.#upsert.run({
      id: record.id,
      itinerary_id: record.itineraryId,
      position: record.position,
      lon: record.lon,
      lat: record.lat,
      ele: record.ele,
      name: record.name,
      kind: record.kind,
      description: record.description,
      now: nowIso(),
    });
  }

  delete(itineraryId: string, id: string): boolean {
    return this.#delete.run(id, itineraryId).changes > 0;
  }
}
