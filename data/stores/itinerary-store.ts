// Itineraries on SQLite (create, get, list, find by name, publish snapshot).
// SQLite statements only: the record and its row mapping live in ../model/itinerary.ts.
import type { Statement } from 'better-sqlite3';
import { isConstraintError, nowIso, type Database } from '../db.js';
import type { Conflict } from '../model/conflict.js';
import {
  type CollectionItineraryOptions,
  COLUMNS,
  fromValues,
  type GroupedItinerary,
  type GroupedListOptions,
  type Itinerary,
  type ItineraryCreate,
  type ItineraryRow,
  type ItineraryValues,
  PREFIXED,
  toItinerary,
  UPDATABLE,
  newItineraryRow,
} from '../model/itinerary.js';

export class ItineraryStore {
  readonly #insert: Statement<ItineraryRow>;
  readonly #get: Statement<[string], ItineraryValues>;
  readonly #byName: Statement<[string, string], ItineraryRow>;
  readonly #list: Statement<{ org: string; publicOnly: number; limit: number; offset: number }, ItineraryRow>;
  readonly #count: Statement<{ org: string; publicOnly: number }, { n: number }>;
  readonly #byCollection: Statement<[string], ItineraryRow>;
  readonly #bump: Statement<[string, string], ItineraryValues>;
  readonly #publish: Statement<[string, string, string]>;
  readonly #snapshot: Statement<[string], { published_snapshot: string | null }>;
  readonly #delete: Statement<[string]>;
  /** UPDATE statements by the set of columns they write (prepared on first use; at most 2^5 of them). */
  readonly #updates = new Map<string, Statement<Record<string, unknown>, ItineraryValues>>();
  readonly #db: Database;
  readonly #inCollection: Statement<
    { collection: string; publicOnly: number; publishedOnly: number; limit: number; offset: number },
    ItineraryRow
  >;
  readonly #inCollectionCount: Statement<{ collection: string; publicOnly: number; publishedOnly: number }, { n: number }>;
  readonly #grouped: Statement<
    { orgs: string; collections: string; publicOnly: number; limit: number; offset: number },
    ItineraryRow & { grp: number | null }
  >;
  readonly #groupedCount: Statement<{ orgs: string; publicOnly: number }, { n: number }>;

