// CORS headers. Which origins may use a key is an authorization rule (403 from the access layer);
// CORS itself echoes the caller's origin so that browsers can read every answer, errors included.

/** Request headers a browser may send (DESIGN §12), and the MCP transport's own (a browser-based MCP client). */
export const ALLOWED_HEADERS =
  'X-API-Key, X-Session-Token, X-User-Id, X-Share-Token, Content-Type, Authorization, Accept-Language, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
/** A browser-based MCP client reads WWW-Authenticate to find the OAuth server (RFC 9728 §5.1). */
export const EXPOSED_HEADERS = 'X-Request-Id, WWW-Authenticate';
const MAX_AGE = '600';

/** Headers for a preflight (OPTIONS with Access-Control-Request-Method) on a path allowing `allow`. */
export function preflightHeaders(origin: string, allow: string): [string, string][] {
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Allow-Methods', allow],
    ['Access-Control-Allow-Headers', ALLOWED_HEADERS],
    ['Access-Control-Max-Age', MAX_AGE],
    ['Vary', 'Origin'],
  ];
}

/** Headers added to every actual response to a request that carried an Origin. */
export function simpleCorsHeaders(origin: string): [string, string][] {
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
    ['Vary', 'Origin'],
  ];
}
