// An itinerary's chain on PostgreSQL: segments, waypoints and segment groups (the SQLite twins:
// data/stores/segment-store.ts, waypoint-store.ts, segment-group-store.ts). Every upsert is one atomic
// INSERT … ON CONFLICT, so two nodes writing the same row need no transaction of their own.
import { nowIso } from '../db.js';
import type { SegmentGroupRepository, SegmentRepository, WaypointRepository } from '../repositories.js';
import { encodeLine } from '../model/line-blob.js';
import { COLUMNS as GROUP_COLUMNS, type GroupRow, type SegmentGroupRecord, toRecord as toGroup } from '../model/segment-group.js';
import { COLUMNS as SEGMENT_COLUMNS, type PgSegmentRow, type SegmentRecord, toRecord as toSegmentRecord } from '../model/segment.js';
import { COLUMNS as WAYPOINT_COLUMNS, toRecord as toWaypoint, type WaypointRecord, type WaypointRow } from '../model/waypoint.js';
import type { PgDatabase } from './pg-database.js';

/**
 * A float parameter as SQLite stores it: NaN becomes NULL there (so a NOT NULL column refuses it and a
 * nullable one reads back null), while PostgreSQL's double precision would keep NaN.
 */
export function real(value: number | null | undefined): number | null | undefined {
  return typeof value === 'number' && Number.isNaN(value) ? null : value;
}

export class PgSegmentRepository implements SegmentRepository {
  constructor(private readonly db: PgDatabase) {}

  async listByItinerary(itineraryId: string): Promise<SegmentRecord[]> {
    const rows = await this.db.rows<PgSegmentRow>(
      `SELECT ${SEGMENT_COLUMNS} FROM segments WHERE itinerary_id = $1 ORDER BY position, seq`,
      [itineraryId],
    );
    return rows.map(toSegmentRecord);
  }

  async upsert(record: SegmentRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO segments (${SEGMENT_COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
        $12, $13, $14, $14)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, engine = excluded.engine,
        geometry = excluded.geometry, distance = excluded.distance, ascent = excluded.ascent,
        descent = excluded.descent, duration = excluded.duration, name = excluded.name,
        description = excluded.description, group_id = excluded.group_id, hazards = excluded.hazards,
        updated_at = excluded.updated_at
       WHERE segments.itinerary_id = excluded.itinerary_id`,
      [
        record.id,
        record.itineraryId,
        real(record.position),
        record.engine,
        encodeLine(record.geometry),
        real(record.distance),
        real(record.ascent),
        real(record.descent),
        real(record.duration),
        record.name,
        record.description,
        record.groupId,
        JSON.stringify(record.hazards ?? []),
        nowIso(),
      ],
    );
  }

  async delete(itineraryId: string, id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM segments WHERE id = $1 AND itinerary_id = $2', [id, itineraryId])) > 0;
  }
}

export class PgWaypointRepository implements WaypointRepository {
  constructor(private readonly db: PgDatabase) {}

  async listByItinerary(itineraryId: string): Promise<WaypointRecord[]> {
    const rows = await this.db.rows<WaypointRow>(
      `SELECT ${WAYPOINT_COLUMNS} FROM waypoints WHERE itinerary_id = $1 ORDER BY position, seq`,
      [itineraryId],
    );
    return rows.map(toWaypoint);
  }

  async upsert(record: WaypointRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO waypoints (${WAYPOINT_COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, lon = excluded.lon, lat = excluded.lat,
        ele = excluded.ele, name = excluded.name, kind = excluded.kind, description = excluded.description, updated_at = excluded.updated_at
       WHERE waypoints.itinerary_id = excluded.itinerary_id`,
      [
        record.id,
        record.itineraryId,
        real(record.position),
        real(record.lon),
        real(record.lat),
        real(record.ele),
        record.name,
        record.kind,
        record.description,
        nowIso(),
      ],
    );
  }

  async delete(itineraryId: string, id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM waypoints WHERE id = $1 AND itinerary_id = $2', [id, itineraryId])) > 0;
  }
}

export class PgSegmentGroupRepository implements SegmentGroupRepository {
  constructor(private readonly db: PgDatabase) {}

  async listByItinerary(itineraryId: string): Promise<SegmentGroupRecord[]> {
    const rows = await this.db.rows<GroupRow>(
      `SELECT ${GROUP_COLUMNS} FROM segment_groups WHERE itinerary_id = $1 ORDER BY created_at, seq`,
      [itineraryId],
    );
    return rows.map(toGroup);
  }

  async upsert(record: SegmentGroupRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO segment_groups (${GROUP_COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, color = excluded.color, speed = excluded.speed,
        updated_at = excluded.updated_at
       WHERE segment_groups.itinerary_id = excluded.itinerary_id`,
      [record.id, record.itineraryId, record.name, record.color, real(record.speed), nowIso()],
    );
  }

  async delete(itineraryId: string, id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM segment_groups WHERE id = $1 AND itinerary_id = $2', [id, itineraryId])) > 0;
  }
}
