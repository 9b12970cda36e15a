// CORS headers. Which origins may use a key is an authorization rule (403 from the access layer);
// CORS itself echoes the caller's origin so that browsers can read every answer, errors included.

/**
 * Request headers a browser may send (DESIGN §12), the MCP transport's own (a browser-based MCP client), and
 * X-Request-Id: a client's own id for the request, echoed back and logged.
 */
export const ALLOWED_HEADERS =
  'X-API-Key, X-Session-Token, X-User-Id, X-Share-Token, Content-Type, Authorization, Accept-Language, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Request-Id';
/**
 * Response headers page JavaScript may read on a cross-origin answer, beyond the CORS-safelisted ones: the request id
 * (to report a failure), the quota's RateLimit-* headers (Data API and Tile API answers, their 429s included) and
 * WWW-Authenticate, which a browser-based MCP client reads to find the OAuth server (RFC 9728 §5.1).
 */
export const EXPOSED_HEADERS = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate';
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
