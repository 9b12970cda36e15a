// Segments of itinerary chains: one row per segment, ordered by position, geometry as a line BLOB.
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import { decodeLine, encodeLine, type Position } from './line-blob.js';

export type SegmentEngine = 'smart' | 'freehand';

export interface SegmentRecord {
  id: string;
  itineraryId: string;
  /** 0-based place in the chain. */
  position: number;
  engine: SegmentEngine;
  /** lon, lat, ele (degrees, degrees, metres). */
  geometry: Position[];
  distance: number; // m
  ascent: number; // m
  descent: number; // m
  duration: number; // s
  name: string | null;
  description: string | null;
  groupId: string | null;
  /** Restrictions the line crosses for the itinerary's activity (metres along it); none when left out. */
  hazards?: SegmentHazard[];
}

export interface SegmentHazard {
  kind: 'TOLLWAY' | 'RESTRICTED_ACCESS';
  /** Metres from the segment's start. */
  from: number;
  to: number;
}

interface SegmentRow {
  id: string;
  itinerary_id: string;
  position: number;
  engine: SegmentEngine;
  geometry: Buffer;
  distance: number;
  ascent: number;
  descent: number;
  duration: number;
  name: string | null;
  description: string | null;
  group_id: string | null;
  hazards: string;
}

export const COLUMNS =
  'id, itinerary_id, position, engine, geometry, distance, ascent, descent, duration, name, description, group_id, hazards';

function toRecord(row: SegmentRow): SegmentRecord {
  return {
    id: row.id,
    itineraryId: row.itinerary_id,
    position: row.position,
    engine: row.engine,
    geometry: decodeLine(row.geometry),
    distance: row.distance,
    ascent: row.ascent,
    descent: row.descent,
    duration: row.duration,
    name: row.name,
    description: row.description,
    groupId: row.group_id,
    hazards: JSON.parse(row.hazards) as SegmentHazard[],
  };
}

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
