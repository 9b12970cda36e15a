// Itineraries: the record and its draft/published bookkeeping. Minimal for now (create, get, list, find by
// name, publish snapshot); segments, waypoints and groups are added by the Studio API service.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { isConstraintError, nowIso, type Database } from '../db.js';
import type { Conflict } from './conflict.js';
import type { Privacy } from './collection-store.js';

export const ACTIVITIES = ['HIKING_AND_TRAIL', 'WALKING', 'TRAIL_RUNNING', 'MOUNTAIN_BIKING', 'ROAD_CYCLING'] as const;
export type Activity = (typeof ACTIVITIES)[number];

export interface Itinerary {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  activity: Activity;
  privacy: Privacy;
  createdBy: string | null;
  draftVersion: number;
  /** Version of the draft that was published; null when never published. */
  publishedVersion: number | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ItineraryCreate {
  organizationId: string;
  name: string;
  description?: string;
  activity?: Activity;
  privacy?: Privacy;
  createdBy?: string | null;
}

export interface ItineraryRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  activity: Activity;
  privacy: Privacy;
  created_by: string | null;
  draft_version: number;
  published_version: number | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The columns an itinerary is read from, in the order `fromValues` takes their values. */
const ITINERARY_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'activity',
  'privacy',
  'created_by',
  'draft_version',
  'published_version',
  'published_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ItineraryRow)[];

export const COLUMNS = ITINERARY_COLUMNS.join(', ');

/** The values of one row of COLUMNS, in their order: what the hot statements return (`raw` mode). */
type ItineraryValues = {
  -readonly [I in keyof typeof ITINERARY_COLUMNS]: (typeof ITINERARY_COLUMNS)[I] extends keyof ItineraryRow
    ? ItineraryRow[(typeof ITINERARY_COLUMNS)[I]]
    : never;
};

/**
 * An itinerary from the values of COLUMNS. The hot statements (every edit, every read's access check) read rows
 * in `raw` mode: better-sqlite3 makes an array of values in ~60% of the time it takes to make a row object.
 */
function fromValues(v: ItineraryValues): Itinerary {
  return {
    id: v[0],
    organizationId: v[1],
    name: v[2],
    description: v[3],
    activity: v[4],
    privacy: v[5],
    createdBy: v[6],
    draftVersion: v[7],
    publishedVersion: v[8],
    publishedAt: v[9],
    createdAt: v[10],
    updatedAt: v[11],
  };
}

/** An itinerary from a row object (the other statements, and the PostgreSQL adapter). */
export function toItinerary(row: ItineraryRow): Itinerary {
  return fromValues(ITINERARY_COLUMNS.map((column) => row[column]) as unknown as ItineraryValues);
}

/** Filters of one page of a collection's itineraries. */
export interface CollectionItineraryOptions {
  /** Only public itineraries (listing with a bare publishable key). */
  publicOnly: boolean;
  /** Only itineraries that have been published (share tokens). */
  publishedOnly: boolean;
  limit: number;
  offset: number;
}

/** Filters of `listGrouped` (GET /v1/itineraries). */
export interface GroupedListOptions {
  /** The organizations whose itineraries are listed. */
  organizationIds: string[];
  /** The grouping collections, in display order; an itinerary goes to the first one holding it. */
  collectionIds: string[];
  publicOnly: boolean;
  limit: number;
  offset: number;
}

/** One row of `listGrouped`: the itinerary and the index of its group in `collectionIds` (null: in none). */
export interface GroupedItinerary {
  itinerary: Itinerary;
  group: number | null;
}

/** The record's fields a PATCH may change (column names equal the field names). */
export const UPDATABLE = ['name', 'description', 'activity', 'privacy'] as const;

export const PREFIXED = ITINERARY_COLUMNS.map((c) => `i.${c}`).join(', ');

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
    const now = nowIso();
    const row: ItineraryRow = {
      id: randomUUID(),
      organization_id: input.organizationId,
      name: input.name,
      description: input.description ?? '',
      activity: input.activity ?? 'HIKING_AND_TRAIL',
      privacy: input.privacy ?? 'private',
      created_by: input.createdBy ?? null,
      draft_version: 1,
      published_version: null,
      published_at: null,
      created_at: now,
      updated_at: now,
    };
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
