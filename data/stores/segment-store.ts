// Segments of itinerary chains: one row per segment, ordered by position, geometry as a line BLOB.
// SQLite statements only: the record and its row mapping live in ../model/segment.ts.
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import { encodeLine } from '../model/line-blob.js';
import { COLUMNS, type SegmentRecord, type SegmentRow, toRecord } from '../model/segment.js';

export class SegmentStore {
  readonly #list: Statement<[string], SegmentRow>;
  readonly #upsert: Statement<SegmentRow & { now: string }>;
  readonly #delete: Statement<[string, string]>;

  constructor(db: Database) {
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM segments WHERE itinerary_id = ? ORDER BY position, rowid`);
    this.#upsert = db.prepare(
      `INSERT INTO segments (${COLUMNS}, created_at, updated_at) VALUES (@id, @itinerary_id, @position, @engine,
        @geometry, @distance, @ascent, @descent, @duration, @name, @description, @group_id, @hazards, @now, @now)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, engine = excluded.engine,
        geometry = excluded.geometry, distance = excluded.distance, ascent = excluded.ascent,
        descent = excluded.descent, duration = excluded.duration, name = excluded.name,
        description = excluded.description, group_id = excluded.group_id, hazards = excluded.hazards,
        updated_at = excluded.updated_at
       WHERE segments.itinerary_id = excluded.itinerary_id`,
    );
    this.#delete = db.prepare('DELETE FROM segments WHERE id = ? AND itinerary_id = ?');
  }

  /** The itinerary's segments in chain order. */
  listByItinerary(itineraryId: string): SegmentRecord[] {
    return this.#list.all(itineraryId).map(toRecord);
  }

  /** Inserts or replaces a segment (keyed by id, never moved to another itinerary). */
  upsert(record: SegmentRecord): void {
    this.#upsert.run({
      id: record.id,
      itinerary_id: record.itineraryId,
      position: record.position,
      engine: record.engine,
      geometry: encodeLine(record.geometry),
      distance: record.distance,
      ascent: record.ascent,
      descent: record.descent,
      duration: record.duration,
      name: record.name,
      description: record.description,
      group_id: record.groupId,
      hazards: JSON.stringify(record.hazards ?? []),
      now: nowIso(),
    });
  }

  delete(itineraryId: string, id: string): boolean {
    return this.#delete.run(id, itineraryId).changes > 0;
  }
}
