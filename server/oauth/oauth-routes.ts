// OAuth 2.1 for the MCP server (spec: MCP server, OAuth for MCP; DESIGN §5, §10), as MCP clients expect it:
// discovery (RFC 9728 protected-resource metadata, RFC 8414 authorization-server metadata), dynamic registration
// (RFC 7591) and client ID metadata documents, the authorization code flow with PKCE S256 only, and refresh
// tokens rotated on every use. The member signs in and picks, on the consent page, the publishable key (holding
// `mcp`) whose organization the assistant may reach; the access token (`mcp_…`, audience /mcp, an hour) is signed,
// not stored, and checked on every request against that key and that membership (server/auth/access.ts).
//
// One module per endpoint: discovery (oauth-discovery.ts), registration (oauth-register.ts), authorization
// (oauth-authorize.ts), tokens (oauth-token.ts); what they share in oauth-context.ts. This file is their route table.

import type { RequestContext, Reply, RouteDef } from '../http/route.js';
import { authorizationHandlers } from './oauth-authorize.js';
import { type OAuthRouteDeps, oauthContext } from './oauth-context.js';
import { discoveryHandlers } from './oauth-discovery.js';
import { OAuthProblem, oauthErrorReply } from './oauth-problem.js';
import { registerHandler } from './oauth-register.js';
import { tokenHandler } from './oauth-token.js';
import { AUTHORIZATION_SERVER_METADATA_PATH, PROTECTED_RESOURCE_METADATA_PATH } from './oauth-urls.js';

export type { OAuthRouteDeps } from './oauth-context.js';

const FORM = 'application/x-www-form-urlencoded';

/** An OAuthProblem becomes OAuth's answer; anything else goes to the pipeline (a 500 is logged there). */
const oauthAnswer = (handler: (ctx: RequestContext) => Promise<Reply>) => async (ctx: RequestContext) => {
  try {
    return await handler(ctx);
  } catch (error) {
    if (error instanceof OAuthProblem) return error.reply();
    throw error;
  }
};

export function oauthRoutes(deps: OAuthRouteDeps): RouteDef[] {
  const context = oauthContext(deps);
  const { protectedResource, authorizationServer } = discoveryHandlers(deps);
  const { startAuthorization, continueAuthorization } = authorizationHandlers(context);
  const token = tokenHandler(context);
  const register = registerHandler(context);

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
