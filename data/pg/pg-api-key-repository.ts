// API keys on PostgreSQL (the SQLite twin: data/stores/api-key-store.ts).
import { randomUUID } from 'node:crypto';
import { generatePublishableKey, generateSecretKey, hashSecret } from '../credentials.js';
import { nowIso } from '../db.js';
import type { ApiKeyRepository } from '../repositories.js';
import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyPatch,
  type CreatedApiKey,
  type KeyType,
  normalizeScopes,
  type Scope,
  validate as validateApiKey,
} from '../model/api-key.js';
import type { PgDatabase } from './pg-database.js';

/** A row as node-postgres returns it: json already parsed, timestamps as ISO strings. */
interface ApiKeyRow {
  id: string;
  organization_id: string;
  type: KeyType;
  name: string;
  scopes: Scope[];
  allowed_origins: string[];
  key_value: string | null;
  key_hint: string;
  created_at: string;
  revoked_at: string | null;
}

/** Every column the mapper reads (key_hash never leaves the database). */
const COLUMNS = 'id, organization_id, type, name, scopes, allowed_origins, key_value, key_hint, created_at, revoked_at';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type,
    name: row.name,
    scopes: row.scopes,
    allowedOrigins: row.allowed_origins,
    key: row.key_value,
    hint: row.key_hint,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

type Lookup = { includeRevoked?: boolean };

export class PgApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: PgDatabase) {}

  async create(input: ApiKeyCreate): Promise<CreatedApiKey> {
    validateApiKey(input);
    const plaintext = input.type === 'pk' ? generatePublishableKey() : generateSecretKey();
    // The savepoint keeps a caller's transaction usable when it catches the foreign-key error of an unknown organization.
    const row = await this.db.savepoint(() =>
      this.db.row<ApiKeyRow>(
        `INSERT INTO api_keys (id, organization_id, type, name, scopes, allowed_origins, key_value, key_hash, key_hint, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL) RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          input.organizationId,
          input.type,
          input.name.trim(),
          JSON.stringify(normalizeScopes(input.scopes ?? [])),
          JSON.stringify([...new Set(input.allowedOrigins ?? [])]),
          input.type === 'pk' ? plaintext : null,
          input.type === 'sk' ? hashSecret(plaintext) : null,
          plaintext.slice(-4),
          nowIso(),
        ],
      ),
    );
    if (!row) throw new Error('api key insert returned no row');
    return { apiKey: toApiKey(row), plaintext };
  }

  async get(id: string): Promise<ApiKey | undefined> {
    const row = await this.db.row<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return row ? toApiKey(row) : undefined;
  }

  async findPublishable(value: string, options: Lookup = {}): Promise<ApiKey | undefined> {
    const row = await this.db.row<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_value = $1`, [value]);
    if (row?.type !== 'pk' || (row.revoked_at !== null && !options.includeRevoked)) return undefined;
    return toApiKey(row);
  }

  async findSecret(plaintext: string, options: Lookup = {}): Promise<ApiKey | undefined> {
    return this.findSecretByHash(hashSecret(plaintext), options);
  }

  async findSecretByHash(hash: string, options: Lookup = {}): Promise<ApiKey | undefined> {
    const row = await this.db.row<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [hash]);
    if (row?.type !== 'sk' || (row.revoked_at !== null && !options.includeRevoked)) return undefined;
    return toApiKey(row);
  }

  async list(organizationId: string, options: Lookup = {}): Promise<ApiKey[]> {
    const rows = await this.db.rows<ApiKeyRow>(
      options.includeRevoked
        ? `SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 ORDER BY created_at, seq`
        : `SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 AND revoked_at IS NULL ORDER BY created_at, seq`,
      [organizationId],
    );
    return rows.map(toApiKey);
  }

  async update(id: string, patch: ApiKeyPatch): Promise<ApiKey | undefined> {
    // Read-modify-write: SERIALIZABLE makes a concurrent change of the same key retry on fresh data.
    return this.db.transaction(async () => {
      const current = await this.get(id);
      if (!current) return undefined;
      validateApiKey({ ...patch, type: current.type });
      const next: ApiKey = {
        ...current,
        name: patch.name?.trim() ?? current.name,
        scopes: patch.scopes ? normalizeScopes(patch.scopes) : current.scopes,
        allowedOrigins: patch.allowedOrigins ? [...new Set(patch.allowedOrigins)] : current.allowedOrigins,
      };
      await this.db.query('UPDATE api_keys SET name = $1, scopes = $2, allowed_origins = $3 WHERE id = $4', [
        next.name,
        JSON.stringify(next.scopes),
        JSON.stringify(next.allowedOrigins),
        id,
      ]);
      return next;
    });
  }

  async rename(id: string, name: string): Promise<ApiKey | undefined> {
    return this.update(id, { name });
  }

  async setScopes(id: string, scopes: Scope[]): Promise<ApiKey | undefined> {
    return this.update(id, { scopes });
  }

  async setAllowedOrigins(id: string, allowedOrigins: string[]): Promise<ApiKey | undefined> {
    return this.update(id, { allowedOrigins });
  }

  async revoke(id: string): Promise<ApiKey | undefined> {
    // Keeps the first revocation time (revoking twice is harmless); one statement returns the key as revoked.
    const row = await this.db.row<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 RETURNING ${COLUMNS}`,
      [nowIso(), id],
    );
    return row ? toApiKey(row) : undefined;
  }
}
