// Segments of itinerary chains: one row per segment, ordered by position, geometry as a line BLOB.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { fromJson } from './column-values.js';
import { decodeLine, type Position } from './line-blob.js';

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

export interface SegmentRow {
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

/** A segment row as node-postgres returns it: geometry as a Buffer (bytea), hazards (json) parsed. */
export interface PgSegmentRow extends Omit<SegmentRow, 'geometry' | 'hazards'> {
  /** bytea: Float64 little-endian (lon, lat, ele) triples, as ./line-blob.ts writes them. */
  geometry: Buffer;
  hazards: SegmentHazard[];
}

export function toRecord(row: SegmentRow | PgSegmentRow): SegmentRecord {
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
    hazards: fromJson<SegmentHazard[]>(row.hazards),
  };
}
