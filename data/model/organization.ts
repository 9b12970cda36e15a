// Organizations: settings, quotas, entitlement limits, products, payment method on file, status.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';
import { fromJson, isSet } from './column-values.js';

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

export interface OrganizationRow {
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

/** An organization row as node-postgres returns it: booleans as booleans, json already parsed. */
export interface PgOrganizationRow
  extends Omit<
    OrganizationRow,
    | 'require_session_token'
    | 'embed_layers'
    | 'embed_planner'
    | 'default_allowed_origins'
    | 'limits'
    | 'product_studio'
    | 'product_data'
    | 'product_intelligence'
    | 'card_on_file'
    | 'ai_settings'
  > {
  require_session_token: boolean;
  embed_layers: string[];
  embed_planner: boolean;
  default_allowed_origins: string[];
  limits: Limits;
  product_studio: boolean;
  product_data: boolean;
  product_intelligence: boolean;
  card_on_file: boolean;
  ai_settings: AiSettings;
}

export function toOrganization(row: OrganizationRow | PgOrganizationRow): Organization {
  const products: Product[] = [];
  if (row.product_studio) products.push('studio');
  if (row.product_data) products.push('data');
  if (row.product_intelligence) products.push('intelligence');
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    requireSessionToken: isSet(row.require_session_token),
    quotaData: row.quota_data,
    quotaTiles: row.quota_tiles,
    embedLayers: fromJson<string[]>(row.embed_layers),
    embedPlanner: isSet(row.embed_planner),
    defaultAllowedOrigins: fromJson<string[]>(row.default_allowed_origins),
    limits: fromJson<Limits>(row.limits),
    products,
    cardOnFile: isSet(row.card_on_file),
    aiSettings: fromJson<AiSettings>(row.ai_settings),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toRow(org: Organization): OrganizationRow {
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

/** A new organization from its creation input (validated first: a TypeError names the bad field). */
export function newOrganization(input: OrganizationCreate, now = nowIso()): Organization {
  validateOrganizationPatch(input);
  return {
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
}

/** Checks the products, quotas and limits a creation or a patch sets (TypeError naming the field). */
export function validateOrganizationPatch(patch: OrganizationPatch): void {
  validateProducts(patch.products);
  validateQuota('quotaData', patch.quotaData);
  validateQuota('quotaTiles', patch.quotaTiles);
  if (patch.limits) validateLimits(patch.limits);
}

/** `current` with `patch` applied: undefined fields keep their value; arrays and objects are copied. */
export function applyOrganizationPatch(current: Organization, patch: OrganizationPatch, now = nowIso()): Organization {
  const next: Organization = { ...current, updatedAt: now };
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
  return next;
}
