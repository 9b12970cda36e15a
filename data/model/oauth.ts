// OAuth for MCP: dynamically registered clients and single-use authorization codes (stored as SHA-256).
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../credentials.js';

export interface OAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  /** Registration metadata as received (RFC 7591). */
  metadata: Record<string, unknown>;
  createdAt: string;
  /** Clients known by URL (a client ID metadata document): when the document was last read; null for registered ones. */
  fetchedAt: string | null;
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

export interface OAuthRefreshGrant {
  /** SHA-256 hex of the authorization code the family started from. */
  familyId: string;
  clientId: string;
  userId: string;
  organizationId: string;
  apiKeyId: string;
  scope: string | null;
  resource: string | null;
}

/** What presenting a refresh token gives: the grant and its successor (issued in the same transaction), or why not. */
export type RefreshRotation =
  | { ok: true; grant: OAuthRefreshGrant; refreshToken: string }
  /** Unknown, expired, revoked, or issued to another client. */
  | { ok: false; reason: 'invalid' }
  /** Already exchanged once: the family has been revoked. */
  | { ok: false; reason: 'reused' };

export interface RefreshRow {
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  organization_id: string;
  api_key_id: string;
  scope: string | null;
  resource: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export const toGrant = (row: RefreshRow): OAuthRefreshGrant => ({
  familyId: row.family_id,
  clientId: row.client_id,
  userId: row.user_id,
  organizationId: row.organization_id,
  apiKeyId: row.api_key_id,
  scope: row.scope,
  resource: row.resource,
});

export const REFRESH_COLUMNS =
  'token_hash, family_id, client_id, user_id, organization_id, api_key_id, scope, resource, created_at, expires_at, used_at, revoked_at';
export const CLIENT_COLUMNS = 'id, name, redirect_uris, token_endpoint_auth_method, secret_hash, metadata, created_at, fetched_at';

export interface ClientRow {
  id: string;
  name: string | null;
  redirect_uris: string;
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  metadata: string;
  created_at: string;
  fetched_at: string | null;
}

export interface CodeRow {
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

export function toClient(row: ClientRow): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    fetchedAt: row.fetched_at,
  };
}

export function toCode(row: CodeRow): OAuthCode {
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

export const CODE_COLUMNS =
  'code_hash, client_id, user_id, organization_id, api_key_id, redirect_uri, code_challenge, code_challenge_method, ' +
  'scope, resource, created_at, expires_at, used_at';

/** A new authorization code (43 base64url characters, returned in clear) and its row, which keeps only its hash. */
export function newCodeRow(input: OAuthCodeCreate, now = Date.now()): { code: string; row: CodeRow } {
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
  return { code, row };
}
