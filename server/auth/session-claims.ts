// Payloads of the signed tokens (DESIGN §5): what a session token and a user token assert.

import type { TokenClaims } from './signed-token.js';

/** Session token: bound to one publishable key (kid) of one organization, minted by one secret key (sid). */
export interface SessionClaims extends TokenClaims {
  kid: string;
  sid: string;
  org: string;
  /** Random: two mints in the same second give two tokens, as every call promises a new one. */
  nonce?: string;
}

/** User token from POST /v1/login. */
export interface UserClaims extends TokenClaims {
  uid: string;
}

export const SESSION_TTL_SECONDS = 5 * 60;
export const USER_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/** MCP access token (`mcp_…`) from the OAuth server: a member's consent to reach one organization through one of its keys. */
export interface McpAccessClaims extends TokenClaims {
  /** The signed-in member who consented. */
  uid: string;
  org: string;
  /** The publishable key chosen on the consent screen: revoking it (or taking `mcp` off it) ends the token. */
  kid: string;
  /** The OAuth client the token was issued to. */
  cid: string;
  /** The grant's family (the code it started from): revoked when a code or refresh token is presented twice. */
  fid: string;
  /** Audience (RFC 8707): this deployment's MCP endpoint URL; the token is refused everywhere else. */
  aud: string;
}

export const MCP_ACCESS_TTL_SECONDS = 60 * 60;
