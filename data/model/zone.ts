// Zones: organization-owned areas (polygon, circle or corridor) with a warning level. Minimal for now.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';
import type { Privacy } from './collection.js';

export const ZONE_LEVELS = ['INFO', 'WARNING', 'DANGER', 'PROHIBITED'] as const;
export type ZoneLevel = (typeof ZONE_LEVELS)[number];
export const ZONE_MODES = ['POLYGON', 'CIRCLE', 'CORRIDOR'] as const;
export type ZoneMode = (typeof ZONE_MODES)[number];

export interface Zone {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  level: ZoneLevel;
  mode: ZoneMode;
  /** GeoJSON geometry, lon/lat degrees: Polygon (POLYGON), Point (CIRCLE) or LineString (CORRIDOR). */
  geometry: unknown;
  /** Circle radius in metres (CIRCLE only). */
  radiusM: number | null;
  /** Corridor width in metres (CORRIDOR only). */
  widthM: number | null;
  privacy: Privacy;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ZoneCreate {
  organizationId: string;
  name: string;
  description?: string;
  level: ZoneLevel;
  mode: ZoneMode;
  geometry: unknown;
  radiusM?: number | null;
  widthM?: number | null;
  privacy?: Privacy;
  createdBy?: string | null;
}

export type ZonePatch = Partial<Omit<ZoneCreate, 'organizationId' | 'createdBy'>>;

export interface ZoneRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  level: ZoneLevel;
  mode: ZoneMode;
  geometry: string;
  radius_m: number | null;
  width_m: number | null;
  privacy: Privacy;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A zone row as PostgreSQL returns it: the geometry (json) already parsed. */
export type PgZoneRow = Omit<ZoneRow, 'geometry'> & { geometry: unknown };

/** A zone from its row: SQLite holds the geometry as JSON text, PostgreSQL (json) hands it over parsed. */
export function toZone(row: ZoneRow | PgZoneRow): Zone {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    level: row.level,
    mode: row.mode,
    geometry: typeof row.geometry === 'string' ? (JSON.parse(row.geometry) as unknown) : row.geometry,
    radiusM: row.radius_m,
    widthM: row.width_m,
    privacy: row.privacy,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toRow(zone: Zone): ZoneRow {
  return {
    id: zone.id,
    organization_id: zone.organizationId,
    name: zone.name,
    description: zone.description,
    level: zone.level,
    mode: zone.mode,
    geometry: JSON.stringify(zone.geometry),
    radius_m: zone.radiusM,
    width_m: zone.widthM,
    privacy: zone.privacy,
    created_by: zone.createdBy,
    created_at: zone.createdAt,
    updated_at: zone.updatedAt,
  };
}

export const COLUMNS =
  'id, organization_id, name, description, level, mode, geometry, radius_m, width_m, privacy, created_by, created_at, updated_at';

/** A new zone from its creation input; CIRCLE needs radiusM and CORRIDOR widthM (the table's CHECK says so). */
export function newZone(input: ZoneCreate, now = nowIso()): Zone {
  return {
    id: randomUUID(),
    organizationId: input.organizationId,
    name: input.name,
    description: input.description ?? '',
    level: input.level,
    mode: input.mode,
    geometry: input.geometry,
    radiusM: input.radiusM ?? null,
    widthM: input.widthM ?? null,
    privacy: input.privacy ?? 'private',
    createdBy: input.createdBy ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** `current` with `patch` applied: undefined fields keep their value. */
export function applyZonePatch(current: Zone, patch: ZonePatch, now = nowIso()): Zone {
  const next: Zone = { ...current, updatedAt: now };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.level !== undefined) next.level = patch.level;
  if (patch.mode !== undefined) next.mode = patch.mode;
  if (patch.geometry !== undefined) next.geometry = patch.geometry;
  if (patch.radiusM !== undefined) next.radiusM = patch.radiusM;
  if (patch.widthM !== undefined) next.widthM = patch.widthM;
  if (patch.privacy !== undefined) next.privacy = patch.privacy;
  return next;
}
