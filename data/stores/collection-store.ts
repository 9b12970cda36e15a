// Collections on SQLite; the Studio API service builds its rules (visibility, pagination, conflicts) on them.
// SQLite statements only: the record and its row mapping live in ../model/collection.ts.
import type { Statement } from 'better-sqlite3';
import { isConstraintError, nowIso, type Database } from '../db.js';
import type { Conflict } from '../model/conflict.js';
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
  toCollectionRow,
} from '../model/collection.js';

const LIST_FILTER = `organization_id = @org AND (@scope IS NULL OR scope = @scope)
  AND (@owner IS NULL OR owner_user_id = @owner) AND (@publicOnly = 0 OR privacy = 'public')`;

interface HoldingParams {
  item: string;
  publicOnly: number;
  viewer: string | null;
}

interface PersonalParams {
  owner: string;
  org: string | null;
  publicOnly: number;
}

interface ListParams {
  org: string;
  scope: string | null;
  owner: string | null;
  publicOnly: number;
}

export class CollectionStore {
  readonly #insert: Statement<CollectionRow>;
  readonly #get: Statement<[string], CollectionRow>;
  readonly #byName: Statement<[string, string, string, string], CollectionRow>;
  readonly #list: Statement<ListParams & { limit: number; offset: number }, CollectionRow>;
  readonly #count: Statement<ListParams, { n: number }>;
  readonly #delete: Statement<[string]>;
  readonly #addItinerary: Statement<[string, string, string]>;
  readonly #removeItinerary: Statement<[string, string]>;
  readonly #itineraryIds: Statement<[string], { itinerary_id: string }>;
  readonly #addZone: Statement<[string, string, string]>;
  readonly #removeZone: Statement<[string, string]>;
  readonly #zoneIds: Statement<[string], { zone_id: string }>;
  readonly #update: Statement<CollectionRow>;
  readonly #countByOrg: Statement<[string], { n: number }>;
  readonly #personal: Statement<PersonalParams & { limit: number; offset: number }, CollectionRow>;
  readonly #personalCount: Statement<PersonalParams, { n: number }>;
  readonly #holdingItinerary: Statement<HoldingParams & { limit: number; offset: number }, CollectionRow>;
  readonly #holdingItineraryCount: Statement<HoldingParams, { n: number }>;
  readonly #holdingZone: Statement<HoldingParams & { limit: number; offset: number }, CollectionRow>;
  readonly #holdingZoneCount: Statement<HoldingParams, { n: number }>;
  readonly #holdsItinerary: Statement<[string, string], { one: number }>;
  readonly #holdsZone: Statement<[string, string], { one: number }>;

