// Reads the credentials of a request: header form wins over query form for each credential (spec, Authentication).

import type { IncomingRequest } from '../http/pipeline.js';
import { EMBED_TOKEN_HEADER } from './embed-token.js';
import type { QueryCredentials } from '../http/request-body.js';

const BEARER = /^bearer +(.*)$/is;

export interface RequestCredentials {
  apiKey?: string;
  sessionToken?: string;
  shareToken?: string;
  /** `Authorization: Bearer …` (user tokens, MCP access tokens). */
  bearer?: string;
  secretKey?: string; // X-Secret-Key (MCP)
  userId?: string; // X-User-Id, as sent
  /** X-Embed-Token: the embed page's own credential (server/auth/embed-token.ts); a header only. */
  embedToken?: string;
}

export function readCredentials(
  request: IncomingRequest,
  query: QueryCredentials,
  options: { shareTokenInQuery: boolean; userTokenInQuery?: boolean },
): RequestCredentials {
  const h = request.headers;
  // `Bearer` 1*SP token (RFC 6750; the scheme name is case-insensitive). The token is taken as sent, never
  // trimmed or re-cased: the token's own check decides, and only its one canonical spelling passes.
  const bearer = BEARER.exec(h.authorization ?? '')?.[1];
  return {
    apiKey: h['x-api-key'] ?? query.publishable_key,
    sessionToken: h['x-session-token'] ?? query.session_token,
    shareToken: h['x-share-token'] ?? (options.shareTokenInQuery ? query.share_token : undefined),
    // User tokens travel in the Authorization header; `auth_token` only where a browser cannot set one (a WebSocket).
    bearer: bearer ?? (options.userTokenInQuery ? query.auth_token : undefined),
    secretKey: h['x-secret-key'],
    userId: h['x-user-id'],
    embedToken: h[EMBED_TOKEN_HEADER],
  };
}
