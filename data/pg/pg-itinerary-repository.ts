// Itineraries on PostgreSQL (the SQLite twin: data/stores/itinerary-store.ts).
import { nowIso } from '../db.js';
import type { ItineraryRepository } from '../repositories.js';
import type { Conflict } from '../model/conflict.js';
import {
  COLUMNS,
  type CollectionItineraryOptions,
  type GroupedItinerary,
  type GroupedListOptions,
  type Itinerary,
  type ItineraryCreate,
  type ItineraryRow,
  PREFIXED,
  toItinerary,
  UPDATABLE,
  newItineraryRow,
} from '../model/itinerary.js';
import { pageOf } from './pg-collection-repository.js';
import { isPgConstraintError, type PgDatabase } from './pg-database.js';

/** Itineraries filed in a collection: $1 collection, $2 public only, $3 published only. */
const IN_COLLECTION = {
  columns: PREFIXED,
  from: 'itineraries i JOIN collection_itineraries ci ON ci.itinerary_id = i.id',
  where: `ci.collection_id = $1 AND (NOT $2::boolean OR i.privacy = 'public')
    AND (NOT $3::boolean OR i.published_at IS NOT NULL)`,
  orderBy: 'ci.added_at, i.seq',
};

/**
 * The visible itineraries of some organizations, each with the index (0-based) of the first grouping collection
 * holding it, null when none does: $1 organizations, $2 public only, $3 grouping collections in display order.
 */
const GROUPED = {
  columns: '*',
  from: `(SELECT ${PREFIXED}, i.seq,
      (SELECT min(g.ord) - 1 FROM collection_itineraries ci
         JOIN unnest($3::text[]) WITH ORDINALITY AS g(collection_id, ord) ON g.collection_id = ci.collection_id
       WHERE ci.itinerary_id = i.id) AS grp
    FROM itineraries i WHERE i.organization_id = ANY($1::text[]) AND (NOT $2::boolean OR i.privacy = 'public')) AS grouped`,
  where: 'true',
  orderBy: 'grp IS NULL, grp, created_at, seq',
};

export class PgItineraryRepository implements ItineraryRepository {
  constructor(private readonly db: PgDatabase) {}

