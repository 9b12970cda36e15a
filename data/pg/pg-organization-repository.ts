// Organizations on PostgreSQL (the SQLite twin: data/stores/organization-store.ts).
import type { OrganizationRepository } from '../repositories.js';
import {
  type AiSettings,
  type Limits,
  type Organization,
  type OrganizationCreate,
  type OrganizationPatch,
  type OrganizationStatus,
  type Product,
  newOrganization,
  applyOrganizationPatch,
  validateOrganizationPatch,
  toOrganization,
  type PgOrganizationRow,
} from '../model/organization.js';
import type { PgDatabase } from './pg-database.js';

const COLUMNS =
  'id, name, status, require_session_token, quota_data, quota_tiles, embed_layers, embed_planner, default_allowed_origins, ' +
  'limits, product_studio, product_data, product_intelligence, card_on_file, ai_settings, created_at, updated_at';

const INSERT = `INSERT INTO organizations (${COLUMNS}) VALUES (${COLUMNS.split(', ')
  .map((_, i) => `$${i + 1}`)
  .join(', ')})`;

/** Values: id, the fields, updated_at (created_at never changes). */
const UPDATE = `UPDATE organizations SET name = $2, status = $3, require_session_token = $4, quota_data = $5, quota_tiles = $6,
  embed_layers = $7, embed_planner = $8, default_allowed_origins = $9, limits = $10, product_studio = $11, product_data = $12,
  product_intelligence = $13, card_on_file = $14, ai_settings = $15, updated_at = $16 WHERE id = $1`;

/** The columns between id and created_at, in COLUMNS order: flags by truthiness and json as JSON text, as SQLite stores them. */
function fields(org: Organization): unknown[] {
  return [
    org.name,
    org.status,
    Boolean(org.requireSessionToken),
    org.quotaData,
    org.quotaTiles,
    JSON.stringify(org.embedLayers),
    Boolean(org.embedPlanner),
    JSON.stringify(org.defaultAllowedOrigins),
    JSON.stringify(org.limits),
    org.products.includes('studio'),
    org.products.includes('data'),
    org.products.includes('intelligence'),
    Boolean(org.cardOnFile),
    JSON.stringify(org.aiSettings),
  ];
}

export class PgOrganizationRepository implements OrganizationRepository {
  constructor(private readonly db: PgDatabase) {}

  async create(input: OrganizationCreate): Promise<Organization> {
    const org = newOrganization(input);
    // A savepoint: a CHECK error a caller catches leaves its transaction usable, as on SQLite.
    await this.db.savepoint(() => this.db.query(INSERT, [org.id, ...fields(org), org.createdAt, org.updatedAt]));
    return org;
  }

  async get(id: string): Promise<Organization | undefined> {
    const row = await this.db.row<PgOrganizationRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
    return row ? toOrganization(row) : undefined;
  }

  async list(): Promise<Organization[]> {
    return (await this.db.rows<PgOrganizationRow>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, seq`)).map(toOrganization);
  }

  async count(): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM organizations'))?.n ?? 0;
  }

  async update(id: string, patch: OrganizationPatch): Promise<Organization | undefined> {
    validateOrganizationPatch(patch);
    // Read-modify-write: SERIALIZABLE makes a concurrent update of the same organization retry on fresh data.
    return this.db.transaction(async () => {
      const current = await this.get(id);
      if (!current) return undefined;
      const next = applyOrganizationPatch(current, patch);
      await this.db.query(UPDATE, [next.id, ...fields(next), next.updatedAt]);
      return next;
    });
  }

  async updateSettings(
    id: string,
    settings: Pick<
      OrganizationPatch,
      'requireSessionToken' | 'quotaData' | 'quotaTiles' | 'embedLayers' | 'embedPlanner' | 'defaultAllowedOrigins'
    >,
  ): Promise<Organization | undefined> {
    return this.update(id, settings);
  }

  async setLimit(id: string, dimension: string, value: number | null | undefined): Promise<Organization | undefined> {
    // Read-modify-write of one dimension in one SERIALIZABLE transaction (update joins it as a savepoint).
    return this.db.transaction(async () => {
      const current = await this.get(id);
      if (!current) return undefined;
      const limits = { ...current.limits };
      if (value === undefined) delete limits[dimension];
      else limits[dimension] = value;
      return this.update(id, { limits });
    });
  }

  async setLimits(id: string, limits: Limits): Promise<Organization | undefined> {
    return this.update(id, { limits });
  }

  async setProducts(id: string, products: Product[]): Promise<Organization | undefined> {
    return this.update(id, { products });
  }

  async setCardOnFile(id: string, cardOnFile: boolean): Promise<Organization | undefined> {
    return this.update(id, { cardOnFile });
  }

  async setStatus(id: string, status: OrganizationStatus): Promise<Organization | undefined> {
    return this.update(id, { status });
  }

  async setAiSettings(id: string, aiSettings: AiSettings): Promise<Organization | undefined> {
    return this.update(id, { aiSettings });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM organizations WHERE id = $1', [id])) > 0;
  }
}
