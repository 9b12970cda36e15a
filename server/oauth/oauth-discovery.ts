// Discovery: RFC 9728 protected-resource metadata (the MCP endpoint and its authorization server) and RFC 8414
// authorization-server metadata (the endpoints and what they support).

import type { Reply, RequestContext } from '../http/route.js';
import { TOKEN_ENDPOINT_AUTH_METHODS } from './oauth-clients.js';
import { type OAuthRouteDeps, urlsOf } from './oauth-context.js';
import { MCP_SCOPE as SCOPE } from './oauth-urls.js';

export function discoveryHandlers(deps: OAuthRouteDeps) {
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
  return { protectedResource, authorizationServer };
}
