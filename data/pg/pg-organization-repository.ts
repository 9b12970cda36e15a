// Organizations on PostgreSQL (the SQLite twin: data/stores/organization-store.ts).
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';
import type { OrganizationRepository } from '../repositories.js';
import {
  type AiSettings,
  DEFAULT_QUOTA_DATA,
  DEFAULT_QUOTA_TILES,
  EMBED_LAYERS,
  type Limits,
  type Organization,
  type OrganizationCreate,
  type OrganizationPatch,
  type OrganizationStatus,
  PRODUCTS,
  type Product,
  validateLimits,
  validateProducts,
  validateQuota,
} from '../model/organization.js';
import type { PgDatabase } from './pg-database.js';

/** A row as node-postgres returns it: booleans as booleans, json already parsed, timestamps as ISO strings. */
interface OrganizationRow {
  id: string;
  name: string;
  status: OrganizationStatus;
  require_session_token: boolean;
  quota_data: number;
  quota_tiles: number;
  embed_layers: string[];
  embed_planner: boolean;
  default_allowed_origins: string[];
  limits: Limits;
  product_studio: boolean;
  product_data: boolean;
  product_intelligence: boolean;
  card_on_file: boolean;
  ai_settings: AiSettings;
  created_at: string;
  updated_at: string;
}

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

function toOrganization(row: OrganizationRow): Organization {
  const products: Product[] = [];
  if (row.product_studio) products.push('studio');
  if (row.product_data) products.push('data');
  if (row.product_intelligence) products.push('intelligence');
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    requireSessionToken: row.require_session_token,
    quotaData: row.quota_data,
    quotaTiles: row.quota_tiles,
    embedLayers: row.embed_layers,
    embedPlanner: row.embed_planner,
    defaultAllowedOrigins: row.default_allowed_origins,
    limits: row.limits,
    products,
    cardOnFile: row.card_on_file,
    aiSettings: row.ai_settings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

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
    // A savepoint: a CHECK error a caller catches leaves its transaction usable, as on SQLite.
    await this.db.savepoint(() => this.db.query(INSERT, [org.id, ...fields(org), org.createdAt, org.updatedAt]));
    return org;
  }

  async get(id: string): Promise<Organization | undefined> {
    const row = await this.db.row<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
    return row ? toOrganization(row) : undefined;
  }

  async list(): Promise<Organization[]> {
    return (await this.db.rows<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, seq`)).map(toOrganization);
  }

  async count(): Promise<number> {
    return (await this.db.row<{ n: number }>('SELECT count(*) AS n FROM organizations'))?.n ?? 0;
  }

  async update(id: string, patch: OrganizationPatch): Promise<Organization | undefined> {
    validateProducts(patch.products);
    validateQuota('quotaData', patch.quotaData);
    validateQuota('quotaTiles', patch.quotaTiles);
    if (patch.limits) validateLimits(patch.limits);
    // Read-modify-write: SERIALIZABLE makes a concurrent update of the same organization retry on fresh data.
    return this.db.transaction(async () => {
      const current = await this.get(id);
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
