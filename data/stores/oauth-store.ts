// OAuth for MCP: dynamically registered clients and single-use authorization codes (stored as SHA-256).
// SQLite statements only: the record and its row mapping live in ../model/oauth.ts.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { hashSecret } from '../credentials.js';
import { nowIso, type Database } from '../db.js';
import {
  CLIENT_COLUMNS,
  type ClientRow,
  CODE_COLUMNS,
  type CodeRow,
  type OAuthClient,
  type OAuthCode,
  type OAuthCodeCreate,
  type OAuthRefreshGrant,
  REFRESH_COLUMNS,
  type RefreshRotation,
  type RefreshRow,
  toClient,
  toCode,
  toGrant,
  newCodeRow,
} from '../model/oauth.js';

export class OAuthStore {
  readonly #insertClient: Statement<ClientRow>;
  readonly #upsertUrlClient: Statement<ClientRow>;
  readonly #getClient: Statement<[string], ClientRow>;
  readonly #insertCode: Statement<CodeRow>;
  readonly #consume: Statement<[string, string, string], CodeRow>;
  readonly #codeUsed: Statement<[string], { used_at: string | null }>;
  readonly #purge: Statement<[string]>;
  readonly #insertRefresh: Statement<RefreshRow>;
  readonly #rotateRefresh: Statement<[string, string, string, string], RefreshRow>;
  readonly #secretHash: Statement<[string], { secret_hash: string | null }>;
  readonly #markRevoked: Statement<[string, string]>;
  readonly #isRevoked: Statement<[string], { family_id: string }>;
  readonly #issue: (grant: OAuthRefreshGrant, ttlMs: number, now: number) => string | undefined;
  readonly #getRefresh: Statement<[string], RefreshRow>;
  readonly #revokeFamily: Statement<[string, string]>;
  readonly #purgeRefresh: Statement<[string]>;
  readonly #rotate: (hash: string, clientId: string, ttlMs: number, now: number) => RefreshRotation;
  readonly #revoke: (familyId: string, now: string) => void;

