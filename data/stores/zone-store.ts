// Zones: organization-owned areas (polygon, circle or corridor) with a warning level. Minimal for now.
// SQLite statements only: the record and its row mapping live in ../model/zone.ts.
import type { Statement } from 'better-sqlite3';
import type { Database } from '../db.js';
import {
  COLUMNS,
  toRow,
  toZone,
  type Zone,
  type ZoneCreate,
  type ZonePatch,
  type ZoneRow,
  newZone,
  applyZonePatch,
} from '../model/zone.js';

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
    const zone = newZone(input);
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
        const next = applyZonePatch(current, patch);
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
