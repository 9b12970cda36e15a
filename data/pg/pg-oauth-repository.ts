// OAuth clients, authorization codes and refresh tokens on PostgreSQL (the SQLite twin: data/stores/oauth-store.ts).
// Codes and refresh tokens are spent by one conditional UPDATE … RETURNING each, so two nodes presenting the same one
// at once cannot both spend it.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../credentials.js';
import { nowIso } from '../db.js';
import type { OAuthRepository } from '../repositories.js';
import {
  CLIENT_COLUMNS,
  CODE_COLUMNS,
  type CodeRow,
  type OAuthClient,
  type OAuthCode,
  type OAuthCodeCreate,
  type OAuthRefreshGrant,
  REFRESH_COLUMNS,
  type RefreshRotation,
  type RefreshRow,
  toCode,
  toGrant,
  newCodeRow,
} from '../model/oauth.js';
import type { PgDatabase } from './pg-database.js';

/** A client row as node-postgres returns it: json already parsed, timestamps as ISO strings. */
interface ClientRow {
  id: string;
  name: string | null;
  redirect_uris: string[];
  token_endpoint_auth_method: string;
  secret_hash: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  fetched_at: string | null;
}

function toClient(row: ClientRow): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    redirectUris: row.redirect_uris,
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    metadata: row.metadata,
    createdAt: row.created_at,
    fetchedAt: row.fetched_at,
  };
}

const placeholders = (columns: string) =>
  columns
    .split(', ')
    .map((_, i) => `$${i + 1}`)
    .join(', ');

const INSERT_CLIENT = `INSERT INTO oauth_clients (${CLIENT_COLUMNS}) VALUES (${placeholders(CLIENT_COLUMNS)}) RETURNING ${CLIENT_COLUMNS}`;
const INSERT_CODE = `INSERT INTO oauth_codes (${CODE_COLUMNS}) VALUES (${placeholders(CODE_COLUMNS)})`;
const INSERT_REFRESH = `INSERT INTO oauth_refresh_tokens (${REFRESH_COLUMNS}) VALUES (${placeholders(REFRESH_COLUMNS)})`;

const iso = (epochMs: number) => new Date(epochMs).toISOString();

export class PgOAuthRepository implements OAuthRepository {
  constructor(private readonly db: PgDatabase) {}

  async registerClient(input: {
    name?: string | null;
    redirectUris: string[];
    metadata?: Record<string, unknown>;
    tokenEndpointAuthMethod?: 'none' | 'client_secret_post' | 'client_secret_basic';
  }): Promise<OAuthClient & { secret?: string }> {
    const method = input.tokenEndpointAuthMethod ?? 'none';
    const secret = method === 'none' ? undefined : `mcps_${randomBytes(32).toString('base64url')}`;
    const row = await this.db.row<ClientRow>(INSERT_CLIENT, [
      randomUUID(),
      input.name ?? null,
      JSON.stringify(input.redirectUris),
      method,
      secret ? hashSecret(secret) : null,
      JSON.stringify(input.metadata ?? {}),
      nowIso(),
      null,
    ]);
    if (!row) throw new Error('oauth client insert returned no row');
    return secret ? { ...toClient(row), secret } : toClient(row);
  }

  async saveUrlClient(input: {
    id: string;
    name?: string | null;
    redirectUris: string[];
    metadata: Record<string, unknown>;
  }): Promise<OAuthClient> {
    const now = nowIso();
    // An upsert (ON CONFLICT) returning the row as kept: two nodes refreshing the same client both succeed.
    const row = await this.db.row<ClientRow>(
      `INSERT INTO oauth_clients (${CLIENT_COLUMNS}) VALUES (${placeholders(CLIENT_COLUMNS)})
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
         metadata = excluded.metadata, fetched_at = excluded.fetched_at
       RETURNING ${CLIENT_COLUMNS}`,
      [input.id, input.name ?? null, JSON.stringify(input.redirectUris), 'none', null, JSON.stringify(input.metadata), now, now],
    );
    if (!row) throw new Error('oauth client upsert returned no row');
    return toClient(row);
  }

