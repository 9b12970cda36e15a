// OAuth 2.1 for the MCP server (spec: MCP server, OAuth for MCP; DESIGN §5, §10), as MCP clients expect it:
// discovery (RFC 9728 protected-resource metadata, RFC 8414 authorization-server metadata), dynamic registration
// (RFC 7591) and client ID metadata documents, the authorization code flow with PKCE S256 only, and refresh
// tokens rotated on every use. The member signs in and picks, on the consent page, the publishable key (holding
// `mcp`) whose organization the assistant may reach; the access token (`mcp_…`, audience /mcp, an hour) is signed,
// not stored, and checked on every request against that key and that membership (server/auth/access.ts).
//
// The pages carry their state in signed, ten-minute tickets (`authz_…`): nothing is kept between the sign-in and
// the consent, so any node can serve any step.

import { createHash, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../data/credentials.js';
import type {
  ApiKeyRepository,
  MembershipRepository,
  OAuthRepository,
  OrganizationRepository,
  UserRepository,
} from '../../data/repositories.js';
import type { OAuthClient } from '../../data/stores/oauth-store.js';
import { effectiveScopes } from '../auth/access.js';
import { MCP_ACCESS_TTL_SECONDS, type McpAccessClaims } from '../auth/session-claims.js';
import type { TokenClaims, TokenSigner } from '../auth/signed-token.js';
import type { WindowCounter } from '../auth/window-counter.js';
import { ApiError } from '../errors.js';
import type { Reply, RequestContext, RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import { type ClientRegistry, registrationResponse } from './oauth-clients.js';
import { type ConsentOrganization, consentPage, errorPage, signInPage } from './oauth-pages.js';
import { formParams, NO_STORE, OAuthProblem, singleParam } from './oauth-problem.js';
import { AUTHORIZATION_SERVER_METADATA_PATH, oauthUrls, PROTECTED_RESOURCE_METADATA_PATH, publicOrigin } from './oauth-urls.js';

const FORM = 'application/x-www-form-urlencoded';
const TICKET_TTL_SECONDS = 10 * 60;
const CODE_TTL_MS = 60_000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** RFC 7636 §4.1: 43 to 128 unreserved characters; the S256 challenge is always 43 base64url characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const SCOPE = 'mcp';

/** What the pages carry from the authorization request to the code: signed, so the form cannot alter it. */
interface AuthorizationTicket extends TokenClaims {
  cid: string;
  ru: string;
  cc: string;
  st?: string;
  res?: string;
  /** The signed-in member, once the sign-in succeeded (the consent stage). */
  uid?: string;
}

export interface OAuthRouteDeps {
  oauth: OAuthRepository;
  users: UserRepository;
  memberships: MembershipRepository;
  apiKeys: ApiKeyRepository;
  organizations: OrganizationRepository;
  signer: TokenSigner;
  clients: ClientRegistry;
  /** Registrations per client IP per minute. */
  registrationCounter: WindowCounter;
  registrationLimit: number;
  publicBaseUrl: string;
  logger: Logger;
}

const urlsOf = (deps: OAuthRouteDeps, ctx: RequestContext) => oauthUrls(publicOrigin(deps.publicBaseUrl, ctx.headers.host));

const redirect = (location: string): Reply => ({
  status: 302,
  headers: [['Location', location], ...NO_STORE],
  body: '',
  contentType: 'text/plain; charset=utf-8',
});

/** Back to the client with these parameters (RFC 6749 §4.1.2; `iss` per RFC 9207). */
function redirectTo(redirectUri: string, params: Record<string, string | undefined>): Reply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return redirect(url.href);
}

/** The redirect URI of a request: the one given, exactly as registered, or the client's only one. */
function chosenRedirectUri(client: OAuthClient, given: string | undefined): string {
  if (given === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0] as string;
    throw new OAuthProblem('invalid_request', 'This client registered several redirect URIs: send redirect_uri.', 'redirect_uri');
  }
  if (!client.redirectUris.includes(given)) {
    throw new OAuthProblem(
      'invalid_request',
      'This redirect_uri is not one the client registered (they must match exactly).',
      'redirect_uri',
    );
  }
  return given;
}

