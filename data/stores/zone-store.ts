// Zones: organization-owned areas (polygon, circle or corridor) with a warning level. Minimal for now.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import type { Privacy } from './collection-store.js';

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

function toZone(row: ZoneRow): Zone {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    level: row.level,
    mode: row.mode,
    geometry: JSON.parse(row.geometry) as unknown,
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

export class ZoneStore {
  readonly #db: Database;
  readonly #insert: Statement<ZoneRow>;
  readonly #update: Statement<ZoneRow>;
  readonly #get: Statement<[string], ZoneRow>;
  readonly #list: Statement<{ org: string; publicOnly: number; limit: number; offset: number }, ZoneRow>;
  readonly #count: Statement<{ org: string; publicOnly: number }, { n: number }>;
  readonly #byCollection: Statement<[string], ZoneRow>;
  readonly #delete: Statement<[string]>;
  readonly #countByOrg: Statement<[string], { n: number }>;
  readonly #inCollection: Statement<{ collection: string; publicOnly: number; limit: number; offset: number }, ZoneRow>;
  readonly #inCollectionCount: Statement<{ collection: string; publicOnly: number }, { n: number }>;

  constructor(db: Database) {
    this.#db = db;
    const values = COLUMNS.split(', ')
      .map((c) => `@${c}`)
      .join(', ');
    this.#insert = db.prepare(`INSERT INTO zones (${COLUMNS}) VALUES (${values})`);
    this.#update = db.prepare(
      `UPDATE zones SET name = @name, description = @description, level = @level, mode = @mode, geometry = @geometry,
        radius_m = @radius_m, width_m = @width_m, privacy = @privacy, updated_at = @updated_at WHERE id = @id`,
    );
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM zones WHERE id = ?`);
    const filter = `organization_id = @org AND (@publicOnly = 0 OR privacy = 'public')`;
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM zones WHERE ${filter} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`);
    this.#count = db.prepare(`SELECT count(*) AS n FROM zones WHERE ${filter}`);
    this.#byCollection = db.prepare(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `z.${c}`)
        .join(', ')} FROM zones z JOIN collection_zones cz ON cz.zone_id = z.id
       WHERE cz.collection_id = ? ORDER BY cz.added_at, z.rowid`,
    );
    this.#delete = db.prepare('DELETE FROM zones WHERE id = ?');
    this.#countByOrg = db.prepare('SELECT count(*) AS n FROM zones WHERE organization_id = ?');
    const prefixed = COLUMNS.split(', ')
      .map((c) => `z.${c}`)
      .join(', ');
    const inCollection = `cz.collection_id = @collection AND (@publicOnly = 0 OR z.privacy = 'public')`;
    this.#inCollection = db.prepare(
      `SELECT ${prefixed} FROM zones z JOIN collection_zones cz ON cz.zone_id = z.id
       WHERE ${inCollection} ORDER BY cz.added_at, z.rowid LIMIT @limit OFFSET @offset`,
    );
    this.#inCollectionCount = db.prepare(
      `SELECT count(*) AS n FROM zones z JOIN collection_zones cz ON cz.zone_id = z.id WHERE ${inCollection}`,
    );
  }

  /** Creates a zone. CIRCLE needs radiusM, CORRIDOR needs widthM (CHECK constraint error otherwise). */
  create(input: ZoneCreate): Zone {
    const now = nowIso();
    const zone: Zone = {
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
    this.#insert.run(toRow(zone));
    return zone;
  }

  get(id: string): Zone | undefined {
    const row = this.#get.get(id);
    return row ? toZone(row) : undefined;
  }

  list(organizationId: string, options: { publicOnly?: boolean; limit?: number; offset?: number } = {}): { items: Zone[]; total: number } {
    const params = { org: organizationId, publicOnly: options.publicOnly ? 1 : 0 };
    const items = this.#list.all({ ...params, limit: options.limit ?? 20, offset: options.offset ?? 0 }).map(toZone);
    return { items, total: this.#count.get(params)?.n ?? 0 };
  }

  listByCollection(collectionId: string): Zone[] {
    return this.#byCollection.all(collectionId).map(toZone);
  }

  /** Partial update: undefined fields keep their value. Undefined when the zone does not exist. */
  update(id: string, patch: ZonePatch): Zone | undefined {
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (!current) return undefined;
        const next: Zone = { ...current, updatedAt: nowIso() };
        if (patch.name !== undefined) next.name = patch.name;
        if (patch.description !== undefined) next.description = patch.description;
        if (patch.level !== undefined) next.level = patch.level;
        if (patch.mode !== undefined) next.mode = patch.mode;
        if (patch.geometry !== undefined) next.geometry = patch.geometry;
        if (patch.radiusM !== undefined) next.radiusM = patch.radiusM;
        if (patch.widthM !== undefined) next.widthM = patch.widthM;
        if (patch.privacy !== undefined) next.privacy = patch.privacy;
        this.#update.run(toRow(next));
        return next;
      })
      .immediate();
  }

  delete(id: string): boolean {
    return this.#delete.run(id).changes > 0;
  }

  /** Every zone of the organization (plan limit `zones`). */
  countByOrganization(organizationId: string): number {
    return this.#countByOrg.get(organizationId)?.n ?? 0;
  }

  /** One page of the zones filed in a collection, in filing order, with the total matching the filter. */
  listInCollection(
    collectionId: string,
    options: { publicOnly: boolean; limit: number; offset: number },
  ): { items: Zone[]; total: number } {
    const params = { collection: collectionId, publicOnly: options.publicOnly ? 1 : 0 };
    const items = this.#inCollection.all({ ...params, limit: options.limit, offset: options.offset }).map(toZone);
    return { items, total: this.#inCollectionCount.get(params)?.n ?? 0 };
  }
}
