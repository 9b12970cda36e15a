// API keys: publishable (pk_, stored as is) and secret (sk_, stored as SHA-256), scopes, origins, revocation.
// SQLite statements only: the record and its row mapping live in ../model/api-key.ts.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { generatePublishableKey, generateSecretKey, hashSecret } from '../credentials.js';
import { nowIso, type Database } from '../db.js';
import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyPatch,
  type ApiKeyRow,
  type CreatedApiKey,
  normalizeScopes,
  type Scope,
  toApiKey,
  validate,
} from '../model/api-key.js';

export class ApiKeyStore {
  readonly #db: Database;
  readonly #insert: Statement<ApiKeyRow>;
  readonly #get: Statement<[string], ApiKeyRow>;
  readonly #byValue: Statement<[string], ApiKeyRow>;
  readonly #byHash: Statement<[string], ApiKeyRow>;
  readonly #listActive: Statement<[string], ApiKeyRow>;
  readonly #listAll: Statement<[string], ApiKeyRow>;
  readonly #update: Statement<[string, string, string, string]>;
  readonly #revoke: Statement<[string, string]>;

  constructor(db: Database) {
    this.#db = db;
    const columns = 'id, organization_id, type, name, scopes, allowed_origins, key_value, key_hash, key_hint, created_at, revoked_at';
    this.#insert = db.prepare(
      `INSERT INTO api_keys (${columns}) VALUES (@id, @organization_id, @type, @name, @scopes, @allowed_origins,
        @key_value, @key_hash, @key_hint, @created_at, @revoked_at)`,
    );
    this.#get = db.prepare(`SELECT ${columns} FROM api_keys WHERE id = ?`);
    this.#byValue = db.prepare(`SELECT ${columns} FROM api_keys WHERE key_value = ?`);
    this.#byHash = db.prepare(`SELECT ${columns} FROM api_keys WHERE key_hash = ?`);
    this.#listActive = db.prepare(
      `SELECT ${columns} FROM api_keys WHERE organization_id = ? AND revoked_at IS NULL ORDER BY created_at, rowid`,
    );
    this.#listAll = db.prepare(`SELECT ${columns} FROM api_keys WHERE organization_id = ? ORDER BY created_at, rowid`);
    this.#update = db.prepare('UPDATE api_keys SET name = ?, scopes = ?, allowed_origins = ? WHERE id = ?');
    // Keeps the first revocation time: revoking twice is harmless.
    this.#revoke = db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?');
  }

  /**
   * Creates a key and returns it with its plaintext. Secret keys are stored as SHA-256 only, so the plaintext
   * returned here cannot be recovered later. Unknown organization: SQLite FOREIGNKEY constraint error.
   */
  create(input: ApiKeyCreate): CreatedApiKey {
    validate(input);
    const plaintext = input.type === 'pk' ? generatePublishableKey() : generateSecretKey();
    const row: ApiKeyRow = {
      id: randomUUID(),
      organization_id: input.organizationId,
      type: input.type,
      name: input.name.trim(),
      scopes: JSON.stringify(normalizeScopes(input.scopes ?? [])),
      allowed_origins: JSON.stringify([...new Set(input.allowedOrigins ?? [])]),
      key_value: input.type === 'pk' ? plaintext : null,
      key_hash: input.type === 'sk' ? hashSecret(plaintext) : null,
      key_hint: plaintext.slice(-4),
      created_at: nowIso(),
      revoked_at: null,
    };
    this.#insert.run(row);
    return { apiKey: toApiKey(row), plaintext };
  }

  get(id: string): ApiKey | undefined {
    const row = this.#get.get(id);
    return row ? toApiKey(row) : undefined;
  }

  /** Finds a publishable key by its value. Revoked keys are returned only with includeRevoked. */
  findPublishable(value: string, options: { includeRevoked?: boolean } = {}): ApiKey | undefined {
    const row = this.#byValue.get(value);
    if (row?.type !== 'pk' || (row.revoked_at !== null && !options.includeRevoked)) return undefined;
    return toApiKey(row);
  }

  /** Finds a secret key by its plaintext (hashed here). Revoked keys are returned only with includeRevoked. */
  findSecret(plaintext: string, options: { includeRevoked?: boolean } = {}): ApiKey | undefined {
    return this.findSecretByHash(hashSecret(plaintext), options);
  }

  /** Finds a secret key by the SHA-256 hex of its plaintext. */
  findSecretByHash(hash: string, options: { includeRevoked?: boolean } = {}): ApiKey | undefined {
    const row = this.#byHash.get(hash);
    if (row?.type !== 'sk' || (row.revoked_at !== null && !options.includeRevoked)) return undefined;
    return toApiKey(row);
  }

  /** The organization's keys, oldest first; revoked ones only with includeRevoked. */
  list(organizationId: string, options: { includeRevoked?: boolean } = {}): ApiKey[] {
    return (options.includeRevoked ? this.#listAll : this.#listActive).all(organizationId).map(toApiKey);
  }

  /** Changes name, scopes and/or allowed origins. Undefined when the key does not exist. */
  update(id: string, patch: ApiKeyPatch): ApiKey | undefined {
    return this.#db
      .transaction(() => {
        const current = this.get(id);
        if (!current) return undefined;
        validate({ ...patch, type: current.type });
        const next: ApiKey = {
          ...current,
          name: patch.name?.trim() ?? current.name,
          scopes: patch.scopes ? normalizeScopes(patch.scopes) : current.scopes,
          allowedOrigins: patch.allowedOrigins ? [...new Set(patch.allowedOrigins)] : current.allowedOrigins,
        };
        this.#update.run(next.name, JSON.stringify(next.scopes), JSON.stringify(next.allowedOrigins), id);
        return next;
      })
      .immediate();
  }

  rename(id: string, name: string): ApiKey | undefined {
    return this.update(id, { name });
  }

  setScopes(id: string, scopes: Scope[]): ApiKey | undefined {
    return this.update(id, { scopes });
  }

  setAllowedOrigins(id: string, allowedOrigins: string[]): ApiKey | undefined {
    return this.update(id, { allowedOrigins });
  }

  /** Revokes the key at once (idempotent: a second call keeps the first time). Undefined when unknown. */
  revoke(id: string): ApiKey | undefined {
    this.#revoke.run(nowIso(), id);
    return this.get(id);
  }
}
