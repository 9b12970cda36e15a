// Payloads of the signed tokens (DESIGN §5): what a session token and a user token assert.

import type { TokenClaims } from './signed-token.js';

/** Session token: bound to one publishable key (kid) of one organization, minted by one secret key (sid). */
export interface SessionClaims extends TokenClaims {
  kid: string;
  sid: string;
  org: string;
}

/** User token from POST /v1/login. */
export interface UserClaims extends TokenClaims {
  uid: string;
}

export const SESSION_TTL_SECONDS = 5 * 60;
export const USER_TOKEN_TTL_SECONDS = 12 * 60 * 60;
