// Collections on PostgreSQL (the SQLite twin: data/stores/collection-store.ts), and the page arithmetic the
// PostgreSQL listings share.
import { nowIso } from '../db.js';
import type { CollectionRepository } from '../repositories.js';
import {
  type Collection,
  type CollectionCreate,
  type CollectionListOptions,
  type CollectionPatch,
  type CollectionRow,
  type CollectionScope,
  COLUMNS,
  type HoldingListOptions,
  toCollection,
  newCollectionRow,
} from '../model/collection.js';
import type { Conflict } from '../model/conflict.js';
import { isPgConstraintError, type PgDatabase } from './pg-database.js';

/**
 * LIMIT and OFFSET as SQLite reads them: a negative limit is no limit (the core asks for every row with -1), a
 * negative offset is no offset. PostgreSQL refuses both; LIMIT NULL is its "no limit".
 */
export function sqlitePage(limit: number, offset: number): [number | null, number] {
  return [limit < 0 ? null : limit, Math.max(offset, 0)];
}

/** What `pageOf` selects: `columns` of the rows `from` … `where` in `orderBy` order ($n placeholders in `where`). */
export interface PageQuery {
  columns: string;
  from: string;
  where: string;
  orderBy: string;
}

/**
 * One page of rows and how many rows match, in one statement (so both come from one snapshot, as the SQLite
 * stores' two synchronous reads do). `params` fill the placeholders of `where`; the limit and offset follow.
 */
export async function pageOf<R extends object>(
  db: PgDatabase,
  query: PageQuery,
  params: unknown[],
  limit: number,
  offset: number,
): Promise<{ rows: R[]; total: number }> {
  const n = params.length;
  const rows = await db.rows<R & { page_ord: number | null; page_total: number }>(
    `SELECT p.*, t.page_total FROM (SELECT count(*) AS page_total FROM ${query.from} WHERE ${query.where}) t
     LEFT JOIN LATERAL (
       SELECT ${query.columns}, row_number() OVER (ORDER BY ${query.orderBy}) AS page_ord FROM ${query.from}
       WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}
     ) p ON true
     ORDER BY p.page_ord`,
    [...params, ...sqlitePage(limit, offset)],
  );
  return { rows: rows.filter((row) => row.page_ord !== null), total: rows[0]?.page_total ?? 0 };
}

/** The WHERE clause of list and its count: $1 organization, $2 scope or null, $3 owner or null, $4 public only. */
const LIST_FILTER = `organization_id = $1 AND ($2::text IS NULL OR scope = $2::text)
  AND ($3::text IS NULL OR owner_user_id = $3::text) AND (NOT $4::boolean OR privacy = 'public')`;

/** Personal collections: $1 owner, $2 organization or null, $3 public only. */
const PERSONAL_FILTER = `scope = 'personal' AND owner_user_id = $1 AND ($2::text IS NULL OR organization_id = $2::text)
  AND (NOT $3::boolean OR privacy = 'public')`;

/** Collections holding an item: $1 item, $2 public only (organization scope), $3 viewer (personal scope). */
const holdingFilter = (table: string, column: string) =>
  `id IN (SELECT collection_id FROM ${table} WHERE ${column} = $1)
   AND ((scope = 'organization' AND (NOT $2::boolean OR privacy = 'public'))
     OR (scope = 'personal' AND owner_user_id = $3::text))`;
const HOLDING = {
  itinerary: holdingFilter('collection_itineraries', 'itinerary_id'),
  zone: holdingFilter('collection_zones', 'zone_id'),
};

export class PgCollectionRepository implements CollectionRepository {
  constructor(private readonly db: PgDatabase) {}