  constructor(db: Database) {
    const values = (columns: string) =>
      columns
        .split(', ')
        .map((c) => `@${c}`)
        .join(', ');
    this.#insertClient = db.prepare(`INSERT INTO oauth_clients (${CLIENT_COLUMNS}) VALUES (${values(CLIENT_COLUMNS)})`);
    this.#upsertUrlClient = db.prepare(
      `INSERT INTO oauth_clients (${CLIENT_COLUMNS}) VALUES (${values(CLIENT_COLUMNS)})
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
         metadata = excluded.metadata, fetched_at = excluded.fetched_at`,
    );
    this.#getClient = db.prepare(`SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE id = ?`);
    this.#insertCode = db.prepare(`INSERT INTO oauth_codes (${CODE_COLUMNS}) VALUES (${values(CODE_COLUMNS)})`);
    // Marks the code used and returns it in one statement, so a code can be redeemed at most once.
    this.#consume = db.prepare(
      `UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING ${CODE_COLUMNS}`,
    );
    this.#codeUsed = db.prepare('SELECT used_at FROM oauth_codes WHERE code_hash = ?');
    this.#purge = db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?');
    this.#secretHash = db.prepare('SELECT secret_hash FROM oauth_clients WHERE id = ?');
    this.#markRevoked = db.prepare('INSERT OR IGNORE INTO oauth_revoked_families (family_id, revoked_at) VALUES (?, ?)');
    this.#isRevoked = db.prepare('SELECT family_id FROM oauth_revoked_families WHERE family_id = ?');
    this.#insertRefresh = db.prepare(`INSERT INTO oauth_refresh_tokens (${REFRESH_COLUMNS}) VALUES (${values(REFRESH_COLUMNS)})`);
    this.#rotateRefresh = db.prepare(
      `UPDATE oauth_refresh_tokens SET used_at = ?
       WHERE token_hash = ? AND client_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ? RETURNING ${REFRESH_COLUMNS}`,
    );
    this.#getRefresh = db.prepare(`SELECT ${REFRESH_COLUMNS} FROM oauth_refresh_tokens WHERE token_hash = ?`);
    this.#revokeFamily = db.prepare('UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL');
    this.#purgeRefresh = db.prepare('DELETE FROM oauth_refresh_tokens WHERE expires_at <= ?');
    this.#revoke = db.transaction((familyId: string, now: string) => {
      this.#markRevoked.run(familyId, now);
      this.#revokeFamily.run(now, familyId);
    });
    // A token joins its family only while the family stands (checked in the same transaction as the insert).
    this.#issue = db.transaction((grant: OAuthRefreshGrant, ttlMs: number, now: number): string | undefined => {
      if (this.#isRevoked.get(grant.familyId)) return undefined;
      const token = `mcpr_${randomBytes(32).toString('base64url')}`;
      this.#insertRefresh.run({
        token_hash: hashSecret(token),
        family_id: grant.familyId,
        client_id: grant.clientId,
        user_id: grant.userId,
        organization_id: grant.organizationId,
        api_key_id: grant.apiKeyId,
        scope: grant.scope,
        resource: grant.resource,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + ttlMs).toISOString(),
        used_at: null,
        revoked_at: null,
      });
      return token;
    });
    // One transaction: a token is exchanged at most once, for its successor; a second presentation revokes its family.
    this.#rotate = db.transaction((hash: string, clientId: string, ttlMs: number, now: number): RefreshRotation => {
      const nowText = new Date(now).toISOString();
      const row = this.#rotateRefresh.get(nowText, hash, clientId, nowText);
      if (row) {
        const grant = toGrant(row);
        const refreshToken = this.#issue(grant, ttlMs, now);
        return refreshToken ? { ok: true, grant, refreshToken } : { ok: false, reason: 'invalid' };
      }
      const known = this.#getRefresh.get(hash);
      if (known?.used_at && !known.revoked_at && known.client_id === clientId) {
        this.#revoke(known.family_id, nowText);
        return { ok: false, reason: 'reused' };
      }
      return { ok: false, reason: 'invalid' };
    });
  }

  /**
   * Registers a client: public (`none`, PKCE alone) or, for clients that insist on one, with a secret
   * (`client_secret_post` / `client_secret_basic`, PKCE still required) returned here once and kept as its hash.
   */
  registerClient(input: {
    name?: string | null;
    redirectUris: string[];
    metadata?: Record<string, unknown>;
    tokenEndpointAuthMethod?: 'none' | 'client_secret_post' | 'client_secret_basic';
  }): OAuthClient & { secret?: string } {
    const method = input.tokenEndpointAuthMethod ?? 'none';
    const secret = method === 'none' ? undefined : `mcps_${randomBytes(32).toString('base64url')}`;
    const row: ClientRow = {
      id: randomUUID(),
      name: input.name ?? null,
      redirect_uris: JSON.stringify(input.redirectUris),
      token_endpoint_auth_method: method,
      secret_hash: secret ? hashSecret(secret) : null,
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: nowIso(),
      fetched_at: null,
    };
    this.#insertClient.run(row);
    return secret ? { ...toClient(row), secret } : toClient(row);
  }

  /** Whether `secret` is this client's secret (constant time); false for public clients. */
  checkClientSecret(id: string, secret: string): boolean {
    const stored = this.#secretHash.get(id)?.secret_hash;
    if (!stored) return false;
    const given = Buffer.from(hashSecret(secret));
    const expected = Buffer.from(stored);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Keeps (or refreshes) a client known by the URL of its client ID metadata document. */
  saveUrlClient(input: { id: string; name?: string | null; redirectUris: string[]; metadata: Record<string, unknown> }): OAuthClient {
    const now = nowIso();
    const row: ClientRow = {
      id: input.id,
      name: input.name ?? null,
      redirect_uris: JSON.stringify(input.redirectUris),
      token_endpoint_auth_method: 'none',
      secret_hash: null,
      metadata: JSON.stringify(input.metadata),
      created_at: now,
      fetched_at: now,
    };
    this.#upsertUrlClient.run(row);
    return this.getClient(input.id) as OAuthClient;
  }

  getClient(id: string): OAuthClient | undefined {
    const row = this.#getClient.get(id);
    return row ? toClient(row) : undefined;
  }

  /** Issues an authorization code (43 base64url characters) and returns it in clear; only its hash is kept. */
  createCode(input: OAuthCodeCreate, now = Date.now()): { code: string; record: OAuthCode } {
    const { code, row } = newCodeRow(input, now);
    this.#insertCode.run(row);
    return { code, record: toCode(row) };
  }

  /** Redeems a code once: undefined when unknown, expired or already used. The caller then checks PKCE. */
  consumeCode(code: string, now = Date.now()): OAuthCode | undefined {
    const nowText = new Date(now).toISOString();
    const row = this.#consume.get(nowText, hashSecret(code), nowText);
    return row ? toCode(row) : undefined;
  }

  /** Whether this code was issued and has been redeemed already (a second redemption is an attack signal). */
  codeRedeemed(code: string): boolean {
    return Boolean(this.#codeUsed.get(hashSecret(code))?.used_at);
  }

  /**
   * Deletes expired refresh tokens, and codes expired for longer than `keepMs` (a redeemed code is kept as long as
   * the tokens it gave may live, so that presenting it again still revokes them); returns how many codes.
   */
  purgeExpiredCodes(now = Date.now(), keepMs = 0): number {
    this.#purgeRefresh.run(new Date(now).toISOString());
    return this.#purge.run(new Date(now - keepMs).toISOString()).changes;
  }

  /**
   * Issues a refresh token (`mcpr_` + 43 base64url characters) for a grant; only its hash is kept. Undefined when
   * the family has been revoked meanwhile.
   */
  issueRefreshToken(grant: OAuthRefreshGrant, ttlMs: number, now = Date.now()): string | undefined {
    return this.#issue(grant, ttlMs, now);
  }

  /**
   * Exchanges a refresh token once, for a successor in the same family (rotation), if `clientId` is the client it was
   * issued to; presenting a used one again revokes its family.
   */
  rotateRefreshToken(token: string, clientId: string, ttlMs: number, now = Date.now()): RefreshRotation {
    return this.#rotate(hashSecret(token), clientId, ttlMs, now);
  }

  /** Revokes a family: its refresh tokens, its access tokens (checked against this) and any token still to join it. */
  revokeFamily(familyId: string, now = Date.now()): void {
    this.#revoke(familyId, new Date(now).toISOString());
  }

  familyRevoked(familyId: string): boolean {
    return this.#isRevoked.get(familyId) !== undefined;
  }
}
