// Segment groups: flat runs of neighbouring segments sharing a displayed name, color and speed.
// SQLite statements only: the record and its row mapping live in ../model/segment-group.ts.
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import { COLUMNS, type GroupRow, type SegmentGroupRecord, toRecord } from '../model/segment-group.js';

export class SegmentGroupStore {
  readonly #list: Statement<[string], GroupRow>;
  readonly #upsert: Statement<GroupRow & { now: string }>;
  readonly #delete: Statement<[string, string]>;

  constructor(db: Database) {
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM segment_groups WHERE itinerary_id = ? ORDER BY created_at, rowid`);
    this.#upsert = db.prepare(
      `INSERT INTO segment_groups (${COLUMNS}, created_at, updated_at) VALUES (@id, @itinerary_id, @name, @color,
        @speed, @now, @now)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, color = excluded.color, speed = excluded.speed,
        updated_at = excluded.updated_at
       WHERE segment_groups.itinerary_id = excluded.itinerary_id`,
    );
    this.#delete = db.prepare('DELETE FROM segment_groups WHERE id = ? AND itinerary_id = ?');
  }

  /** The itinerary's groups in creation order. */
  listByItinerary(itineraryId: string): SegmentGroupRecord[] {
    return this.#list.all(itineraryId).map(toRecord);
  }

  upsert(record: SegmentGroupRecord): void {
    this.#upsert.run({
      id: record.id,
      itinerary_id: record.itineraryId,
      name: record.name,
      color: record.color,
      speed: record.speed,
      now: nowIso(),
    });
  }

  delete(itineraryId: string, id: string): boolean {
    return this.#delete.run(id, itineraryId).changes > 0;
  }
}
