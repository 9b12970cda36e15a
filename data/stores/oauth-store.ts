// OAuth for MCP: dynamically registered clients and single-use authorization codes (stored as SHA-256).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { hashSecret } from '../credentials.js';
import { nowIso, type Database } from '../db.js';

export interface OAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  /** Registration metadata as received (RFC 7591). */
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface OAuthCode {
  clientId: string;
  userId: string;
  organizationId: string;
  /** The publishable key chosen on the consent screen. */
  apiKeyId: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256';
  scope: string | null;
  resource: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface OAuthCodeCreate {
  clientId: string;
  userId: string;
  organizationId: string;
  apiKeyId: string;
  redirectUri: string;
  codeChallenge: string;
  scope?: string | null;
  resource?: string | null;
  /** Lifetime in ms (default 60 s). */
  ttlMs?: number;
}

interface ClientRow {
  id: string;
  name: string | null;
  redirect_uris: string;
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  metadata: string;
  created_at: string;
}

interface CodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  organization_id: string;
  api_key_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: 'S256';
  scope: string | null;
  resource: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

function toClient(row: ClientRow): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

function toCode(row: CodeRow): OAuthCode {
  return {
    clientId: row.client_id,
    userId: row.user_id,
    organizationId: row.organization_id,
    apiKeyId: row.api_key_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method,
    scope: row.scope,
    resource: row.resource,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

const CODE_COLUMNS =
  'code_hash, client_id, user_id, organization_id, api_key_id, redirect_uri, code_challenge, code_challenge_method, ' +
  'scope, resource, created_at, expires_at, used_at';

export class OAuthStore {
  readonly #insertClient: Statement<ClientRow>;
  readonly #getClient: Statement<[string], ClientRow>;
  readonly #insertCode: Statement<CodeRow>;
  readonly #consume: Statement<[string, string, string], CodeRow>;
  readonly #purge: Statement<[string]>;

  constructor(db: Database) {
    this.#insertClient = db.prepare(
      `INSERT INTO oauth_clients (id, name, redirect_uris, token_endpoint_auth_method, secret_hash, metadata, created_at)
       VALUES (@id, @name, @redirect_uris, @token_endpoint_auth_method, @secret_hash, @metadata, @created_at)`,
    );
    this.#getClient = db.prepare(
      'SELECT id, name, redirect_uris, token_endpoint_auth_method, secret_hash, metadata, created_at FROM oauth_clients WHERE id = ?',
    );
    this.#insertCode = db.prepare(
      `INSERT INTO oauth_codes (${CODE_COLUMNS}) VALUES (${CODE_COLUMNS.split(', ')
        .map((c) => `@${c}`)
        .join(', ')})`,
    );
    // Marks the code used and returns it in one statement, so a code can be redeemed at most once.
    this.#consume = db.prepare(
      `UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING ${CODE_COLUMNS}`,
    );
    this.#purge = db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?');
  }

  /** Registers a public client (PKCE, no secret). */
  registerClient(input: { name?: string | null; redirectUris: string[]; metadata?: Record<string, unknown> }): OAuthClient {
    const row: ClientRow = {
      id: randomUUID(),
      name: input.name ?? null,
      redirect_uris: JSON.stringify(input.redirectUris),
      token_endpoint_auth_method: 'none',
      secret_hash: null,
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: nowIso(),
    };
    this.#insertClient.run(row);
    return toClient(row);
  }

  getClient(id: string): OAuthClient | undefined {
    const row = this.#getClient.get(id);
    return row ? toClient(row) : undefined;
  }

  /** Issues an authorization code (43 base64url characters) and returns it in clear; only its hash is kept. */
  createCode(input: OAuthCodeCreate, now = Date.now()): { code: string; record: OAuthCode } {
    const code = randomBytes(32).toString('base64url');
    const row: CodeRow = {
      code_hash: hashSecret(code),
      client_id: input.clientId,
      user_id: input.userId,
      organization_id: input.organizationId,
      api_key_id: input.apiKeyId,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
      scope: input.scope ?? null,
      resource: input.resource ?? null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + (input.ttlMs ?? 60_000)).toISOString(),
      used_at: null,
    };
    this.#insertCode.run(row);
    return { code, record: toCode(row) };
  }

  /** Redeems a code once: undefined when unknown, expired or already used. The caller then checks PKCE. */
  consumeCode(code: string, now = Date.now()): OAuthCode | undefined {
    const nowText = new Date(now).toISOString();
    const row = this.#consume.get(nowText, hashSecret(code), nowText);
    return row ? toCode(row) : undefined;
  }

  /** Deletes expired codes; returns how many. */
  purgeExpiredCodes(now = Date.now()): number {
    return this.#purge.run(new Date(now).toISOString()).changes;
  }
}
