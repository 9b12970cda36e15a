// The token endpoint: an authorization code (with its PKCE verifier) or a refresh token exchanged for an access
// token (`mcp_…`, audience /mcp, an hour: signed, not stored) and a new refresh token; refresh tokens rotate on every
// use, and a code or refresh token presented twice revokes its whole family.

import { createHash, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../data/credentials.js';
import { MCP_ACCESS_TTL_SECONDS, type McpAccessClaims } from '../auth/session-claims.js';
import type { Reply, RequestContext } from '../http/route.js';
import { type OAuthContext, REFRESH_TTL_MS, urlsOf } from './oauth-context.js';
import { formParams, NO_STORE, OAuthProblem } from './oauth-problem.js';
import { MCP_SCOPE as SCOPE } from './oauth-urls.js';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** PKCE S256 (RFC 7636 §4.6), compared in constant time. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** `Basic base64(client_id:client_secret)`, each form-urlencoded (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic +([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}

export function tokenHandler(context: OAuthContext) {
  const { deps, now, write, grantStands } = context;

  /** The token answer: a new access token for the grant, beside the refresh token already issued in its family. */
  function tokenAnswer(
    grant: { familyId: string; clientId: string; userId: string; organizationId: string; apiKeyId: string },
    resource: string,
    refresh: string,
  ): Reply {
    const iat = Math.floor(now() / 1000);
    const claims: McpAccessClaims = {
      uid: grant.userId,
      org: grant.organizationId,
      kid: grant.apiKeyId,
      cid: grant.clientId,
      fid: grant.familyId,
      aud: resource,
      iat,
      exp: iat + MCP_ACCESS_TTL_SECONDS,
    };
    return {
      status: 200,
      headers: NO_STORE,
      json: {
        access_token: deps.signer.sign('mcp', claims),
        token_type: 'Bearer',
        expires_in: MCP_ACCESS_TTL_SECONDS,
        refresh_token: refresh,
        scope: SCOPE,
      },
    };
  }

  /**
   * The client of a token request, authenticated as it registered: a public client names itself and proves nothing
   * here (PKCE and the refresh token's binding do); a client with a secret sends it, in the form or as Basic.
   */
  async function tokenClient(ctx: RequestContext, form: Map<string, string>): Promise<string> {
    const basic = ctx.headers.authorization !== undefined ? basicCredentials(ctx.headers.authorization) : undefined;
    if (ctx.headers.authorization !== undefined && !basic) {
      throw new OAuthProblem(
        'invalid_client',
        'Send client credentials as Authorization: Basic, or client_id (and client_secret) in the form.',
      );
    }
    if (basic && form.has('client_secret'))
      throw new OAuthProblem('invalid_request', 'Send the client secret one way, not both.', 'client_secret');
    const clientId = basic?.id ?? form.get('client_id');
    if (!clientId) throw new OAuthProblem('invalid_request', 'Send client_id.', 'client_id');
    if (basic && form.has('client_id') && form.get('client_id') !== basic.id) {
      throw new OAuthProblem('invalid_client', 'client_id differs from the client named in Authorization.', 'client_id');
    }
    const secret = basic?.secret ?? form.get('client_secret');
    const client = await deps.oauth.getClient(clientId);
    if (!client)
      throw new OAuthProblem('invalid_client', 'This client_id is unknown: register at POST /oauth/register first.', 'client_id');
    if (client.tokenEndpointAuthMethod === 'none') {
      if (secret !== undefined) throw new OAuthProblem('invalid_client', 'This client registered as public: send no client secret.');
    } else if (secret === undefined || !(await deps.oauth.checkClientSecret(clientId, secret))) {
      throw new OAuthProblem('invalid_client', 'This client must send the client_secret it received at registration.');
    }
    return clientId;
  }

  async function token(ctx: RequestContext): Promise<Reply> {
    const urls = urlsOf(deps, ctx);
    const form = formParams(ctx.body);
    const required = (name: string) => {
      const value = form.get(name);
      if (!value) throw new OAuthProblem('invalid_request', `Send ${name}.`, name);
      return value;
    };
    const resource = form.get('resource');
    if (resource !== undefined && resource !== urls.resource) {
      throw new OAuthProblem('invalid_target', `The only resource is ${urls.resource}.`, 'resource');
    }
    const grantType = required('grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new OAuthProblem('unsupported_grant_type', 'Use grant_type authorization_code or refresh_token.', 'grant_type');
    }
    const clientId = await tokenClient(ctx, form);
    const keyGone = 'The key chosen at consent is revoked or no longer holds mcp, or the member left: connect again.';

    if (grantType === 'authorization_code') {
      const code = required('code');
      const redirectUri = required('redirect_uri');
      const verifier = required('code_verifier');
      if (!VERIFIER.test(verifier)) {
        throw new OAuthProblem('invalid_request', 'Use a code_verifier of 43 to 128 characters from A-Z a-z 0-9 - . _ ~.', 'code_verifier');
      }
      const familyId = hashSecret(code); // the family's tokens die if this code is presented again
      const record = await write(() => deps.oauth.consumeCode(code, now()));
      if (!record) {
        // A code presented twice: whatever was issued from it is revoked (OAuth 2.1 §4.1.3).
        if (await deps.oauth.codeRedeemed(code)) {
          await write(() => deps.oauth.revokeFamily(familyId, now()));
          throw new OAuthProblem(
            'invalid_grant',
            'This authorization code was already used; the tokens issued from it are revoked. Start a new authorization.',
            'code',
          );
        }
        throw new OAuthProblem(
          'invalid_grant',
          'This authorization code is unknown or expired (codes live 60 seconds): start a new authorization.',
          'code',
        );
      }
      if (record.clientId !== clientId) throw new OAuthProblem('invalid_grant', 'This code was issued to another client.', 'client_id');
      if (record.redirectUri !== redirectUri) {
        throw new OAuthProblem('invalid_grant', 'Send the same redirect_uri as in the authorization request.', 'redirect_uri');
      }
      if (!pkceMatches(verifier, record.codeChallenge)) {
        throw new OAuthProblem(
          'invalid_grant',
          'The code_verifier does not match the code_challenge of the authorization request.',
          'code_verifier',
        );
      }
      if (!(await grantStands(record.userId, record.organizationId, record.apiKeyId))) throw new OAuthProblem('invalid_grant', keyGone);
      const grant = {
        familyId,
        clientId,
        userId: record.userId,
        organizationId: record.organizationId,
        apiKeyId: record.apiKeyId,
        scope: SCOPE,
        resource: record.resource,
      };
      const refresh = await write(() => deps.oauth.issueRefreshToken(grant, REFRESH_TTL_MS, now()));
      if (!refresh)
        throw new OAuthProblem('invalid_grant', 'This authorization was revoked while it was being redeemed: start a new one.', 'code');
      return tokenAnswer(grant, urls.resource, refresh);
    }

    const rotation = await write(() => deps.oauth.rotateRefreshToken(required('refresh_token'), clientId, REFRESH_TTL_MS, now()));
    if (!rotation.ok) {
      throw new OAuthProblem(
        'invalid_grant',
        rotation.reason === 'reused'
          ? 'This refresh token was already exchanged; its whole family is now revoked. Connect again.'
          : 'This refresh token is unknown, expired, revoked or issued to another client: connect again.',
        'refresh_token',
      );
    }
    const grant = rotation.grant;
    if (!(await grantStands(grant.userId, grant.organizationId, grant.apiKeyId))) {
      await write(() => deps.oauth.revokeFamily(grant.familyId, now()));
      throw new OAuthProblem('invalid_grant', keyGone);
    }
    return tokenAnswer(grant, urls.resource, rotation.refreshToken);
  }
  return token;
}
