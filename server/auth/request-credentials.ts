// Reads the credentials of a request: header form wins over query form for each credential (spec, Authentication).

import type { IncomingRequest } from '../http/pipeline.js';
import type { QueryCredentials } from '../http/request-body.js';

export interface RequestCredentials {
  apiKey?: string;
  sessionToken?: string;
  shareToken?: string;
  /** `Authorization: Bearer …` (user tokens, MCP access tokens). */
  bearer?: string;
  secretKey?: string; // X-Secret-Key (MCP)
  userId?: string; // X-User-Id, raw
}

export function readCredentials(
  request: IncomingRequest,
  query: QueryCredentials,
  options: { shareTokenInQuery: boolean },
): RequestCredentials {
  const h = request.headers;
  const authorization = h.authorization;
  const bearer = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined;
  return {
    apiKey: h['x-api-key'] ?? query.publishable_key,
    sessionToken: h['x-session-token'] ?? query.session_token,
    shareToken: h['x-share-token'] ?? (options.shareTokenInQuery ? query.share_token : undefined),
    // User tokens travel only in the Authorization header: `auth_token` stays reserved, never a way in.
    bearer,
    secretKey: h['x-secret-key'],
    userId: h['x-user-id'],
  };
}
