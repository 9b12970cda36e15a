// Zones on PostgreSQL (the SQLite twin: data/stores/zone-store.ts).
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';
import type { ZoneRepository } from '../repositories.js';
import { COLUMNS, toRow, type Zone, type ZoneCreate, type ZonePatch, type ZoneRow } from '../model/zone.js';
import { real } from './pg-chain-repositories.js';
import { pageOf } from './pg-collection-repository.js';
import type { PgDatabase } from './pg-database.js';

/** A zone row as PostgreSQL returns it: the geometry (json) already parsed. */
type PgZoneRow = Omit<ZoneRow, 'geometry'> & { geometry: unknown };

function toZone(row: PgZoneRow): Zone {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    level: row.level,
    mode: row.mode,
    geometry: row.geometry,
    radiusM: row.radius_m,
    widthM: row.width_m,
    privacy: row.privacy,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const PREFIXED = COLUMNS.split(', ')
  .map((c) => `z.${c}`)
  .join(', ');

/** Zones filed in a collection: $1 collection, $2 public only. */
const IN_COLLECTION = {
  columns: PREFIXED,
  from: 'zones z JOIN collection_zones cz ON cz.zone_id = z.id',
  where: `cz.collection_id = $1 AND (NOT $2::boolean OR z.privacy = 'public')`,
  orderBy: 'cz.added_at, z.seq',
};

export class PgZoneRepository implements ZoneRepository {
  constructor(private readonly db: PgDatabase) {}

  async create(input: ZoneCreate): Promise<Zone> {
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
    const row = toRow(zone);
    await this.db.query(`INSERT INTO zones (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
      row.id,
      row.organization_id,
      row.name,
      row.description,
      row.level,
      row.mode,
      row.geometry,
      real(row.radius_m),
      real(row.width_m),
      row.privacy,
      row.created_by,
      row.created_at,
      row.updated_at,
    ]);
    return zone;
  }

  async get(id: string): Promise<Zone | undefined> {
    const row = await this.db.row<PgZoneRow>(`SELECT ${COLUMNS} FROM zones WHERE id = $1`, [id]);
    return row ? toZone(row) : undefined;
  }

  async list(
    organizationId: string,
    options: { publicOnly?: boolean; limit?: number; offset?: number } = {},
  ): Promise<{ items: Zone[]; total: number }> {
    const query = {
      columns: COLUMNS,
      from: 'zones',
      where: `organization_id = $1 AND (NOT $2::boolean OR privacy = 'public')`,
      orderBy: 'created_at, seq',
    };
    const params = [organizationId, options.publicOnly === true];
    const { rows, total } = await pageOf<PgZoneRow>(this.db, query, params, options.limit ?? 20, options.offset ?? 0);
    return { items: rows.map(toZone), total };
  }

  async listByCollection(collectionId: string): Promise<Zone[]> {
    const rows = await this.db.rows<PgZoneRow>(
      `SELECT ${PREFIXED} FROM zones z JOIN collection_zones cz ON cz.zone_id = z.id
       WHERE cz.collection_id = $1 ORDER BY cz.added_at, z.seq`,
      [collectionId],
    );
    return rows.map(toZone);
  }

  async update(id: string, patch: ZonePatch): Promise<Zone | undefined> {
    // Read-modify-write: the transaction (SERIALIZABLE, retried) keeps it whole when two nodes patch the zone at once.
    return this.db.transaction(async () => {
      const current = await this.get(id);
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
      const row = toRow(next);
      await this.db.query(
        `UPDATE zones SET name = $2, description = $3, level = $4, mode = $5, geometry = $6, radius_m = $7, width_m = $8,
          privacy = $9, updated_at = $10 WHERE id = $1`,
        [
          row.id,
          row.name,
          row.description,
          row.level,
          row.mode,
          row.geometry,
          real(row.radius_m),
          real(row.width_m),
          row.privacy,
          row.updated_at,
        ],
      );
      return next;
    });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM zones WHERE id = $1', [id])) > 0;
  }

  async countByOrganization(organizationId: string): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM zones WHERE organization_id = $1', [organizationId]))?.n ?? 0;
  }

  async listInCollection(
    collectionId: string,
    options: { publicOnly: boolean; limit: number; offset: number },
  ): Promise<{ items: Zone[]; total: number }> {
    const params = [collectionId, options.publicOnly === true];
    const { rows, total } = await pageOf<PgZoneRow>(this.db, IN_COLLECTION, params, options.limit, options.offset);
    return { items: rows.map(toZone), total };
  }
}
