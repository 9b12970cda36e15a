// The one access decision every surface calls (spec: Credentials, Authentication; DESIGN §5, §16).
// It resolves the request's credentials, checks them against the operation's declaration (scope, reach,
// whether it writes), and returns who is calling. Resource-level rules (privacy, membership, share
// coverage, products) are the policy's (server/core/policy.ts), from what this returns.

import { hashSecret } from '../../data/credentials.js';
import type { ApiKey, Scope } from '../../data/model/api-key.js';
import type { ApiKeyRepository } from '../../data/repositories.js';
import type { Membership, Role } from '../../data/model/membership.js';
import type { MembershipRepository, OAuthRepository } from '../../data/repositories.js';
import type { Organization } from '../../data/model/organization.js';
import type { OrganizationRepository } from '../../data/repositories.js';
import type { ShareLink } from '../../data/model/share-link.js';
import type { ShareLinkRepository } from '../../data/repositories.js';
import type { User } from '../../data/model/user.js';
import type { UserRepository } from '../../data/repositories.js';
import { requireProducts } from '../core/policy.js';
import { ApiError } from '../errors.js';
import type { Authenticate, IncomingRequest } from '../http/pipeline.js';
import type { RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import { keyRequestOrigin } from './embed-token.js';
import { keyOrigins, originAllowed, requestOrigin } from './origins.js';
import type { QuotaGate, QuotaState } from './quota.js';
import { readCredentials, type RequestCredentials } from './request-credentials.js';
import { oauthUrls, publicOrigin } from '../oauth/oauth-urls.js';
import { type McpAccessClaims, SESSION_TTL_SECONDS, type SessionClaims, type UserClaims } from './session-claims.js';
import type { TokenSigner } from './signed-token.js';
import type { WindowCounter } from './window-counter.js';

/** Who is calling, once the access layer has let the request through. */
export type Access =
  | { kind: 'none' }
  | {
      kind: 'key';
      organization: Organization;
      key: ApiKey;
      /** Present when a valid session token came with the key: private resources of the org become listable. */
      session: SessionClaims | undefined;
      /** The member a write is attributed to (X-User-Id); undefined on reads. */
      actingMember: { userId: string; role: Role } | undefined;
      /**
       * MCP: why tools that write are refused when there is no acting member (no X-User-Id, a malformed one, a
       * non-member, a viewer). The connection still reads: the refusal is said when a writing tool is called.
       */
      writeRefusal?: ApiError;
      /** The organization's standing in its per-minute quota, on metered surfaces (Data API, tiles). */
      quota?: QuotaState;
      /** The origin the request passed the key's origin check as (the framing site's for the embed's own requests). */
      origin?: string;
    }
  | {
      kind: 'user';
      user: User;
      /** The user's organizations and roles, read once per request (the policy's rules are plain functions of them). */
      memberships: ReadonlyMap<string, Role>;
      /** When the user token ends (epoch ms); absent where the member acts through another grant (the agent). */
      expiresAt?: number;
    }
  | { kind: 'share'; link: ShareLink /** Where the sharing organization stands on a metered surface (tiles). */; quota?: QuotaState };

export interface AccessDeps {
  apiKeys: ApiKeyRepository;
  organizations: OrganizationRepository;
  memberships: MembershipRepository;
  users: UserRepository;
  shareLinks: ShareLinkRepository;
  signer: TokenSigner;
  /** Per-client-IP counter of session-minting requests (fails open). */
  sessionIpCounter: WindowCounter;
  sessionIpLimit: number;
  quota: QuotaGate;
  /** Revoked OAuth grants (their access tokens die with them). */
  oauthGrants: Pick<OAuthRepository, 'familyRevoked'>;
  /** PUBLIC_BASE_URL (empty: the request's Host): where a 401 from /mcp points for the OAuth metadata. */
  publicBaseUrl: string;
  logger: Logger;
}

/** A user id: a uuid in its hyphenated form, either case (RFC 9562 reads uuids case-insensitively). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHARE_SURFACES = new Set<string>(['resources', 'tiles', 'embedding']);
const USER_SURFACES = new Set<string>(['resources', 'management']);

/** Scopes a key effectively holds: `embedding` also grants `tiles` and `resources`. */
export function effectiveScopes(scopes: readonly Scope[]): Set<Scope> {
  const set = new Set<Scope>(scopes);
  if (set.has('embedding')) {
    set.add('tiles');
    set.add('resources');
  }
  return set;
}

/** Whether a member's OAuth grant to the MCP server still stands (the token endpoint's rule and every request's). */
export type GrantStanding =
  | {
      ok: true;
      key: ApiKey;
      organization: Organization;
      membership: Membership;
      /** The key still holds `mcp` (a key that lost it is refused with 403, not as a dead grant). */
      holdsMcp: boolean;
    }
  /** `gone`: the key is revoked or elsewhere, or the member left; `inactive`: the organization is. */
  | { ok: false; why: 'gone' | 'inactive' };

export async function mcpGrantStanding(
  stores: { apiKeys: ApiKeyRepository; organizations: OrganizationRepository; memberships: MembershipRepository },
  grant: { userId: string; organizationId: string; keyId: string },
): Promise<GrantStanding> {
  const key = await stores.apiKeys.get(grant.keyId);
  if (!key || key.revokedAt !== null || key.type !== 'pk' || key.organizationId !== grant.organizationId) return { ok: false, why: 'gone' };
  const membership = await stores.memberships.get(grant.organizationId, grant.userId);
  if (!membership) return { ok: false, why: 'gone' };
  const organization = await stores.organizations.get(grant.organizationId);
  if (!organization) return { ok: false, why: 'gone' };
  if (organization.status !== 'active') return { ok: false, why: 'inactive' };
  return { ok: true, key, organization, membership, holdsMcp: effectiveScopes(key.scopes).has('mcp') };
}

/** A 401 or 403 with its own sentence: each refusal says what the caller should do instead. */
const unauthorized = (why?: string, params?: Record<string, string>) =>
  why ? ApiError.withMessage('UNAUTHORIZED', `UNAUTHORIZED.${why}`, params) : new ApiError('UNAUTHORIZED');
const forbidden = (why: string, params?: Record<string, string>) => ApiError.withMessage('FORBIDDEN', `FORBIDDEN.${why}`, params);

const NONE: Access = Object.freeze({ kind: 'none' });

export function createAccessControl(deps: AccessDeps): Authenticate {
  /** Session creation: 60 per minute per client IP, charged on every request, failing open. */
  const chargeSessionIp = async (request: IncomingRequest): Promise<Access> => {
    let count: number;
    try {
      count = await deps.sessionIpCounter.increment(request.remoteAddress);
    } catch (error) {
      deps.logger.error('session IP counter unavailable; failing open', { error: String(error) });
      return NONE;
    }
    if (count > deps.sessionIpLimit) throw new ApiError('TOO_MANY_REQUESTS');
    return NONE;
  };

  const shareAccess = async (route: RouteDef, token: string): Promise<Access> => {
    const link = await deps.shareLinks.findByToken(token);
    if (!link) throw unauthorized(); // malformed, unknown, rotated, disabled: the same opaque 401
    // A valid link asking for more than a read is refused, never silently downgraded.
    if (route.writes || route.signedInOnly) throw forbidden('share_write');
    if (!route.share) throw forbidden('share_surface');
    // Tiles read through a link count against the quota of the organization that shared it (spec, Limits).
    if (route.scope === 'tiles') {
      const organization = await deps.organizations.get(link.organizationId);
      if (!organization) throw unauthorized();
      return { kind: 'share', link, quota: await deps.quota.charge(organization, 'tiles') };
    }
    return { kind: 'share', link };
  };

  // What needs no store is refused by a synchronous throw, not a rejected promise: a WebSocket handshake gets it as its
  // HTTP answer, before the socket opens (server/http/checked-socket.ts).
  const userAccess = (token: string): Promise<Access> => {
    const checked = deps.signer.check<UserClaims>('usr', token);
    if (!checked.ok) throw unauthorized(checked.reason === 'expired' ? 'user_expired' : 'user_invalid');
    return memberAccess(checked.claims);
  };

  const memberAccess = async (claims: UserClaims): Promise<Access> => {
    const user = await deps.users.get(claims.uid);
    if (!user) throw unauthorized('user_invalid');
    const memberships = new Map((await deps.memberships.listByUser(user.id)).map((m) => [m.organizationId, m.role]));
    return { kind: 'user', user, memberships, expiresAt: claims.exp * 1000 };
  };

  /**
   * An MCP access token from the OAuth server: the consenting member, through the key chosen at consent. It dies
   * with that key (revoked, or moved to another organization) and with the membership; a key that lost `mcp` is 403.
   */
  const mcpTokenAccess = async (route: RouteDef, request: IncomingRequest, token: string): Promise<Access> => {
    const checked = deps.signer.check<McpAccessClaims>('mcp', token);
    if (!checked.ok) throw unauthorized(checked.reason === 'expired' ? 'mcp_token_expired' : 'mcp_token_invalid');
    const claims = checked.claims;
    // Issued for this deployment's MCP endpoint (RFC 8707), not another one sharing the signing secret.
    if (claims.aud !== oauthUrls(publicOrigin(deps.publicBaseUrl, request.headers.host)).resource) throw unauthorized('mcp_token_invalid');
    const standing = await mcpGrantStanding(deps, { userId: claims.uid, organizationId: claims.org, keyId: claims.kid });
    if (!standing.ok) throw standing.why === 'inactive' ? forbidden('inactive_organization') : unauthorized('mcp_token_revoked');
    const { key, organization, membership } = standing;
    if (!originAllowed(keyOrigins(key, organization), requestOrigin(request.headers))) throw forbidden('origin');
    if (!standing.holdsMcp) throw forbidden('scope', { scope: route.scope });
    requireProducts(organization, route.scope, route.writes);
    // A code or refresh token of this grant was presented twice: everything issued from it is void.
    if (await deps.oauthGrants.familyRevoked(claims.fid)) throw unauthorized('mcp_grant_revoked');
    // The consent stands in for a session (bound to the chosen key); `sid` names the OAuth client that holds it.
    const session: SessionClaims = { kid: key.id, sid: claims.cid, org: organization.id, iat: claims.iat, exp: claims.exp };
    if (membership.role === 'viewer') {
      return { kind: 'key', organization, key, session, actingMember: undefined, writeRefusal: forbidden('mcp_consent_viewer') };
    }
    return { kind: 'key', organization, key, session, actingMember: { userId: membership.userId, role: membership.role } };
  };

  /**
   * The MCP endpoint: an OAuth access token, or the key pair. A 401 tells an OAuth client where to start and which
   * scope to ask for (RFC 9728 §5.1, RFC 6750 §3); a key without `mcp` is a 403 `insufficient_scope` (RFC 6750 §3.1).
   */
  const mcpAccess = async (route: RouteDef, request: IncomingRequest, creds: RequestCredentials): Promise<Access> => {
    try {
      if (creds.bearer !== undefined && creds.apiKey === undefined) return await mcpTokenAccess(route, request, creds.bearer);
      return await keyAccess(route, request, creds);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const metadata = oauthUrls(publicOrigin(deps.publicBaseUrl, request.headers.host)).resourceMetadata;
      if (error.code === 'FORBIDDEN' && error.entries[0]?.messageKey === 'FORBIDDEN.scope') {
        throw error.withHeaders([['WWW-Authenticate', `Bearer error="insufficient_scope", scope="mcp", resource_metadata="${metadata}"`]]);
      }
      if (error.code !== 'UNAUTHORIZED') throw error;
      const invalid = creds.bearer !== undefined ? ', error="invalid_token"' : '';
      throw error.withHeaders([['WWW-Authenticate', `Bearer resource_metadata="${metadata}", scope="mcp"${invalid}`]]);
    }
  };

  /**
   * MCP with the key pair: tools that write act as the member named in X-User-Id (any case: uuids are read
   * case-insensitively). Without one that may write, the connection still reads and says why when a write is tried.
   */
  const mcpActingMember = async (
    organization: Organization,
    userId: string | undefined,
  ): Promise<{ actingMember: { userId: string; role: Role } | undefined; writeRefusal?: ApiError }> => {
    if (userId === undefined) return { actingMember: undefined, writeRefusal: forbidden('mcp_no_member') };
    if (!UUID.test(userId))
      return { actingMember: undefined, writeRefusal: ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.mcp_user_id') };
    const membership = await deps.memberships.get(organization.id, userId.toLowerCase());
    if (!membership) return { actingMember: undefined, writeRefusal: forbidden('mcp_not_member') };
    if (membership.role === 'viewer') return { actingMember: undefined, writeRefusal: forbidden('mcp_viewer') };
    return { actingMember: { userId: membership.userId, role: membership.role } };
  };

  /** A publishable key (with or without a session token), and the acting member of a write. */
  const keyAccess = (route: RouteDef, request: IncomingRequest, creds: RequestCredentials): Promise<Access> => {
    if (!creds.apiKey) throw unauthorized(creds.sessionToken !== undefined ? 'session_without_key' : 'missing_key');
    return storedKeyAccess(route, request, creds, creds.apiKey);
  };

  const storedKeyAccess = async (route: RouteDef, request: IncomingRequest, creds: RequestCredentials, apiKey: string): Promise<Access> => {
    const key = await deps.apiKeys.findPublishable(apiKey);
    if (!key) throw unauthorized('unknown_key'); // unknown, revoked, or a secret key in the wrong header
    const organization = await deps.organizations.get(key.organizationId);
    if (!organization) throw unauthorized('unknown_key');
    if (organization.status !== 'active') throw forbidden('inactive_organization');
    if (route.signedInOnly) throw forbidden('signed_in_only'); // keys cannot mint, rotate or disable share links
    const origin = keyRequestOrigin(deps.signer, request, key, creds.embedToken);
    if (!originAllowed(keyOrigins(key, organization), origin)) throw forbidden('origin');
    if (!effectiveScopes(key.scopes).has(route.scope as Scope)) throw forbidden('scope', { scope: route.scope });

    let session: SessionClaims | undefined;
    if (creds.sessionToken !== undefined) {
      const checked = deps.signer.check<SessionClaims>('sess', creds.sessionToken);
      if (!checked.ok) throw unauthorized(checked.reason === 'expired' ? 'session_expired' : 'session_invalid');
      session = checked.claims;
      if (session.kid !== key.id || session.org !== organization.id) throw unauthorized('session_other_key');
      const minter = await deps.apiKeys.get(session.sid);
      if (!minter || minter.revokedAt !== null) throw unauthorized('session_revoked');
    }
    // MCP with the header pair: the secret key of the same organization stands in for a session (the server brokers
    // one for the connector, bound to this key pair).
    if (route.scope === 'mcp' && !session) {
      // By its hash, as session minting looks it up: the lookup the committed-read cache answers from memory.
      const secret = creds.secretKey ? await deps.apiKeys.findSecretByHash(hashSecret(creds.secretKey)) : undefined;
      if (!secret || secret.organizationId !== organization.id) throw unauthorized('mcp_key_pair');
      const iat = Math.floor(Date.now() / 1000);
      session = { kid: key.id, sid: secret.id, org: organization.id, iat, exp: iat + SESSION_TTL_SECONDS };
    }
    const sessionRequired =
      route.scope === 'data' ||
      route.scope === 'management' ||
      (route.scope === 'embedding' && (organization.requireSessionToken || organization.products.includes('intelligence')));
    if (sessionRequired && !session) throw unauthorized('session_required');

    const write = route.writes;
    requireProducts(organization, route.scope, write);

    let actingMember: { userId: string; role: Role } | undefined;
    if (write && route.scope === 'resources') {
      const userId = creds.userId;
      if (!userId || !UUID.test(userId)) throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.user_id');
      const membership = await deps.memberships.get(organization.id, userId.toLowerCase());
      if (!membership) throw forbidden('not_member');
      if (membership.role === 'viewer') throw forbidden('viewer');
      actingMember = { userId: membership.userId, role: membership.role };
    }
    if (route.scope === 'mcp') return { kind: 'key', organization, key, session, ...(await mcpActingMember(organization, creds.userId)) };

    if (route.scope === 'data' || route.scope === 'tiles') {
      const quota = await deps.quota.charge(organization, route.scope);
      return { kind: 'key', organization, key, session, actingMember, quota, origin };
    }
    return { kind: 'key', organization, key, session, actingMember, origin };
  };

  // Public documents answer without a credential and without waiting; every other surface reads its stores.
  return (route, request, query) => {
    if (route.scope === 'public') return NONE;
    if (route.scope === 'any') return chargeSessionIp(request);
    const creds = readCredentials(request, query, {
      shareTokenInQuery: SHARE_SURFACES.has(route.scope),
      userTokenInQuery: route.userTokenInQuery,
    });
    // Signed-in users need no key on the Studio API, management and the studio's own surfaces; elsewhere their
    // token is not a credential.
    if (creds.bearer?.startsWith('usr_') && (USER_SURFACES.has(route.scope) || route.users)) return userAccess(creds.bearer);
    if (creds.shareToken !== undefined && SHARE_SURFACES.has(route.scope)) return shareAccess(route, creds.shareToken);
    if (route.scope === 'mcp') return mcpAccess(route, request, creds);
    return keyAccess(route, request, creds);
  };
}
