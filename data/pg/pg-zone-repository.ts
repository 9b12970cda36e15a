// Zones on PostgreSQL (the SQLite twin: data/stores/zone-store.ts).
import type { ZoneRepository } from '../repositories.js';
import {
  COLUMNS,
  toRow,
  type Zone,
  type ZoneCreate,
  type ZonePatch,
  newZone,
  applyZonePatch,
  toZone,
  type PgZoneRow,
} from '../model/zone.js';
import { real } from './pg-chain-repositories.js';
import { pageOf } from './pg-collection-repository.js';
import type { PgDatabase } from './pg-database.js';

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
    const zone = newZone(input);
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
      const next = applyZonePatch(current, patch);
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
