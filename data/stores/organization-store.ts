// Organizations: settings, quotas, entitlement limits, products, payment method on file, status.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';

export const PRODUCTS = ['studio', 'data', 'intelligence'] as const;
export type Product = (typeof PRODUCTS)[number];

export const ORGANIZATION_STATUSES = ['active', 'inactive'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

/** Layers the embed can serve; the organization's embed_layers caps them. */
export const EMBED_LAYERS = ['trails', 'itineraries', 'waypoints', 'zones'] as const;
export type EmbedLayer = (typeof EMBED_LAYERS)[number];

/**
 * Entitlement limits. A dimension mapped to null is unlimited; a dimension absent from the map was never
 * granted (creating such a resource is refused). Values are non-negative integers; -1 is never stored.
 */
export type Limits = Record<string, number | null>;

/**
 * Limit dimensions the platform checks, and the grant a new organization receives from the admin command and
 * the demo seeding: every dimension unlimited (null). An organization created through the store with no
 * `limits` holds none of them.
 */
export const LIMIT_DIMENSIONS = ['collections', 'itineraries', 'zones', 'members', 'keys'] as const;
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze(Object.fromEntries(LIMIT_DIMENSIONS.map((d) => [d, null])) as Limits);

export const DEFAULT_QUOTA_DATA = 60;
export const DEFAULT_QUOTA_TILES = 600;

export interface AiSettings {
  endpoint?: string;
  model?: string;
  enabledTools?: string[];
  /** The model's API key as the server sealed it (server/management/secret-box.ts), never the plaintext. */
  apiKeySealed?: string;
  /** The key's last four characters, to recognise it. */
  apiKeyHint?: string;
  updatedAt?: string;
  [key: string]: unknown;
}

export interface Organization {
  id: string;
  name: string;
  status: OrganizationStatus;
  requireSessionToken: boolean;
  /** Data API requests per minute (all keys together). */
  quotaData: number;
  /** Tile API requests per minute (all keys together). */
  quotaTiles: number;
  embedLayers: string[];
  /** Members may open the planner inside the organization's embeds. */
  embedPlanner: boolean;
  defaultAllowedOrigins: string[];
  limits: Limits;
  products: Product[];
  cardOnFile: boolean;
  aiSettings: AiSettings;
  createdAt: string;
  updatedAt: string;
}

export interface OrganizationCreate {
  name: string;
  status?: OrganizationStatus;
  requireSessionToken?: boolean;
  quotaData?: number;
  quotaTiles?: number;
  embedLayers?: string[];
  embedPlanner?: boolean;
  defaultAllowedOrigins?: string[];
  limits?: Limits;
  products?: Product[];
  cardOnFile?: boolean;
}

/** Fields left undefined keep their value. */
export type OrganizationPatch = Partial<Omit<OrganizationCreate, never>> & { aiSettings?: AiSettings };

interface OrganizationRow {
  id: string;
  name: string;
  status: OrganizationStatus;
  require_session_token: number;
  quota_data: number;
  quota_tiles: number;
  embed_layers: string;
  embed_planner: number;
  default_allowed_origins: string;
  limits: string;
  product_studio: number;
  product_data: number;
  product_intelligence: number;
  card_on_file: number;
  ai_settings: string;
  created_at: string;
  updated_at: string;
}

const LIMIT_DIMENSION = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** Throws a TypeError unless every value is null or a non-negative safe integer (so -1 can never be written). */
export function validateLimits(limits: Limits): void {
  for (const [dimension, value] of Object.entries(limits)) {
    if (!LIMIT_DIMENSION.test(dimension)) throw new TypeError(`limits: invalid dimension name '${dimension}'`);
    if (value === null) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(`limits.${dimension} must be a non-negative integer or null (unlimited)`);
    }
  }
}

export function validateQuota(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
    throw new TypeError(`${name} must be a non-negative integer`);
  }
}

export function validateProducts(products: readonly string[] | undefined): void {
  for (const p of products ?? []) {
    if (!(PRODUCTS as readonly string[]).includes(p)) throw new TypeError(`unknown product '${p}'`);
  }
}

function toOrganization(row: OrganizationRow): Organization {
  const products: Product[] = [];
  if (row.product_studio) products.push('studio');
  if (row.product_data) products.push('data');
  if (row.product_intelligence) products.push('intelligence');
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    requireSessionToken: row.require_session_token === 1,
    quotaData: row.quota_data,
    quotaTiles: row.quota_tiles,
    embedLayers: JSON.parse(row.embed_layers) as string[],
    embedPlanner: row.embed_planner === 1,
    defaultAllowedOrigins: JSON.parse(row.default_allowed_origins) as string[],
    limits: JSON.parse(row.limits) as Limits,
    products,
    cardOnFile: row.card_on_file === 1,
    aiSettings: JSON.parse(row.ai_settings) as AiSettings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(org: Organization): OrganizationRow {
  return {
    id: org.id,
    name: org.name,
    status: org.status,
    require_session_token: org.requireSessionToken ? 1 : 0,
    quota_data: org.quotaData,
    quota_tiles: org.quotaTiles,
    embed_layers: JSON.stringify(org.embedLayers),
    embed_planner: org.embedPlanner ? 1 : 0,
    default_allowed_origins: JSON.stringify(org.defaultAllowedOrigins),
    limits: JSON.stringify(org.limits),
    product_studio: org.products.includes('studio') ? 1 : 0,
    product_data: org.products.includes('data') ? 1 : 0,
    product_intelligence: org.products.includes('intelligence') ? 1 : 0,
    card_on_file: org.cardOnFile ? 1 : 0,
    ai_settings: JSON.stringify(org.aiSettings),
    created_at: org.createdAt,
    updated_at: org.updatedAt,
  };
}

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
