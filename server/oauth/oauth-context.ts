// What the OAuth endpoints share: their dependencies, the clock, OAuth's units of work, the registration budget,
// and the access layer's rule of whether a grant still stands.

import type {
  ApiKeyRepository,
  MembershipRepository,
  OAuthRepository,
  OrganizationRepository,
  UserRepository,
} from '../../data/repositories.js';
import { mcpGrantStanding } from '../auth/access.js';
import type { TokenSigner } from '../auth/signed-token.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import type { WindowCounter } from '../auth/window-counter.js';
import type { UnitOfWork } from '../core/unit-of-work.js';
import type { RequestContext } from '../http/route.js';
import type { Logger } from '../logger.js';
import type { ClientRegistry } from './oauth-clients.js';
import { OAuthProblem } from './oauth-problem.js';
import { oauthUrls, publicOrigin } from './oauth-urls.js';

/** Refresh tokens live 30 days; expired codes are purged once past it too. */
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface OAuthRouteDeps {
  oauth: OAuthRepository;
  users: UserRepository;
  memberships: MembershipRepository;
  apiKeys: ApiKeyRepository;
  organizations: OrganizationRepository;
  signer: TokenSigner;
  clients: ClientRegistry;
  writes: UnitOfWork;
  /** Registrations and metadata-document reads per client IP per minute (each may store a client). */
  registrationCounter: WindowCounter;
  registrationLimit: number;
  /** Failed sign-ins per address and per account: the limit POST /v1/login shares. */
  signIns: SignInThrottle;
  publicBaseUrl: string;
  logger: Logger;
}

export interface OAuthContext {
  deps: OAuthRouteDeps;
  now: () => number;
  /** Each OAuth write is one unit of work: answered after its commit is on disk, never inside another unit's batch. */
  write: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Charges the caller's registration budget (registrations and metadata-document reads). */
  chargeRegistration: (remoteAddress: string) => Promise<void>;
  /** Whether the member may still reach MCP through this key (the access layer's own rule, server/auth/access.ts). */
  grantStands: (userId: string, organizationId: string, keyId: string) => Promise<boolean>;
}

export function oauthContext(deps: OAuthRouteDeps): OAuthContext {
  const now = () => Date.now();
  const write = <T>(fn: () => Promise<T>) => deps.writes.write(fn);
  const chargeRegistration = async (remoteAddress: string) => {
    const count = await deps.registrationCounter.increment(remoteAddress).catch(() => 0);
    if (count > deps.registrationLimit) {
      throw new OAuthProblem(
        'too_many_requests',
        'Too many client registrations from this address this minute: wait a minute and try again.',
      );
    }
  };

  const grantStands = async (userId: string, organizationId: string, keyId: string): Promise<boolean> => {
    const standing = await mcpGrantStanding(deps, { userId, organizationId, keyId });
    return standing.ok && standing.holdsMcp;
  };
  return { deps, now, write, chargeRegistration, grantStands };
}

/** The server's OAuth URLs as the request reached it. */
export const urlsOf = (deps: OAuthRouteDeps, ctx: RequestContext) => oauthUrls(publicOrigin(deps.publicBaseUrl, ctx.headers.host));
