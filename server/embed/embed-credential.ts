// `POST /studio/embed/token`: the embed page renews its own credential before it ends, for the same site, so a page
// left open keeps drawing (server/auth/embed-token.ts).

import type { Access } from '../auth/access.js';
import { mintEmbedToken } from '../auth/embed-token.js';
import type { TokenSigner } from '../auth/signed-token.js';
import { defineOperation } from '../core/operation.js';
import { ApiError } from '../errors.js';
import { rest } from '../http/rest.js';
import type { RouteDef } from '../http/route.js';

export const EMBED_TOKEN_PATH = '/studio/embed/token';

export interface EmbedCredential {
  token: string;
  /** ISO 8601 UTC, as session tokens state theirs. */
  expires_at: string;
}

export function embedCredentialOperation(deps: { signer: TokenSigner; embedTokenTtlSeconds: number }) {
  return defineOperation({
    id: 'postStudioEmbedToken',
    scope: 'embedding',
    writes: false,
    reach: ['key', 'session'],
    async run(caller: Access): Promise<EmbedCredential> {
      // Reach is key-only, so this holds; the check keeps the type narrow.
      if (caller.kind !== 'key') throw new ApiError('FORBIDDEN');
      // The request passed the origin check as the site the current credential names (or as its own origin):
      // the new credential speaks for that same site, re-checked against the key's origins at every use.
      const minted = mintEmbedToken(deps.signer, caller.key, caller.origin, deps.embedTokenTtlSeconds);
      return { token: minted.token, expires_at: new Date(minted.expiresAt).toISOString() };
    },
  });
}

export function embedCredentialRoutes(deps: { signer: TokenSigner; embedTokenTtlSeconds: number }): RouteDef[] {
  return [
    rest(embedCredentialOperation(deps), {
      method: 'POST',
      path: EMBED_TOKEN_PATH,
      public: false,
      summary: "A fresh credential for the embed page's own requests, for the site that framed it",
    }),
  ];
}
