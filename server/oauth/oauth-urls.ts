// Where the OAuth server and the protected resource (the MCP endpoint) live, as clients must see them.

/** The server's public origin: PUBLIC_BASE_URL when set (behind a proxy), else the request's own Host. */
export function publicOrigin(configuredBase: string, host: string | undefined): string {
  return configuredBase ? configuredBase.replace(/\/+$/, '') : `http://${host ?? 'localhost'}`;
}

export const MCP_PATH = '/mcp';
/** The one scope the authorization server grants: it opens `/mcp`. */
export const MCP_SCOPE = 'mcp';
/** RFC 9728 §3.1: the metadata of the resource `<origin>/mcp` sits at the well-known path with the resource's path appended. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const oauthUrls = (origin: string) => ({
  issuer: origin,
  resource: `${origin}${MCP_PATH}`,
  resourceMetadata: `${origin}${PROTECTED_RESOURCE_METADATA_PATH}`,
  authorize: `${origin}/oauth/authorize`,
  token: `${origin}/oauth/token`,
  register: `${origin}/oauth/register`,
});
