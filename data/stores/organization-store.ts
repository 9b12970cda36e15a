// Organizations: settings, quotas, entitlement limits, products, payment method on file, status.
// SQLite statements only: the record and its row mapping live in ../model/organization.ts.
import type { Statement } from 'better-sqlite3';
import type { Database } from '../db.js';
import {
  type AiSettings,
  type Limits,
  type Organization,
  type OrganizationCreate,
  type OrganizationPatch,
  type OrganizationRow,
  type OrganizationStatus,
  type Product,
  toOrganization,
  toRow,
  newOrganization,
  applyOrganizationPatch,
  validateOrganizationPatch,
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
    const org = newOrganization(input);
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
    validateOrganizationPatch(patch);
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (!current) return undefined;
        const next = applyOrganizationPatch(current, patch);
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
