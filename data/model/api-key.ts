// API keys: publishable (pk_, stored as is) and secret (sk_, stored as SHA-256), scopes, origins, revocation.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

export const SCOPES = ['embedding', 'tiles', 'resources', 'data', 'mcp', 'management'] as const;
export type Scope = (typeof SCOPES)[number];

export const KEY_TYPES = ['pk', 'sk'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Allowed-origin patterns: `https://example.com`, `https://*.example.com`, `http://localhost:*`
 * (scheme, host or `*.`-prefixed host, optional port or `*`; no path).
 */
const ORIGIN = /^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:(\d{1,5}|\*))?$/;

export function isAllowedOriginPattern(value: string): boolean {
  return ORIGIN.test(value);
}

export interface ApiKey {
  id: string;
  organizationId: string;
  type: KeyType;
  name: string;
  scopes: Scope[];
  /** Publishable keys only; an empty list leaves the choice to the organization's default origins. */
  allowedOrigins: string[];
  /** The publishable key itself (public); null for secret keys, which are only stored hashed. */
  key: string | null;
  /** Last four characters of the key, to tell keys apart in listings. */
  hint: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface ApiKeyCreate {
  organizationId: string;
  type: KeyType;
  name: string;
  scopes?: Scope[];
  allowedOrigins?: string[];
}

export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The key in clear. For a secret key this is the only time it is available. */
  plaintext: string;
}

export interface ApiKeyPatch {
  name?: string;
  scopes?: Scope[];
  allowedOrigins?: string[];
}

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  type: KeyType;
  name: string;
  scopes: string;
  allowed_origins: string;
  key_value: string | null;
  key_hash: string | null;
  key_hint: string;
  created_at: string;
  revoked_at: string | null;
}

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type,
    name: row.name,
    scopes: JSON.parse(row.scopes) as Scope[],
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    key: row.key_value,
    hint: row.key_hint,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function validate(input: { type?: KeyType; name?: string; scopes?: string[]; allowedOrigins?: string[] }): void {
  if (input.type !== undefined && !(KEY_TYPES as readonly string[]).includes(input.type)) {
    throw new TypeError(`unknown key type '${String(input.type)}'`);
  }
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.length > 200)) {
    throw new TypeError('key name must be 1 to 200 characters');
  }
  for (const s of input.scopes ?? []) if (!isScope(s)) throw new TypeError(`unknown scope '${s}'`);
  for (const o of input.allowedOrigins ?? []) {
    if (!isAllowedOriginPattern(o)) throw new TypeError(`invalid allowed origin '${o}'`);
  }
  if (input.type === 'sk' && (input.allowedOrigins?.length ?? 0) > 0) {
    throw new TypeError('allowed origins apply to publishable keys only');
  }
}

/** Keeps the order of SCOPES and drops duplicates. */
export function normalizeScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}