  async getClient(id: string): Promise<OAuthClient | undefined> {
    const row = await this.db.row<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE id = $1`, [id]);
    return row ? toClient(row) : undefined;
  }

  async checkClientSecret(id: string, secret: string): Promise<boolean> {
    const stored = (await this.db.row<{ secret_hash: string | null }>('SELECT secret_hash FROM oauth_clients WHERE id = $1', [id]))
      ?.secret_hash;
    if (!stored) return false;
    const given = Buffer.from(hashSecret(secret));
    const expected = Buffer.from(stored);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async createCode(input: OAuthCodeCreate, now = Date.now()): Promise<{ code: string; record: OAuthCode }> {
    const { code, row } = newCodeRow(input, now);
    await this.db.query(INSERT_CODE, [
      row.code_hash,
      row.client_id,
      row.user_id,
      row.organization_id,
      row.api_key_id,
      row.redirect_uri,
      row.code_challenge,
      row.code_challenge_method,
      row.scope,
      row.resource,
      row.created_at,
      row.expires_at,
      row.used_at,
    ]);
    return { code, record: toCode(row) };
  }

  async consumeCode(code: string, now = Date.now()): Promise<OAuthCode | undefined> {
    const nowText = iso(now);
    // Marks the code used and returns it in one statement: of two nodes redeeming it at once, one gets no row.
    const row = await this.db.row<CodeRow>(
      `UPDATE oauth_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL AND expires_at > $3 RETURNING ${CODE_COLUMNS}`,
      [nowText, hashSecret(code), nowText],
    );
    return row ? toCode(row) : undefined;
  }

  async codeRedeemed(code: string): Promise<boolean> {
    const row = await this.db.row<{ used_at: string | null }>('SELECT used_at FROM oauth_codes WHERE code_hash = $1', [hashSecret(code)]);
    return Boolean(row?.used_at);
  }

  async purgeExpiredCodes(now = Date.now(), keepMs = 0): Promise<number> {
    await this.db.query('DELETE FROM oauth_refresh_tokens WHERE expires_at <= $1', [iso(now)]);
    return this.db.changes('DELETE FROM oauth_codes WHERE expires_at <= $1', [iso(now - keepMs)]);
  }

  async issueRefreshToken(grant: OAuthRefreshGrant, ttlMs: number, now = Date.now()): Promise<string | undefined> {
    return this.db.transaction(() => this.#issue(grant, ttlMs, now));
  }

  async rotateRefreshToken(token: string, clientId: string, ttlMs: number, now = Date.now()): Promise<RefreshRotation> {
    const hash = hashSecret(token);
    // One SERIALIZABLE transaction: the token is spent by a conditional UPDATE … RETURNING (a second node presenting
    // it at once waits, is refused, retries and finds it used: 'reused'), and its successor joins the family only
    // while no concurrent revocation has committed.
    return this.db.transaction(async (): Promise<RefreshRotation> => {
      const nowText = iso(now);
      const row = await this.db.row<RefreshRow>(
        `UPDATE oauth_refresh_tokens SET used_at = $1
         WHERE token_hash = $2 AND client_id = $3 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $4
         RETURNING ${REFRESH_COLUMNS}`,
        [nowText, hash, clientId, nowText],
      );
      if (row) {
        const grant = toGrant(row);
        const refreshToken = await this.#issue(grant, ttlMs, now);
        return refreshToken ? { ok: true, grant, refreshToken } : { ok: false, reason: 'invalid' };
      }
      const known = await this.db.row<RefreshRow>(`SELECT ${REFRESH_COLUMNS} FROM oauth_refresh_tokens WHERE token_hash = $1`, [hash]);
      if (known?.used_at && !known.revoked_at && known.client_id === clientId) {
        await this.#revoke(known.family_id, nowText);
        return { ok: false, reason: 'reused' };
      }
      return { ok: false, reason: 'invalid' };
    });
  }

  async revokeFamily(familyId: string, now = Date.now()): Promise<void> {
    await this.db.transaction(() => this.#revoke(familyId, iso(now)));
  }

  async familyRevoked(familyId: string): Promise<boolean> {
    return (await this.db.row('SELECT family_id FROM oauth_revoked_families WHERE family_id = $1', [familyId])) !== undefined;
  }

  /**
   * Inside a transaction: a token joins its family only while the family stands (SERIALIZABLE: a revocation
   * committing meanwhile makes one of the two transactions fail and retry).
   */
  async #issue(grant: OAuthRefreshGrant, ttlMs: number, now: number): Promise<string | undefined> {
    if (await this.familyRevoked(grant.familyId)) return undefined;
    const token = `mcpr_${randomBytes(32).toString('base64url')}`;
    await this.db.query(INSERT_REFRESH, [
      hashSecret(token),
      grant.familyId,
      grant.clientId,
      grant.userId,
      grant.organizationId,
      grant.apiKeyId,
      grant.scope,
      grant.resource,
      iso(now),
      iso(now + ttlMs),
      null,
      null,
    ]);
    return token;
  }

  /** Inside a transaction: marks the family revoked (once) and revokes its refresh tokens. */
  async #revoke(familyId: string, now: string): Promise<void> {
    await this.db.query('INSERT INTO oauth_revoked_families (family_id, revoked_at) VALUES ($1, $2) ON CONFLICT (family_id) DO NOTHING', [
      familyId,
      now,
    ]);
    await this.db.query('UPDATE oauth_refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL', [now, familyId]);
  }
}
