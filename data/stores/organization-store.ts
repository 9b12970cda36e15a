// Organizations: settings, quotas, entitlement limits, products, payment method on file, status.
// SQLite statements only: the record and its row mapping live in ../model/organization.ts.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import {
  type AiSettings,
  DEFAULT_QUOTA_DATA,
  DEFAULT_QUOTA_TILES,
  EMBED_LAYERS,
  type Limits,
  type Organization,
  type OrganizationCreate,
  type OrganizationPatch,
  type OrganizationRow,
  type OrganizationStatus,
  type Product,
  PRODUCTS,
  toOrganization,
  toRow,
  validateLimits,
  validateProducts,
  validateQuota,
} from '../model/organization.js';

/** Prepared statements over `organizations`. Reads are never cached: each call sees the latest commit. */
export class OrganizationStore {
  readonly #db: Database;
  readonly #insert: Statement<OrganizationRow>;
  readonly #update: Statement<OrganizationRow>;
  readonly #get: Statement<[string], OrganizationRow>;
  readonly #list: Statement<[], OrganizationRow>;
  readonly #count: Statement<[], { n: number }>;
  readonly #delete: Statement<[string]>;

  constructor(db: Database) {
    this.#db = db;
    const columns =
      'id, name, status, require_session_token, quota_data, quota_tiles, embed_layers, embed_planner, default_allowed_origins, ' +
      'limits, product_studio, product_data, product_intelligence, card_on_file, ai_settings, created_at, updated_at';
    this.#insert = db.prepare(
      `INSERT INTO organizations (${columns}) VALUES (${columns
        .split(', ')
        .map((c) => `@${c}`)
        .join(', ')})`,
    );
    this.#update = db.prepare(
      `UPDATE organizations SET ${columns
        .split(', ')
        .filter((c) => c !== 'id' && c !== 'created_at')
        .map((c) => `${c} = @${c}`)
        .join(', ')} WHERE id = @id`,
    );
    this.#get = db.prepare(`SELECT ${columns} FROM organizations WHERE id = ?`);
    this.#list = db.prepare(`SELECT ${columns} FROM organizations ORDER BY created_at, rowid`);
    this.#count = db.prepare('SELECT count(*) AS n FROM organizations');
    this.#delete = db.prepare('DELETE FROM organizations WHERE id = ?');
  }

  /** Creates an organization. Defaults: active, no session requirement, quotas 60/600, no products, no card. */
  create(input: OrganizationCreate): Organization {
    validateProducts(input.products);
    validateQuota('quotaData', input.quotaData);
    validateQuota('quotaTiles', input.quotaTiles);
    if (input.limits) validateLimits(input.limits);
    const now = nowIso();
    const org: Organization = {
      id: randomUUID(),
      name: input.name,
      status: input.status ?? 'active',
      requireSessionToken: input.requireSessionToken ?? false,
      quotaData: input.quotaData ?? DEFAULT_QUOTA_DATA,
      quotaTiles: input.quotaTiles ?? DEFAULT_QUOTA_TILES,
      embedLayers: input.embedLayers ?? [...EMBED_LAYERS],
      embedPlanner: input.embedPlanner ?? false,
      defaultAllowedOrigins: input.defaultAllowedOrigins ?? [],
      limits: input.limits ?? {},
      products: PRODUCTS.filter((p) => input.products?.includes(p)),
      cardOnFile: input.cardOnFile ?? false,
      aiSettings: {},
      createdAt: now,
      updatedAt: now,
    };
    this.#insert.run(toRow(org));
    return org;
  }

  get(id: string): Organization | undefined {
    const row = this.#get.get(id);
    return row ? toOrganization(row) : undefined;
  }

  list(): Organization[] {
    return this.#list.all().map(toOrganization);
  }

  count(): number {
    return this.#count.get()?.n ?? 0;
  }

  /**
   * Applies a partial update (read-modify-write in one transaction). `limits`, when given, replaces the whole
   * map; use setLimit to change one dimension. Returns undefined when the organization does not exist.
   */
  update(id: string, patch: OrganizationPatch): Organization | undefined {
    validateProducts(patch.products);
    validateQuota('quotaData', patch.quotaData);
    validateQuota('quotaTiles', patch.quotaTiles);
    if (patch.limits) validateLimits(patch.limits);
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (!current) return undefined;
        const next: Organization = { ...current, updatedAt: nowIso() };
        if (patch.name !== undefined) next.name = patch.name;
        if (patch.status !== undefined) next.status = patch.status;
        if (patch.requireSessionToken !== undefined) next.requireSessionToken = patch.requireSessionToken;
        if (patch.quotaData !== undefined) next.quotaData = patch.quotaData;
        if (patch.quotaTiles !== undefined) next.quotaTiles = patch.quotaTiles;
        if (patch.embedLayers !== undefined) next.embedLayers = [...patch.embedLayers];
        if (patch.embedPlanner !== undefined) next.embedPlanner = patch.embedPlanner;
        if (patch.defaultAllowedOrigins !== undefined) next.defaultAllowedOrigins = [...patch.defaultAllowedOrigins];
        if (patch.limits !== undefined) next.limits = { ...patch.limits };
        if (patch.products !== undefined) next.products = PRODUCTS.filter((p) => patch.products?.includes(p));
        if (patch.cardOnFile !== undefined) next.cardOnFile = patch.cardOnFile;
        if (patch.aiSettings !== undefined) next.aiSettings = { ...patch.aiSettings };
        this.#update.run(toRow(next));
        return next;
      })
      .immediate();
  }

  /** Settings a dashboard edits: session requirement, quotas, embed layers, default origins. */
  updateSettings(
    id: string,
    settings: Pick<
      OrganizationPatch,
      'requireSessionToken' | 'quotaData' | 'quotaTiles' | 'embedLayers' | 'embedPlanner' | 'defaultAllowedOrigins'
    >,
  ): Organization | undefined {
    return this.update(id, settings);
  }

  /** Sets one limit dimension: a number, null (unlimited), or undefined to remove it (not granted). */
  setLimit(id: string, dimension: string, value: number | null | undefined): Organization | undefined {
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (!current) return undefined;
        const limits = { ...current.limits };
        if (value === undefined) delete limits[dimension];
        else limits[dimension] = value;
        return this.update(id, { limits });
      })
      .immediate();
  }

  setLimits(id: string, limits: Limits): Organization | undefined {
    return this.update(id, { limits });
  }

  setProducts(id: string, products: Product[]): Organization | undefined {
    return this.update(id, { products });
  }

  setCardOnFile(id: string, cardOnFile: boolean): Organization | undefined {
    return this.update(id, { cardOnFile });
  }

  setStatus(id: string, status: OrganizationStatus): Organization | undefined {
    return this.update(id, { status });
  }

  setAiSettings(id: string, aiSettings: AiSettings): Organization | undefined {
    return this.update(id, { aiSettings });
  }

  /** Deletes the organization and (by cascade) everything it owns. Returns whether a row was deleted. */
  delete(id: string): boolean {
    return this.#delete.run(id).changes > 0;
  }
}
