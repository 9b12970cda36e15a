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
import type { OAuthClient } from '../../data/model/oauth.js';
import { effectiveScopes, mcpGrantStanding } from '../auth/access.js';
import { MCP_ACCESS_TTL_SECONDS, type McpAccessClaims } from '../auth/session-claims.js';
import type { TokenClaims, TokenSigner } from '../auth/signed-token.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import type { WindowCounter } from '../auth/window-counter.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import type { Reply, RequestContext, RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import { type ClientRegistry, isMetadataDocumentUrl, registrationResponse, TOKEN_ENDPOINT_AUTH_METHODS } from './oauth-clients.js';
import { type ClientShown, type ConsentOrganization, consentPage, errorPage, signInPage } from './oauth-pages.js';
import { formParams, NO_STORE, OAuthProblem, oauthErrorReply, singleParam } from './oauth-problem.js';
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  MCP_SCOPE as SCOPE,
  oauthUrls,
  PROTECTED_RESOURCE_METADATA_PATH,
  publicOrigin,
} from './oauth-urls.js';

const FORM = 'application/x-www-form-urlencoded';
const TICKET_TTL_SECONDS = 10 * 60;
const CODE_TTL_MS = 60_000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** RFC 7636 §4.1: 43 to 128 unreserved characters; the S256 challenge is always 43 base64url characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A state longer than this would not fit the signed ticket the pages carry. */
const MAX_STATE_LENGTH = 512;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

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
  writes: UnitOfWork;
  /** Registrations and metadata-document reads per client IP per minute (each may store a client). */
  registrationCounter: WindowCounter;
  registrationLimit: number;
  /** Failed sign-ins per address and per account: the limit POST /v1/login shares. */
  signIns: SignInThrottle;
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

/** The redirect URI with these parameters added (RFC 6749 §4.1.2; `iss` per RFC 9207). */
function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** Back to the client, once the member has acted (signed in and allowed, or denied). */
const redirectTo = (redirectUri: string, params: Record<string, string | undefined>): Reply => redirect(withParams(redirectUri, params));

/**
 * Whether `given` is the registered loopback URI `registered` on another port: a native app listens on whatever
 * port it gets, so the port of a loopback redirect is not compared (RFC 8252 §7.3); everything else is.
 */
function sameLoopbackTarget(registered: string, given: string): boolean {
  try {
    const r = new URL(registered);
    const g = new URL(given);
    return (
      r.protocol === 'http:' &&
      g.protocol === 'http:' &&
      LOOPBACK_HOSTS.has(r.hostname) &&
      r.hostname === g.hostname &&
      r.pathname === g.pathname &&
      r.search === g.search &&
      !g.username &&
      !g.password &&
      g.hash === ''
    );
  } catch {
    return false;
  }
}

