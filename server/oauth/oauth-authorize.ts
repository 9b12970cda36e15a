// The authorization endpoint (the authorization code flow with PKCE S256 only): GET checks the client's request and
// asks the member to sign in; POST takes the sign-in form, then the consent form, where the member picks the
// publishable key (holding `mcp`) whose organization the assistant may reach, and sends the browser back with a code.
// The pages carry their state in signed, ten-minute tickets (`authz_…`): nothing is kept between the sign-in and
// the consent, so any node can serve any step.

import type { OAuthClient } from '../../data/model/oauth.js';
import { effectiveScopes } from '../auth/access.js';
import type { TokenClaims } from '../auth/signed-token.js';
import type { Reply, RequestContext } from '../http/route.js';
import { isMetadataDocumentUrl } from './oauth-clients.js';
import { type OAuthContext, REFRESH_TTL_MS, urlsOf } from './oauth-context.js';
import { type ClientShown, type ConsentOrganization, consentPage, errorPage, signInPage } from './oauth-pages.js';
import { formParams, OAuthProblem, singleParam } from './oauth-problem.js';
import { chosenRedirectUri, redirectTo, withParams } from './oauth-redirects.js';
import { MCP_SCOPE as SCOPE } from './oauth-urls.js';

const TICKET_TTL_SECONDS = 10 * 60;
const CODE_TTL_MS = 60_000;
/** RFC 7636 §4.1: the S256 challenge is always 43 base64url characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A state longer than this would not fit the signed ticket the pages carry. */
const MAX_STATE_LENGTH = 512;

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

const shown = (client: OAuthClient): ClientShown => ({
  name: client.name ?? client.id,
  documentHost: isMetadataDocumentUrl(client.id) ? new URL(client.id).host : undefined,
});

export function authorizationHandlers(context: OAuthContext) {
  const { deps, now, write, chargeRegistration, grantStands } = context;

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
  return { startAuthorization, continueAuthorization };
}