/** PKCE S256 (RFC 7636 §4.6), compared in constant time. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export function oauthRoutes(deps: OAuthRouteDeps): RouteDef[] {
  const now = () => Date.now();

  /** The member's organizations with the publishable keys holding `mcp` (revoked keys and inactive organizations left out). */
  async function consentChoices(userId: string): Promise<ConsentOrganization[]> {
    const choices: ConsentOrganization[] = [];
    for (const membership of await deps.memberships.listByUser(userId)) {
      const organization = await deps.organizations.get(membership.organizationId);
      if (organization?.status !== 'active') continue;
      const keys = (await deps.apiKeys.list(organization.id)).filter((k) => k.type === 'pk' && effectiveScopes(k.scopes).has('mcp'));
      choices.push({ name: organization.name, role: membership.role, keys: keys.map((k) => ({ id: k.id, name: k.name, hint: k.hint })) });
    }
    return choices;
  }

  /** Whether the member may still reach MCP through this key: a live publishable key with `mcp`, in an active organization they belong to. */
  async function grantStands(userId: string, organizationId: string, keyId: string): Promise<boolean> {
    const key = await deps.apiKeys.get(keyId);
    if (!key || key.revokedAt !== null || key.type !== 'pk' || key.organizationId !== organizationId) return false;
    if (!effectiveScopes(key.scopes).has('mcp')) return false;
    const organization = await deps.organizations.get(organizationId);
    if (organization?.status !== 'active') return false;
    return (await deps.memberships.get(organizationId, userId)) !== undefined;
  }

  async function issueTokens(grant: {
    familyId: string;
    clientId: string;
    userId: string;
    organizationId: string;
    apiKeyId: string;
    resource: string | null;
  }): Promise<Reply> {
    const iat = Math.floor(now() / 1000);
    const claims: McpAccessClaims = {
      uid: grant.userId,
      org: grant.organizationId,
      kid: grant.apiKeyId,
      cid: grant.clientId,
      aud: '/mcp',
      iat,
      exp: iat + MCP_ACCESS_TTL_SECONDS,
    };
    const refresh = await deps.oauth.issueRefreshToken({ ...grant, scope: SCOPE }, REFRESH_TTL_MS, now());
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

  // --- discovery -------------------------------------------------------------------------------------------------

  const protectedResource = (ctx: RequestContext): Reply => {
    const urls = urlsOf(deps, ctx);
    return {
      headers: [['Cache-Control', 'public, max-age=3600']],
      json: {
        resource: urls.resource,
        authorization_servers: [urls.issuer],
        scopes_supported: [SCOPE],
        bearer_methods_supported: ['header'],
        resource_name: 'Cairn MCP server',
      },
    };
  };

  const authorizationServer = (ctx: RequestContext): Reply => {
    const urls = urlsOf(deps, ctx);
    return {
      headers: [['Cache-Control', 'public, max-age=3600']],
      json: {
        issuer: urls.issuer,
        authorization_endpoint: urls.authorize,
        token_endpoint: urls.token,
        registration_endpoint: urls.register,
        scopes_supported: [SCOPE],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none'],
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      },
    };
  };

  // --- authorization ---------------------------------------------------------------------------------------------

  /** GET /oauth/authorize: checks the request, then asks the member to sign in. */
  async function startAuthorization(ctx: RequestContext): Promise<Reply> {
    const query = ctx.query as Record<string, unknown>;
    const urls = urlsOf(deps, ctx);
    let client: OAuthClient;
    let redirectUri: string;
    try {
      client = await deps.clients.resolve(singleParam(query, 'client_id'));
      redirectUri = chosenRedirectUri(client, singleParam(query, 'redirect_uri'));
    } catch (error) {
      // Never redirect to a URI that is not the client's own (RFC 6749 §4.1.2.1): say it here.
      if (error instanceof OAuthProblem) return errorPage(400, error.description);
      throw error;
    }
    let state: string | undefined;
    try {
      state = singleParam(query, 'state');
      if (singleParam(query, 'response_type') !== 'code') {
        throw new OAuthProblem('unsupported_response_type', 'Use response_type=code.', 'response_type');
      }
      const challenge = singleParam(query, 'code_challenge');
      if (singleParam(query, 'code_challenge_method') !== 'S256' || challenge === undefined || !CHALLENGE.test(challenge)) {
        throw new OAuthProblem(
          'invalid_request',
          'PKCE is required: send code_challenge (S256 of your verifier, base64url) with code_challenge_method=S256.',
          'code_challenge',
        );
      }
      const scope = singleParam(query, 'scope');
      if (scope?.split(' ').some((s) => s !== '' && s !== SCOPE)) {
        throw new OAuthProblem('invalid_scope', 'The only scope is "mcp".', 'scope');
      }
      const resource = singleParam(query, 'resource');
      if (resource !== undefined && resource !== urls.resource) {
        throw new OAuthProblem('invalid_target', `The only resource is ${urls.resource}.`, 'resource');
      }
      const iat = Math.floor(now() / 1000);
      const ticket: AuthorizationTicket = {
        cid: client.id,
        ru: redirectUri,
        cc: challenge,
        st: state,
        res: resource,
        iat,
        exp: iat + TICKET_TTL_SECONDS,
      };
      return signInPage({ clientName: client.name ?? client.id, redirectUri, ticket: deps.signer.sign('authz', ticket) });
    } catch (error) {
      if (!(error instanceof OAuthProblem)) throw error;
      return redirectTo(redirectUri, { error: error.error, error_description: error.description, state, iss: urls.issuer });
    }
  }

  /** POST /oauth/authorize: the sign-in form, then the consent form. */
  async function continueAuthorization(ctx: RequestContext): Promise<Reply> {
    const urls = urlsOf(deps, ctx);
    let form: Map<string, string>;
    try {
      form = formParams(ctx.body);
    } catch (error) {
      if (error instanceof OAuthProblem) return errorPage(400, error.description);
      throw error;
    }
    const checked = deps.signer.check<AuthorizationTicket>('authz', form.get('ticket') ?? '');
    if (!checked.ok) {
      return errorPage(
        400,
        checked.reason === 'expired'
          ? 'This sign-in was left open for more than 10 minutes: start again from your assistant.'
          : 'This form was not issued by this server: start again from your assistant.',
      );
    }
    const ticket = checked.claims;
    let client: OAuthClient;
    try {
      client = await deps.clients.resolve(ticket.cid);
      chosenRedirectUri(client, ticket.ru);
    } catch (error) {
      if (error instanceof OAuthProblem) return errorPage(400, error.description);
      throw error;
    }
    const clientName = client.name ?? client.id;
    const back = (params: Record<string, string | undefined>) => redirectTo(ticket.ru, { ...params, state: ticket.st, iss: urls.issuer });

    if (form.get('stage') === 'sign_in') {
      const email = form.get('email') ?? '';
      const password = form.get('password') ?? '';
      const user = email && password ? await deps.users.verifyPassword(email, password) : undefined;
      if (!user) {
        return signInPage({
          clientName,
          redirectUri: ticket.ru,
          ticket: form.get('ticket') as string,
          email,
          error: 'That email and password do not match an account: try again.',
        });
      }
      const iat = Math.floor(now() / 1000);
      const consent = deps.signer.sign('authz', { ...ticket, uid: user.id, iat, exp: iat + TICKET_TTL_SECONDS });
      return consentPage({
        clientName,
        redirectUri: ticket.ru,
        ticket: consent,
        userEmail: user.email,
        organizations: await consentChoices(user.id),
      });
    }

    if (form.get('stage') === 'consent' && ticket.uid !== undefined) {
      if (form.get('decision') !== 'allow') return back({ error: 'access_denied', error_description: 'The member declined.' });
      const user = await deps.users.get(ticket.uid);
      if (!user) return errorPage(400, 'This account no longer exists.');
      const key = await deps.apiKeys.get(form.get('key_id') ?? '');
      if (!key || !(await grantStands(user.id, key.organizationId, key.id))) {
        return consentPage({
          clientName,
          redirectUri: ticket.ru,
          ticket: form.get('ticket') as string,
          userEmail: user.email,
          organizations: await consentChoices(user.id),
          error: 'Choose one of the keys listed here.',
        });
      }
      await deps.oauth.purgeExpiredCodes(now());
      const { code } = await deps.oauth.createCode(
        {
          clientId: client.id,
          userId: user.id,
          organizationId: key.organizationId,
          apiKeyId: key.id,
          redirectUri: ticket.ru,
          codeChallenge: ticket.cc,
          scope: SCOPE,
          resource: ticket.res ?? null,
          ttlMs: CODE_TTL_MS,
        },
        now(),
      );
      return back({ code });
    }
    return errorPage(400, 'This form is incomplete: start again from your assistant.');
  }

  // --- tokens ----------------------------------------------------------------------------------------------------

  async function token(ctx: RequestContext): Promise<Reply> {
    const urls = urlsOf(deps, ctx);
    const form = formParams(ctx.body);
    const required = (name: string) => {
      const value = form.get(name);
      if (!value) throw new OAuthProblem('invalid_request', `Send ${name}.`, name);
      return value;
    };
    if (form.has('client_secret') || ctx.headers.authorization !== undefined) {
      throw new OAuthProblem('invalid_client', 'Clients here are public: send client_id alone, without a secret or Authorization header.');
    }
    const resource = form.get('resource');
    if (resource !== undefined && resource !== urls.resource) {
      throw new OAuthProblem('invalid_target', `The only resource is ${urls.resource}.`, 'resource');
    }
    const grantType = required('grant_type');
    if (grantType === 'authorization_code') {
      const code = required('code');
      const clientId = required('client_id');
      const redirectUri = required('redirect_uri');
      const verifier = required('code_verifier');
      if (!VERIFIER.test(verifier)) {
        throw new OAuthProblem('invalid_request', 'Use a code_verifier of 43 to 128 characters from A-Z a-z 0-9 - . _ ~.', 'code_verifier');
      }
      const record = await deps.oauth.consumeCode(code, now());
      if (!record) {
        // A code presented twice: whatever was issued from it is revoked (OAuth 2.1 §4.1.3).
        if (await deps.oauth.codeRedeemed(code)) {
          await deps.oauth.revokeFamily(hashSecret(code), now());
          throw new OAuthProblem(
            'invalid_grant',
            'This authorization code was already used; tokens issued from it are revoked. Start a new authorization.',
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
      if (!(await grantStands(record.userId, record.organizationId, record.apiKeyId))) {
        throw new OAuthProblem(
          'invalid_grant',
          'The key chosen at consent is revoked or no longer holds mcp, or the member left: connect again.',
        );
      }
      const familyId = hashSecret(code); // the family's tokens die if this code is presented again
      return issueTokens({
        familyId,
        clientId,
        userId: record.userId,
        organizationId: record.organizationId,
        apiKeyId: record.apiKeyId,
        resource: record.resource,
      });
    }
    if (grantType === 'refresh_token') {
      const refreshToken = required('refresh_token');
      const clientId = required('client_id');
      const rotation = await deps.oauth.rotateRefreshToken(refreshToken, now());
      if (!rotation.ok) {
        throw new OAuthProblem(
          'invalid_grant',
          rotation.reason === 'reused'
            ? 'This refresh token was already exchanged; its whole family is now revoked. Connect again.'
            : 'This refresh token is unknown, expired or revoked: connect again.',
          'refresh_token',
        );
      }
      const grant = rotation.grant;
      if (grant.clientId !== clientId)
        throw new OAuthProblem('invalid_grant', 'This refresh token was issued to another client.', 'client_id');
      if (!(await grantStands(grant.userId, grant.organizationId, grant.apiKeyId))) {
        throw new OAuthProblem(
          'invalid_grant',
          'The key chosen at consent is revoked or no longer holds mcp, or the member left: connect again.',
        );
      }
      return issueTokens(grant);
    }
    throw new OAuthProblem('unsupported_grant_type', 'Use grant_type authorization_code or refresh_token.', 'grant_type');
  }

  /** An OAuthProblem becomes OAuth's answer; anything else goes to the pipeline (a 500 is logged there). */
  const oauthAnswer = (handler: (ctx: RequestContext) => Promise<Reply>) => async (ctx: RequestContext) => {
    try {
      return await handler(ctx);
    } catch (error) {
      if (error instanceof OAuthProblem) return error.reply();
      throw error;
    }
  };

  async function register(ctx: RequestContext): Promise<Reply> {
    const count = await deps.registrationCounter.increment(ctx.remoteAddress).catch(() => 0);
    if (count > deps.registrationLimit) throw new ApiError('TOO_MANY_REQUESTS');
    const client = await deps.clients.register(ctx.body);
    return { status: 201, headers: NO_STORE, json: registrationResponse(client) };
  }

  const publicRoute = { scope: 'public' as const, writes: false };
  return [
    {
      ...publicRoute,
      op: 'getOAuthProtectedResource',
      method: 'GET',
      path: '/.well-known/oauth-protected-resource',
      handler: protectedResource,
    },
    {
      ...publicRoute,
      op: 'getOAuthProtectedResourceMcp',
      method: 'GET',
      path: PROTECTED_RESOURCE_METADATA_PATH,
      handler: protectedResource,
    },
    {
      ...publicRoute,
      op: 'getOAuthAuthorizationServer',
      method: 'GET',
      path: AUTHORIZATION_SERVER_METADATA_PATH,
      handler: authorizationServer,
    },
    {
      ...publicRoute,
      op: 'postOAuthRegister',
      method: 'POST',
      path: '/oauth/register',
      bodyLimit: 64 * 1024,
      handler: oauthAnswer(register),
    },
    { ...publicRoute, op: 'getOAuthAuthorize', method: 'GET', path: '/oauth/authorize', htmlErrors: true, handler: startAuthorization },
    {
      ...publicRoute,
      op: 'postOAuthAuthorize',
      method: 'POST',
      path: '/oauth/authorize',
      htmlErrors: true,
      contentTypes: [FORM],
      bodyLimit: 16 * 1024,
      handler: continueAuthorization,
    },
    {
      ...publicRoute,
      op: 'postOAuthToken',
      method: 'POST',
      path: '/oauth/token',
      contentTypes: [FORM],
      bodyLimit: 16 * 1024,
      handler: oauthAnswer(token),
    },
  ];
}