  constructor(db: Database) {
    this.#insert = db.prepare(
      `INSERT INTO collections (${COLUMNS}) VALUES (@id, @organization_id, @scope, @owner_user_id, @name,
        @description, @privacy, @created_by, @created_at, @updated_at)`,
    );
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM collections WHERE id = ?`);
    this.#byName = db.prepare(
      `SELECT ${COLUMNS} FROM collections
       WHERE organization_id = ? AND scope = ? AND ifnull(owner_user_id, '') = ? AND name = ?`,
    );
    this.#list = db.prepare(
      `SELECT ${COLUMNS} FROM collections WHERE ${LIST_FILTER} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
    );
    this.#count = db.prepare(`SELECT count(*) AS n FROM collections WHERE ${LIST_FILTER}`);
    this.#delete = db.prepare('DELETE FROM collections WHERE id = ?');
    this.#addItinerary = db.prepare(
      'INSERT INTO collection_itineraries (collection_id, itinerary_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.#removeItinerary = db.prepare('DELETE FROM collection_itineraries WHERE collection_id = ? AND itinerary_id = ?');
    this.#itineraryIds = db.prepare(
      'SELECT itinerary_id FROM collection_itineraries WHERE collection_id = ? ORDER BY added_at, itinerary_id',
    );
    this.#addZone = db.prepare('INSERT INTO collection_zones (collection_id, zone_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.#removeZone = db.prepare('DELETE FROM collection_zones WHERE collection_id = ? AND zone_id = ?');
    this.#zoneIds = db.prepare('SELECT zone_id FROM collection_zones WHERE collection_id = ? ORDER BY added_at, zone_id');
    this.#update = db.prepare(
      `UPDATE collections SET name = @name, description = @description, privacy = @privacy, updated_at = @updated_at
       WHERE id = @id`,
    );
    this.#countByOrg = db.prepare('SELECT count(*) AS n FROM collections WHERE organization_id = ?');
    const personal = `scope = 'personal' AND owner_user_id = @owner AND (@org IS NULL OR organization_id = @org)
      AND (@publicOnly = 0 OR privacy = 'public')`;
    this.#personal = db.prepare(
      `SELECT ${COLUMNS} FROM collections WHERE ${personal} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
    );
    this.#personalCount = db.prepare(`SELECT count(*) AS n FROM collections WHERE ${personal}`);
    const holding = (table: string, column: string) =>
      `id IN (SELECT collection_id FROM ${table} WHERE ${column} = @item)
       AND ((scope = 'organization' AND (@publicOnly = 0 OR privacy = 'public'))
         OR (scope = 'personal' AND owner_user_id = @viewer))`;
    const holdingItinerary = holding('collection_itineraries', 'itinerary_id');
    const holdingZone = holding('collection_zones', 'zone_id');
    this.#holdingItinerary = db.prepare(
      `SELECT ${COLUMNS} FROM collections WHERE ${holdingItinerary} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
    );
    this.#holdingItineraryCount = db.prepare(`SELECT count(*) AS n FROM collections WHERE ${holdingItinerary}`);
    this.#holdingZone = db.prepare(
      `SELECT ${COLUMNS} FROM collections WHERE ${holdingZone} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
    );
    this.#holdingZoneCount = db.prepare(`SELECT count(*) AS n FROM collections WHERE ${holdingZone}`);
    this.#holdsItinerary = db.prepare('SELECT 1 AS one FROM collection_itineraries WHERE collection_id = ? AND itinerary_id = ?');
    this.#holdsZone = db.prepare('SELECT 1 AS one FROM collection_zones WHERE collection_id = ? AND zone_id = ?');
  }

  /** Creates a collection; a name taken in the same organization, scope and owner is a Conflict. */
  create(input: CollectionCreate): Collection | Conflict {
    const row = newCollectionRow(input);
    return this.#holderOf(() => this.#insert.run(row), row) ?? toCollection(row);
  }

  get(id: string): Collection | undefined {
    const row = this.#get.get(id);
    return row ? toCollection(row) : undefined;
  }

  /** The collection holding `name` in the same organization, scope and owner (for 409 metadata). */
  findByName(organizationId: string, scope: CollectionScope, ownerUserId: string | null, name: string): Collection | undefined {
    const row = this.#byName.get(organizationId, scope, ownerUserId ?? '', name);
    return row ? toCollection(row) : undefined;
  }

  /** One page of an organization's collections, oldest first, with the total matching the filters. */
  list(organizationId: string, options: CollectionListOptions = {}): { items: Collection[]; total: number } {
    const params: ListParams = {
      org: organizationId,
      scope: options.scope ?? null,
      owner: options.ownerUserId ?? null,
      publicOnly: options.publicOnly ? 1 : 0,
    };
    const items = this.#list.all({ ...params, limit: options.limit ?? 20, offset: options.offset ?? 0 }).map(toCollection);
    return { items, total: this.#count.get(params)?.n ?? 0 };
  }

  delete(id: string): boolean {
    return this.#delete.run(id).changes > 0;
  }

  /** Files an itinerary in the collection (idempotent). */
  addItinerary(collectionId: string, itineraryId: string): void {
    this.#addItinerary.run(collectionId, itineraryId, nowIso());
  }

  removeItinerary(collectionId: string, itineraryId: string): boolean {
    return this.#removeItinerary.run(collectionId, itineraryId).changes > 0;
  }

  itineraryIds(collectionId: string): string[] {
    return this.#itineraryIds.all(collectionId).map((r) => r.itinerary_id);
  }

  /** Files a zone in the collection (idempotent). */
  addZone(collectionId: string, zoneId: string): void {
    this.#addZone.run(collectionId, zoneId, nowIso());
  }

  removeZone(collectionId: string, zoneId: string): boolean {
    return this.#removeZone.run(collectionId, zoneId).changes > 0;
  }

  zoneIds(collectionId: string): string[] {
    return this.#zoneIds.all(collectionId).map((r) => r.zone_id);
  }

  /**
   * Partial update: undefined fields keep their value. A name taken in the same organization, scope and owner
   * is a Conflict; undefined when the collection does not exist.
   */
  update(id: string, patch: CollectionPatch): Collection | Conflict | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next: Collection = {
      ...current,
      name: patch.name ?? current.name,
      description: patch.description ?? current.description,
      privacy: patch.privacy ?? current.privacy,
      updatedAt: nowIso(),
    };
    const row = toCollectionRow(next);
    return this.#holderOf(() => this.#update.run(row), row) ?? next;
  }

  /** Runs `write`; when it breaks the name's uniqueness, the Conflict naming the collection that holds the name. */
  #holderOf(write: () => void, row: CollectionRow): Conflict | undefined {
    try {
      write();
      return undefined;
    } catch (error) {
      const holder = isConstraintError(error, 'UNIQUE')
        ? this.findByName(row.organization_id, row.scope, row.owner_user_id, row.name)
        : undefined;
      if (!holder) throw error;
      return { conflict: holder.id };
    }
  }

  /** Every collection of the organization, both scopes (plan limit `collections`). */
  countByOrganization(organizationId: string): number {
    return this.#countByOrg.get(organizationId)?.n ?? 0;
  }

  /** One page of a user's personal collections (optionally within one organization), oldest first. */
  listPersonal(
    ownerUserId: string,
    options: { organizationId?: string; publicOnly?: boolean; limit?: number; offset?: number } = {},
  ): { items: Collection[]; total: number } {
    const params: PersonalParams = {
      owner: ownerUserId,
      org: options.organizationId ?? null,
      publicOnly: options.publicOnly ? 1 : 0,
    };
    const items = this.#personal.all({ ...params, limit: options.limit ?? 20, offset: options.offset ?? 0 }).map(toCollection);
    return { items, total: this.#personalCount.get(params)?.n ?? 0 };
  }

  /** One page of the collections an itinerary or a zone is filed in, as `options` lets the caller see them. */
  listHolding(kind: 'itinerary' | 'zone', itemId: string, options: HoldingListOptions): { items: Collection[]; total: number } {
    const params: HoldingParams = {
      item: itemId,
      publicOnly: options.publicOnly ? 1 : 0,
      viewer: options.viewerUserId,
    };
    const [list, count] =
      kind === 'itinerary' ? [this.#holdingItinerary, this.#holdingItineraryCount] : [this.#holdingZone, this.#holdingZoneCount];
    const items = list.all({ ...params, limit: options.limit, offset: options.offset }).map(toCollection);
    return { items, total: count.get(params)?.n ?? 0 };
  }

  /** Whether the itinerary is filed in the collection. */
  holdsItinerary(collectionId: string, itineraryId: string): boolean {
    return this.#holdsItinerary.get(collectionId, itineraryId) !== undefined;
  }

  /** Whether the zone is filed in the collection. */
  holdsZone(collectionId: string, zoneId: string): boolean {
    return this.#holdsZone.get(collectionId, zoneId) !== undefined;
  }
}