  constructor(db: Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO itineraries (${COLUMNS}) VALUES (@id, @organization_id, @name, @description, @activity, @privacy,
        @created_by, @draft_version, @published_version, @published_at, @created_at, @updated_at)`,
    );
    this.#get = db.prepare<[string], ItineraryValues>(`SELECT ${COLUMNS} FROM itineraries WHERE id = ?`).raw(true);
    this.#byName = db.prepare(`SELECT ${COLUMNS} FROM itineraries WHERE organization_id = ? AND name = ?`);
    const filter = `organization_id = @org AND (@publicOnly = 0 OR privacy = 'public')`;
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM itineraries WHERE ${filter} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`);
    this.#count = db.prepare(`SELECT count(*) AS n FROM itineraries WHERE ${filter}`);
    this.#byCollection = db.prepare(
      `SELECT ${PREFIXED} FROM itineraries i JOIN collection_itineraries ci ON ci.itinerary_id = i.id
       WHERE ci.collection_id = ? ORDER BY ci.added_at, i.rowid`,
    );
    this.#bump = db
      .prepare<[string, string], ItineraryValues>(
        `UPDATE itineraries SET draft_version = draft_version + 1, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
      )
      .raw(true);
    this.#publish = db.prepare(
      `UPDATE itineraries SET published_snapshot = ?, published_version = draft_version, published_at = ? WHERE id = ?`,
    );
    this.#snapshot = db.prepare('SELECT published_snapshot FROM itineraries WHERE id = ?');
    this.#delete = db.prepare('DELETE FROM itineraries WHERE id = ?');
    const inCollection = `ci.collection_id = @collection AND (@publicOnly = 0 OR i.privacy = 'public')
      AND (@publishedOnly = 0 OR i.published_at IS NOT NULL)`;
    this.#inCollection = db.prepare(
      `SELECT ${PREFIXED} FROM itineraries i JOIN collection_itineraries ci ON ci.itinerary_id = i.id
       WHERE ${inCollection} ORDER BY ci.added_at, i.rowid LIMIT @limit OFFSET @offset`,
    );
    this.#inCollectionCount = db.prepare(
      `SELECT count(*) AS n FROM itineraries i JOIN collection_itineraries ci ON ci.itinerary_id = i.id WHERE ${inCollection}`,
    );
    const visible = `i.organization_id IN (SELECT value FROM json_each(@orgs)) AND (@publicOnly = 0 OR i.privacy = 'public')`;
    // Each itinerary appears once: in the first grouping collection holding it, else in the null group (last).
    this.#grouped = db.prepare(
      `WITH grp(collection_id, ord) AS (SELECT value, key FROM json_each(@collections))
       SELECT * FROM (
         SELECT ${PREFIXED}, i.rowid AS rid,
           (SELECT min(g.ord) FROM collection_itineraries ci JOIN grp g ON g.collection_id = ci.collection_id
            WHERE ci.itinerary_id = i.id) AS grp
         FROM itineraries i WHERE ${visible})
       ORDER BY grp IS NULL, grp, created_at, rid LIMIT @limit OFFSET @offset`,
    );
    this.#groupedCount = db.prepare(`SELECT count(*) AS n FROM itineraries i WHERE ${visible}`);
  }

  /** Creates an itinerary (draft version 1, never published); a name taken in the organization is a Conflict. */
  create(input: ItineraryCreate): Itinerary | Conflict {
    const row = newItineraryRow(input);
    const holder = this.#holderOf(() => this.#insert.run(row), input.organizationId, input.name);
    return holder ?? toItinerary(row);
  }

  get(id: string): Itinerary | undefined {
    const values = this.#get.get(id);
    return values ? fromValues(values) : undefined;
  }

  /** The itinerary holding `name` in the organization (for 409 metadata). */
  findByName(organizationId: string, name: string): Itinerary | undefined {
    const row = this.#byName.get(organizationId, name);
    return row ? toItinerary(row) : undefined;
  }

  list(
    organizationId: string,
    options: { publicOnly?: boolean; limit?: number; offset?: number } = {},
  ): { items: Itinerary[]; total: number } {
    const params = { org: organizationId, publicOnly: options.publicOnly ? 1 : 0 };
    const items = this.#list.all({ ...params, limit: options.limit ?? 20, offset: options.offset ?? 0 }).map(toItinerary);
    return { items, total: this.#count.get(params)?.n ?? 0 };
  }

  listByCollection(collectionId: string): Itinerary[] {
    return this.#byCollection.all(collectionId).map(toItinerary);
  }

  /** Marks a draft edit: bumps draft_version and returns the itinerary as bumped (undefined when unknown). */
  bumpDraftVersion(id: string): Itinerary | undefined {
    const values = this.#bump.get(nowIso(), id);
    return values ? fromValues(values) : undefined;
  }

  /** Stores `snapshot` (JSON-serializable) as the published version of the current draft. */
  publish(id: string, snapshot: unknown): Itinerary | undefined {
    this.#publish.run(JSON.stringify(snapshot), nowIso(), id);
    return this.get(id);
  }

  /** The published snapshot, parsed; undefined when never published or unknown. */
  publishedSnapshot(id: string): unknown {
    const text = this.#snapshot.get(id)?.published_snapshot;
    return text == null ? undefined : (JSON.parse(text) as unknown);
  }

  /**
   * Changes the descriptive fields (omitted ones keep their value) and, with `bumpDraft`, marks a draft edit
   * in the same statement. A name taken in the organization is a Conflict; undefined when the itinerary
   * does not exist.
   */
  update(
    id: string,
    patch: Partial<Pick<Itinerary, 'name' | 'description' | 'activity' | 'privacy'>>,
    options: { bumpDraft?: boolean } = {},
  ): Itinerary | Conflict | undefined {
    const fields = UPDATABLE.filter((field) => patch[field] !== undefined);
    const params: Record<string, unknown> = { id, now: nowIso() };
    for (const field of fields) params[field] = patch[field];
    const statement = this.#updateStatement(fields, options.bumpDraft === true);
    let values: ItineraryValues | undefined;
    // A UNIQUE failure can only come from a new name: the organization is read only then.
    const conflict = this.#holderOf(
      () => {
        values = statement.get(params);
      },
      () => this.get(id)?.organizationId ?? '',
      patch.name ?? '',
    );
    return conflict ?? (values ? fromValues(values) : undefined);
  }

  /** Writes only the given columns: an unchanged name leaves the (organization, name) index alone. */
  #updateStatement(fields: readonly (typeof UPDATABLE)[number][], bumpDraft: boolean) {
    const key = `${fields.join(',')}|${bumpDraft}`;
    let statement = this.#updates.get(key);
    if (!statement) {
      const set = [...fields.map((field) => `${field} = @${field}`), 'updated_at = @now'];
      if (bumpDraft) set.push('draft_version = draft_version + 1');
      statement = this.#db
        .prepare<Record<string, unknown>, ItineraryValues>(`UPDATE itineraries SET ${set.join(', ')} WHERE id = @id RETURNING ${COLUMNS}`)
        .raw(true);
      this.#updates.set(key, statement);
    }
    return statement;
  }

  /** Runs `write`; when it breaks the name's uniqueness, the Conflict naming the itinerary that holds `name`. */
  #holderOf(write: () => void, organizationId: string | (() => string), name: string): Conflict | undefined {
    try {
      write();
      return undefined;
    } catch (error) {
      const org = typeof organizationId === 'function' ? organizationId : () => organizationId;
      const holder = isConstraintError(error, 'UNIQUE') ? this.findByName(org(), name) : undefined;
      if (!holder) throw error;
      return { conflict: holder.id };
    }
  }

  delete(id: string): boolean {
    return this.#delete.run(id).changes > 0;
  }

  /** One page of the itineraries filed in a collection, in filing order, with the total matching the filters. */
  listInCollection(collectionId: string, options: CollectionItineraryOptions): { items: Itinerary[]; total: number } {
    const params = {
      collection: collectionId,
      publicOnly: options.publicOnly ? 1 : 0,
      publishedOnly: options.publishedOnly ? 1 : 0,
    };
    const items = this.#inCollection.all({ ...params, limit: options.limit, offset: options.offset }).map(toItinerary);
    return { items, total: this.#inCollectionCount.get(params)?.n ?? 0 };
  }

  /**
   * One page of the organizations' itineraries ordered by group (the first of `collectionIds` holding each, then
   * those in none), then by creation. `total` counts every itinerary matching the filters.
   */
  listGrouped(options: GroupedListOptions): { items: GroupedItinerary[]; total: number } {
    const params = { orgs: JSON.stringify(options.organizationIds), publicOnly: options.publicOnly ? 1 : 0 };
    const items = this.#grouped
      .all({ ...params, collections: JSON.stringify(options.collectionIds), limit: options.limit, offset: options.offset })
      .map((row) => ({ itinerary: toItinerary(row), group: row.grp }));
    return { items, total: this.#groupedCount.get(params)?.n ?? 0 };
  }
}