/** The redirect URI of a request: the one given, exactly as registered (loopback: any port), or the client's only one. */
function chosenRedirectUri(client: OAuthClient, given: string | undefined): string {
  if (given === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0] as string;
    throw new OAuthProblem('invalid_request', 'This client registered several redirect URIs: send redirect_uri.', 'redirect_uri');
  }
  if (!client.redirectUris.some((registered) => registered === given || sameLoopbackTarget(registered, given))) {
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

const shown = (client: OAuthClient): ClientShown => ({
  name: client.name ?? client.id,
  documentHost: isMetadataDocumentUrl(client.id) ? new URL(client.id).host : undefined,
});

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

export function oauthRoutes(deps: OAuthRouteDeps): RouteDef[] {
  const now = () => Date.now();
  /** Each OAuth write is one unit of work: answered after its commit is on disk, never inside another unit's batch. */
  const write = <T>(fn: () => Promise<T>) => deps.writes.write(fn);
  /** Charges the caller's registration budget (registrations and metadata-document reads). */
  const chargeRegistration = async (remoteAddress: string) => {
    const count = await deps.registrationCounter.increment(remoteAddress).catch(() => 0);
    if (count > deps.registrationLimit) {
      throw new OAuthProblem(
        'too_many_requests',
        'Too many client registrations from this address this minute: wait a minute and try again.',
      );
    }
  };

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

  /** Whether the member may still reach MCP through this key (the access layer's own rule, server/auth/access.ts). */
  async function grantStands(userId: string, organizationId: string, keyId: string): Promise<boolean> {
    const standing = await mcpGrantStanding(deps, { userId, organizationId, keyId });
    return standing.ok && standing.holdsMcp;
  }

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
        token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
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
      client = await deps.clients.resolve(singleParam(query, 'client_id'), () => chargeRegistration(ctx.remoteAddress));
      redirectUri = chosenRedirectUri(client, singleParam(query, 'redirect_uri'));
    } catch (error) {
      // Never redirect to a URI that is not the client's own (RFC 6749 §4.1.2.1): say it here.
      if (error instanceof OAuthProblem) return errorPage(400, error.description);
      throw error;
    }
    let state: string | undefined;
    try {
      state = singleParam(query, 'state');
      if (state !== undefined && state.length > MAX_STATE_LENGTH) {
        state = undefined;
        throw new OAuthProblem('invalid_request', `Use a state of at most ${MAX_STATE_LENGTH} characters.`, 'state');
      }
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
      return signInPage({ client: shown(client), redirectUri, ticket: deps.signer.sign('authz', ticket) });
    } catch (error) {
      if (!(error instanceof OAuthProblem)) throw error;
      // Nobody has acted yet: the page says what is wrong and offers the way back, rather than bouncing the browser.
      const returnTo = withParams(redirectUri, { error: error.error, error_description: error.description, state, iss: urls.issuer });
      return errorPage(400, error.description, returnTo);
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
    const presented = form.get('ticket') ?? '';
    const checked = deps.signer.check<AuthorizationTicket>('authz', presented);
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
      client = await deps.clients.resolve(ticket.cid, () => chargeRegistration(ctx.remoteAddress));
      chosenRedirectUri(client, ticket.ru);
    } catch (error) {
      if (error instanceof OAuthProblem) return errorPage(400, error.description);
      throw error;
    }
    const back = (params: Record<string, string | undefined>) => redirectTo(ticket.ru, { ...params, state: ticket.st, iss: urls.issuer });

    if (form.get('stage') === 'sign_in') {
      const email = form.get('email') ?? '';
      const password = form.get('password') ?? '';
      const spent = await deps.signIns.refusal(ctx.remoteAddress, email);
      if (spent) {
        return signInPage({
          client: shown(client),
          redirectUri: ticket.ru,
          ticket: presented,
          email,
          status: 429,
          error:
            spent === 'address'
              ? 'Too many failed sign-ins from this address: wait until the next minute and try again.'
              : 'Too many failed sign-ins for this account: wait until the next minute and try again.',
        });
      }
      const user = email && password ? await deps.users.verifyPassword(email, password) : undefined;
      if (!user) {
        await deps.signIns.failed(ctx.remoteAddress, email);
        return signInPage({
          client: shown(client),
          redirectUri: ticket.ru,
          ticket: presented,
          email,
          error: 'That email and password do not match an account: try again.',
        });
      }
      const iat = Math.floor(now() / 1000);
      const consent = deps.signer.sign('authz', { ...ticket, uid: user.id, iat, exp: iat + TICKET_TTL_SECONDS });
      return consentPage({
        client: shown(client),
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
          client: shown(client),
          redirectUri: ticket.ru,
          ticket: presented,
          userEmail: user.email,
          organizations: await consentChoices(user.id),
          error: 'Choose one of the keys listed here.',
        });
      }
      const { code } = await write(async () => {
        await deps.oauth.purgeExpiredCodes(now(), REFRESH_TTL_MS);
        return deps.oauth.createCode(
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
      });
      return back({ code });
    }
    return errorPage(400, 'This form is incomplete: start again from your assistant.');
  }

  // --- tokens ----------------------------------------------------------------------------------------------------

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
    await chargeRegistration(ctx.remoteAddress);
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
      errorReply: oauthErrorReply(
        'invalid_client_metadata',
        'Send the client metadata as one JSON object, with Content-Type application/json (RFC 7591 section 3.1).',
      ),
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
      errorReply: oauthErrorReply(
        'invalid_request',
        'Send the token request as application/x-www-form-urlencoded parameters (RFC 6749 section 4.1.3), not JSON.',
      ),
      handler: oauthAnswer(token),
    },
  ];
}