  async create(input: ItineraryCreate): Promise<Itinerary | Conflict> {
    const row = newItineraryRow(input);
    const conflict = await this.#holderOf(
      async () => {
        await this.db.query(`INSERT INTO itineraries (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
          row.id,
          row.organization_id,
          row.name,
          row.description,
          row.activity,
          row.privacy,
          row.created_by,
          row.draft_version,
          row.published_version,
          row.published_at,
          row.created_at,
          row.updated_at,
        ]);
      },
      async () => input.organizationId,
      input.name,
    );
    return conflict ?? toItinerary(row);
  }

  async get(id: string): Promise<Itinerary | undefined> {
    const row = await this.db.row<ItineraryRow>(`SELECT ${COLUMNS} FROM itineraries WHERE id = $1`, [id]);
    return row ? toItinerary(row) : undefined;
  }

  async findByName(organizationId: string, name: string): Promise<Itinerary | undefined> {
    const row = await this.db.row<ItineraryRow>(`SELECT ${COLUMNS} FROM itineraries WHERE organization_id = $1 AND name = $2`, [
      organizationId,
      name,
    ]);
    return row ? toItinerary(row) : undefined;
  }

  async list(
    organizationId: string,
    options: { publicOnly?: boolean; limit?: number; offset?: number } = {},
  ): Promise<{ items: Itinerary[]; total: number }> {
    const query = {
      columns: COLUMNS,
      from: 'itineraries',
      where: `organization_id = $1 AND (NOT $2::boolean OR privacy = 'public')`,
      orderBy: 'created_at, seq',
    };
    const params = [organizationId, options.publicOnly === true];
    const { rows, total } = await pageOf<ItineraryRow>(this.db, query, params, options.limit ?? 20, options.offset ?? 0);
    return { items: rows.map(toItinerary), total };
  }

  async listByCollection(collectionId: string): Promise<Itinerary[]> {
    const rows = await this.db.rows<ItineraryRow>(
      `SELECT ${PREFIXED} FROM itineraries i JOIN collection_itineraries ci ON ci.itinerary_id = i.id
       WHERE ci.collection_id = $1 ORDER BY ci.added_at, i.seq`,
      [collectionId],
    );
    return rows.map(toItinerary);
  }

  async bumpDraftVersion(id: string): Promise<Itinerary | undefined> {
    const row = await this.db.row<ItineraryRow>(
      `UPDATE itineraries SET draft_version = draft_version + 1, updated_at = $1 WHERE id = $2 RETURNING ${COLUMNS}`,
      [nowIso(), id],
    );
    return row ? toItinerary(row) : undefined;
  }

  async publish(id: string, snapshot: unknown): Promise<Itinerary | undefined> {
    // One statement: the version published is the draft version the snapshot was stored with.
    const row = await this.db.row<ItineraryRow>(
      `UPDATE itineraries SET published_snapshot = $1, published_version = draft_version, published_at = $2
       WHERE id = $3 RETURNING ${COLUMNS}`,
      [JSON.stringify(snapshot), nowIso(), id],
    );
    return row ? toItinerary(row) : undefined;
  }

  async publishedSnapshot(id: string): Promise<unknown> {
    // A snapshot that is JSON null is stored as such (not as SQL NULL) and read back as null, as on SQLite.
    const row = await this.db.row<{ snapshot: unknown; never: boolean }>(
      'SELECT published_snapshot AS snapshot, published_snapshot IS NULL AS never FROM itineraries WHERE id = $1',
      [id],
    );
    return !row || row.never ? undefined : row.snapshot;
  }

  async update(
    id: string,
    patch: Partial<Pick<Itinerary, 'name' | 'description' | 'activity' | 'privacy'>>,
    options: { bumpDraft?: boolean } = {},
  ): Promise<Itinerary | Conflict | undefined> {
    // Writes only the given columns, in one statement (an unchanged name leaves the (organization, name) index alone).
    const fields = UPDATABLE.filter((field) => patch[field] !== undefined);
    const values: unknown[] = [id, nowIso()];
    const set = ['updated_at = $2'];
    for (const field of fields) {
      values.push(patch[field]);
      set.push(`${field} = $${values.length}`);
    }
    if (options.bumpDraft === true) set.push('draft_version = draft_version + 1');
    let row: ItineraryRow | undefined;
    // A UNIQUE failure can only come from a new name: the organization is read only then.
    const conflict = await this.#holderOf(
      async () => {
        row = await this.db.row<ItineraryRow>(`UPDATE itineraries SET ${set.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`, values);
      },
      async () => (await this.get(id))?.organizationId ?? '',
      patch.name ?? '',
    );
    return conflict ?? (row ? toItinerary(row) : undefined);
  }

  /**
   * Runs `write` in a savepoint (a failed statement must not abort the caller's transaction); when it breaks
   * the name's uniqueness, the Conflict naming the itinerary that holds `name`.
   */
  async #holderOf(write: () => Promise<void>, organizationId: () => Promise<string>, name: string): Promise<Conflict | undefined> {
    try {
      await this.db.savepoint(write);
      return undefined;
    } catch (error) {
      const holder = isPgConstraintError(error, 'UNIQUE') ? await this.findByName(await organizationId(), name) : undefined;
      if (!holder) throw error;
      return { conflict: holder.id };
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM itineraries WHERE id = $1', [id])) > 0;
  }

  async listInCollection(collectionId: string, options: CollectionItineraryOptions): Promise<{ items: Itinerary[]; total: number }> {
    const params = [collectionId, options.publicOnly === true, options.publishedOnly === true];
    const { rows, total } = await pageOf<ItineraryRow>(this.db, IN_COLLECTION, params, options.limit, options.offset);
    return { items: rows.map(toItinerary), total };
  }

  async listGrouped(options: GroupedListOptions): Promise<{ items: GroupedItinerary[]; total: number }> {
    const params = [options.organizationIds, options.publicOnly === true, options.collectionIds];
    const { rows, total } = await pageOf<ItineraryRow & { grp: number | null }>(this.db, GROUPED, params, options.limit, options.offset);
    return { items: rows.map((row) => ({ itinerary: toItinerary(row), group: row.grp })), total };
  }
}
