// The embed credential (`emb_…`): minted with the embed page for the site that framed it, it lets the page's own
// requests pass its key's origin check as that site (docs/embed.md, "Allowed origins").

import type { ApiKey } from '../../data/model/api-key.js';
import { ApiError } from '../errors.js';
import type { IncomingRequest } from '../http/pipeline.js';
import { requestOrigin } from './origins.js';
import type { TokenClaims, TokenSigner } from './signed-token.js';

/** Bound to one publishable key of one organization and to the origin of the site that framed the page. */
export interface EmbedClaims extends TokenClaims {
  kid: string;
  org: string;
  /** The framing site's origin (lower case); null when the page was opened with none (a direct visit). */
  ori: string | null;
}

/** The header the embed page sends it in (its fetches and MapLibre's `transformRequest`). */
export const EMBED_TOKEN_HEADER = 'x-embed-token';

export interface MintedEmbedToken {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

export function mintEmbedToken(
  signer: TokenSigner,
  key: Pick<ApiKey, 'id' | 'organizationId'>,
  origin: string | undefined,
  ttlSeconds: number,
  nowMs = Date.now(),
): MintedEmbedToken {
  const iat = Math.floor(nowMs / 1000);
  const claims: EmbedClaims = { kid: key.id, org: key.organizationId, ori: origin ?? null, iat, exp: iat + ttlSeconds };
  return { token: signer.sign('emb', claims), expiresAt: claims.exp * 1000 };
}

/** The host (host[:port]) of a URL or origin, or undefined when it is not one. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether the request comes from one of this server's own pages: its `Origin` and `Referer`, each when present,
 * name this server's host (a same-origin GET carries no Origin; a same-origin POST carries this one).
 */
function fromOwnPage(headers: Record<string, string>): boolean {
  const host = headers.host?.toLowerCase();
  if (!host) return false;
  const { origin, referer } = headers;
  if (origin !== undefined && hostOf(origin) !== host) return false;
  if (referer !== undefined && hostOf(referer) !== host) return false;
  return true;
}

const refused = (why: string) => ApiError.withMessage('UNAUTHORIZED', `UNAUTHORIZED.${why}`);

/**
 * The origin a publishable key's request is checked as. An embed credential that came with it must be genuine,
 * unexpired and minted for this key (else 401); on a request from this server's own page it stands for the site
 * that framed the page. Any other request is checked on its own `Origin` (or `Referer`), credential or not, so the
 * credential never opens the key to another site.
 */
export function keyRequestOrigin(
  signer: TokenSigner,
  request: IncomingRequest,
  key: Pick<ApiKey, 'id' | 'organizationId'>,
  embedToken: string | undefined,
): string | undefined {
  if (embedToken === undefined) return requestOrigin(request.headers);
  const checked = signer.check<EmbedClaims>('emb', embedToken);
  if (!checked.ok) throw refused(checked.reason === 'expired' ? 'embed_expired' : 'embed_invalid');
  const claims = checked.claims;
  if (claims.kid !== key.id || claims.org !== key.organizationId) throw refused('embed_other_key');
  if (!fromOwnPage(request.headers)) return requestOrigin(request.headers);
  return claims.ori ?? undefined;
}
