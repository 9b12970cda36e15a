// Argument validation for the admin command: its error type, list and value parsers, and the `set` pairs.
import { isScope, type KeyType, type Scope } from '../../../data/model/api-key.js';
import {
  EMBED_LAYERS,
  ORGANIZATION_STATUSES,
  PRODUCTS,
  validateLimits,
  type OrganizationPatch,
  type OrganizationStatus,
  type Product,
} from '../../../data/model/organization.js';
import { isValidEmail } from '../../../data/model/user.js';

/** Error codes of the admin command, with their exit status. */
export const ADMIN_ERRORS = {
  UNKNOWN_COMMAND: 2,
  MISSING_ARGUMENT: 2,
  INVALID_ARGUMENT: 2,
  NOT_FOUND: 3,
  CONFLICT: 4,
  INTERNAL_ERROR: 1,
} as const;
export type AdminErrorCode = keyof typeof ADMIN_ERRORS;

export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Minimum length of a password set from the command line. */
export const MIN_PASSWORD_LENGTH = 8;

/** Keys accepted by `set --org ID key=value …`. */
export const SET_KEYS = [
  'require_session_token',
  'quota.data',
  'quota.tiles',
  'limits.<dimension>',
  'products',
  'card',
  'status',
  'embed.layers',
  'embed.planner',
];

export function invalid(message: string): AdminError {
  return new AdminError('INVALID_ARGUMENT', message);
}

export function checkName(name: string, option: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) throw invalid(`--${option} must be 1 to 200 characters`);
  return trimmed;
}

export function checkEmail(email: string): string {
  if (!isValidEmail(email)) throw invalid(`--email '${email}' is not an email address`);
  return email.trim();
}

export function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalid(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  return password;
}

/** Comma-separated list; surrounding spaces and empty items are dropped, so '' is the empty list. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function parseProducts(value: string, what: string): Product[] {
  const items = splitList(value);
  for (const p of items) {
    if (!(PRODUCTS as readonly string[]).includes(p)) throw invalid(`${what}: unknown product '${p}' (${PRODUCTS.join(', ')})`);
  }
  return PRODUCTS.filter((p) => items.includes(p));
}

/** Default scopes when --scopes is omitted: `embedding` for a publishable key, none for a secret key. */
export function parseScopes(value: string | undefined, type: KeyType): Scope[] {
  if (value === undefined) return type === 'pk' ? ['embedding'] : [];
  const items = splitList(value);
  for (const s of items) {
    if (!isScope(s)) throw invalid(`--scopes: unknown scope '${s}' (embedding, tiles, resources, data, mcp, management)`);
  }
  return items as Scope[];
}

export function parseBoolean(key: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(`${key} must be true or false`);
}

export function parseCount(key: string, value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw invalid(`${key} must be a non-negative integer`);
  return Number(value);
}

export interface SettingChanges {
  patch: OrganizationPatch;
  /** dimension -> number, null (unlimited) or undefined (remove: not granted). */
  limits: Map<string, number | null | undefined>;
}

export function parseSettings(pairs: string[]): SettingChanges {
  const changes: SettingChanges = { patch: {}, limits: new Map() };
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw invalid(`'${pair}' is not key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (seen.has(key)) throw invalid(`${key} is given twice`);
    seen.add(key);
    if (key.startsWith('limits.')) {
      const dimension = key.slice('limits.'.length);
      const limit = value === 'null' ? null : value === 'absent' ? undefined : parseCount(key, value);
      try {
        validateLimits({ [dimension]: limit ?? null });
      } catch (err) {
        throw invalid((err as Error).message);
      }
      changes.limits.set(dimension, limit);
      continue;
    }
    switch (key) {
      case 'require_session_token':
        changes.patch.requireSessionToken = parseBoolean(key, value);
        break;
      case 'quota.data':
        changes.patch.quotaData = parseCount(key, value);
        break;
      case 'quota.tiles':
        changes.patch.quotaTiles = parseCount(key, value);
        break;
      case 'products':
        changes.patch.products = parseProducts(value, key);
        break;
      case 'card':
        changes.patch.cardOnFile = parseBoolean(key, value);
        break;
      case 'status':
        if (!(ORGANIZATION_STATUSES as readonly string[]).includes(value)) throw invalid('status must be active or inactive');
        changes.patch.status = value as OrganizationStatus;
        break;
      case 'embed.layers': {
        const layers = splitList(value);
        for (const l of layers) {
          if (!(EMBED_LAYERS as readonly string[]).includes(l)) {
            throw invalid(`embed.layers: unknown layer '${l}' (${EMBED_LAYERS.join(', ')})`);
          }
        }
        changes.patch.embedLayers = EMBED_LAYERS.filter((l) => layers.includes(l));
        break;
      }
      case 'embed.planner':
        if (value !== 'true' && value !== 'false') throw invalid('embed.planner must be true or false');
        changes.patch.embedPlanner = value === 'true';
        break;
      default:
        throw invalid(`unknown setting '${key}' (${SET_KEYS.join(', ')})`);
    }
  }
  return changes;
}