  async create(input: CollectionCreate): Promise<Collection | Conflict> {
    const row = newCollectionRow(input);
    const conflict = await this.#holderOf(
      async () => {
        await this.db.query(`INSERT INTO collections (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
          row.id,
          row.organization_id,
          row.scope,
          row.owner_user_id,
          row.name,
          row.description,
          row.privacy,
          row.created_by,
          row.created_at,
          row.updated_at,
        ]);
      },
      async () => row,
    );
    return conflict ?? toCollection(row);
  }

  async get(id: string): Promise<Collection | undefined> {
    const row = await this.db.row<CollectionRow>(`SELECT ${COLUMNS} FROM collections WHERE id = $1`, [id]);
    return row ? toCollection(row) : undefined;
  }

  async findByName(
    organizationId: string,
    scope: CollectionScope,
    ownerUserId: string | null,
    name: string,
  ): Promise<Collection | undefined> {
    const row = await this.db.row<CollectionRow>(
      `SELECT ${COLUMNS} FROM collections
       WHERE organization_id = $1 AND scope = $2 AND coalesce(owner_user_id, '') = $3 AND name = $4`,
      [organizationId, scope, ownerUserId ?? '', name],
    );
    return row ? toCollection(row) : undefined;
  }

  async list(organizationId: string, options: CollectionListOptions = {}): Promise<{ items: Collection[]; total: number }> {
    const params = [organizationId, options.scope ?? null, options.ownerUserId ?? null, options.publicOnly === true];
    return this.#page(LIST_FILTER, params, options.limit ?? 20, options.offset ?? 0);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM collections WHERE id = $1', [id])) > 0;
  }

  async addItinerary(collectionId: string, itineraryId: string): Promise<void> {
    await this.db.query(
      'INSERT INTO collection_itineraries (collection_id, itinerary_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [collectionId, itineraryId, nowIso()],
    );
  }

  async removeItinerary(collectionId: string, itineraryId: string): Promise<boolean> {
    return (
      (await this.db.changes('DELETE FROM collection_itineraries WHERE collection_id = $1 AND itinerary_id = $2', [
        collectionId,
        itineraryId,
      ])) > 0
    );
  }

  async itineraryIds(collectionId: string): Promise<string[]> {
    const rows = await this.db.rows<{ itinerary_id: string }>(
      'SELECT itinerary_id FROM collection_itineraries WHERE collection_id = $1 ORDER BY added_at, itinerary_id COLLATE "C"',
      [collectionId],
    );
    return rows.map((r) => r.itinerary_id);
  }

  async addZone(collectionId: string, zoneId: string): Promise<void> {
    await this.db.query('INSERT INTO collection_zones (collection_id, zone_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      collectionId,
      zoneId,
      nowIso(),
    ]);
  }

  async removeZone(collectionId: string, zoneId: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM collection_zones WHERE collection_id = $1 AND zone_id = $2', [collectionId, zoneId])) > 0;
  }

  async zoneIds(collectionId: string): Promise<string[]> {
    const rows = await this.db.rows<{ zone_id: string }>(
      'SELECT zone_id FROM collection_zones WHERE collection_id = $1 ORDER BY added_at, zone_id COLLATE "C"',
      [collectionId],
    );
    return rows.map((r) => r.zone_id);
  }

  async update(id: string, patch: CollectionPatch): Promise<Collection | Conflict | undefined> {
    // One statement reads and writes the row (the SQLite store reads it first, relying on its single writer).
    let row: CollectionRow | undefined;
    const conflict = await this.#holderOf(
      async () => {
        row = await this.db.row<CollectionRow>(
          `UPDATE collections SET name = coalesce($2, name), description = coalesce($3, description),
             privacy = coalesce($4, privacy), updated_at = $5
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, patch.name ?? null, patch.description ?? null, patch.privacy ?? null, nowIso()],
        );
      },
      async () => {
        const current = await this.get(id);
        return (
          current && {
            organization_id: current.organizationId,
            scope: current.scope,
            owner_user_id: current.ownerUserId,
            name: patch.name ?? current.name,
          }
        );
      },
    );
    return conflict ?? (row ? toCollection(row) : undefined);
  }

  /**
   * Runs `write` in a savepoint (a failed statement must not abort the caller's transaction); when it breaks
   * the name's uniqueness, the Conflict naming the collection that holds the name (`key` says which name).
   */
  async #holderOf(
    write: () => Promise<void>,
    key: () => Promise<Pick<CollectionRow, 'organization_id' | 'scope' | 'owner_user_id' | 'name'> | undefined>,
  ): Promise<Conflict | undefined> {
    try {
      await this.db.savepoint(write);
      return undefined;
    } catch (error) {
      const wanted = isPgConstraintError(error, 'UNIQUE') ? await key() : undefined;
      const holder = wanted && (await this.findByName(wanted.organization_id, wanted.scope, wanted.owner_user_id, wanted.name));
      if (!holder) throw error;
      return { conflict: holder.id };
    }
  }

  async countByOrganization(organizationId: string): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM collections WHERE organization_id = $1', [organizationId]))?.n ?? 0;
  }

  async listPersonal(
    ownerUserId: string,
    options: { organizationId?: string; publicOnly?: boolean; limit?: number; offset?: number } = {},
  ): Promise<{ items: Collection[]; total: number }> {
    const params = [ownerUserId, options.organizationId ?? null, options.publicOnly === true];
    return this.#page(PERSONAL_FILTER, params, options.limit ?? 20, options.offset ?? 0);
  }

  async listHolding(
    kind: 'itinerary' | 'zone',
    itemId: string,
    options: HoldingListOptions,
  ): Promise<{ items: Collection[]; total: number }> {
    const params = [itemId, options.publicOnly === true, options.viewerUserId];
    return this.#page(HOLDING[kind], params, options.limit, options.offset);
  }

  async holdsItinerary(collectionId: string, itineraryId: string): Promise<boolean> {
    const row = await this.db.row('SELECT 1 AS one FROM collection_itineraries WHERE collection_id = $1 AND itinerary_id = $2', [
      collectionId,
      itineraryId,
    ]);
    return row !== undefined;
  }

  async holdsZone(collectionId: string, zoneId: string): Promise<boolean> {
    const row = await this.db.row('SELECT 1 AS one FROM collection_zones WHERE collection_id = $1 AND zone_id = $2', [
      collectionId,
      zoneId,
    ]);
    return row !== undefined;
  }

  /** One page of the collections matching `where` (over `params`), oldest first, and how many match. */
  async #page(where: string, params: unknown[], limit: number, offset: number): Promise<{ items: Collection[]; total: number }> {
    const query = { columns: COLUMNS, from: 'collections', where, orderBy: 'created_at, seq' };
    const { rows, total } = await pageOf<CollectionRow>(this.db, query, params, limit, offset);
    return { items: rows.map(toCollection), total };
  }
}
