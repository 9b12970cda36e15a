// {auth_url} routes: minting session tokens with a secret key (postSession) and signing in users (login).

import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { hashSecret } from '../../data/credentials.js';
import type { ApiKeyRepository } from '../../data/repositories.js';
import type { OrganizationRepository } from '../../data/repositories.js';
import type { UserRepository } from '../../data/repositories.js';
import { ApiError } from '../errors.js';
import { defineOperation, inputObject, SECRET_REACH } from '../core/operation.js';
import type { RouteDef } from '../http/route.js';
import { studioRest } from '../studio/operations.js';
import type { Logger } from '../logger.js';
import { SESSION_TTL_SECONDS, type SessionClaims, USER_TOKEN_TTL_SECONDS, type UserClaims } from './session-claims.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { TokenSigner } from './signed-token.js';
import type { WindowCounter } from './window-counter.js';

export const SessionCreateParams = Type.Object(
  { publishable_key: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, $id: 'SessionCreateParams' },
);

export const LoginParams = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

/** A minted session token and when it expires. */
export interface MintedSession {
  token: string;
  expires_at: string;
}

export interface AuthRouteDeps {
  apiKeys: ApiKeyRepository;
  organizations: OrganizationRepository;
  users: UserRepository;
  signer: TokenSigner;
  /** Failed validations per secret key (hash of the presented string), per minute. */
  sessionFailureCounter: WindowCounter;
  sessionFailureLimit: number;
  /** Failed sign-ins per address and per account, shared with the OAuth sign-in page. */
  signIns: SignInThrottle;
  /** Seconds a session token lives: 5 minutes (the contract); tests of renewal shorten it (SESSION_TTL_SECONDS). */
  sessionTtlSeconds?: number;
  logger: Logger;
  now?: () => number;
}

export function authRoutes(deps: AuthRouteDeps): { postSession: RouteDef; login: RouteDef } {
  const now = deps.now ?? Date.now;

  /** Reads the failure counter; a failing store lets the request through (fail open). */
  const failuresSpent = async (keyHash: string): Promise<boolean> => {
    try {
      return (await deps.sessionFailureCounter.peek(keyHash)) >= deps.sessionFailureLimit;
    } catch (error) {
      deps.logger.error('session failure counter unavailable; failing open', { error: String(error) });
      return false;
    }
  };
  const chargeFailure = async (keyHash: string): Promise<void> => {
    try {
      await deps.sessionFailureCounter.increment(keyHash);
    } catch (error) {
      deps.logger.error('session failure counter unavailable; failing open', { error: String(error) });
    }
  };

  const postSession = studioRest(
    defineOperation({
      id: 'postSession',
      scope: 'any',
      writes: false, // tokens are stateless: minting stores nothing
      reach: SECRET_REACH,
      input: inputObject({ body: SessionCreateParams, headers: { secret_key: 'x-api-key' } }),
      async run(_caller, input: { publishable_key: string; secret_key?: string }): Promise<MintedSession> {
        const presented = input.secret_key;
        if (!presented) throw new ApiError('UNAUTHORIZED');
        const keyHash = hashSecret(presented);
        // Once a presented key has failed 10 times this minute, every request with it is refused, valid or not.
        if (await failuresSpent(keyHash)) throw new ApiError('TOO_MANY_REQUESTS');
        const refuse = async (code: 'NOT_FOUND' | 'FORBIDDEN', why: string): Promise<never> => {
          await chargeFailure(keyHash);
          throw ApiError.withMessage(code, `${code}.${why}`);
        };
        const secret = await deps.apiKeys.findSecretByHash(keyHash);
        // A publishable key in X-API-Key is the usual slip here: say where each key goes.
        if (!secret) return refuse('NOT_FOUND', presented.startsWith('pk_') ? 'session_publishable_as_secret' : 'session_secret_key');
        const publishable = await deps.apiKeys.findPublishable(input.publishable_key);
        if (!publishable) return refuse('NOT_FOUND', 'session_publishable_key');
        if (publishable.organizationId !== secret.organizationId) return refuse('FORBIDDEN', 'session_other_organization');
        const organization = await deps.organizations.get(secret.organizationId);
        if (organization?.status !== 'active') return refuse('FORBIDDEN', 'inactive_organization');
        const iat = Math.floor(now() / 1000);
        const claims: SessionClaims = {
          kid: publishable.id,
          sid: secret.id,
          org: organization.id,
          iat,
          exp: iat + (deps.sessionTtlSeconds ?? SESSION_TTL_SECONDS),
          nonce: randomBytes(9).toString('base64url'),
        };
        return { token: deps.signer.sign('sess', claims), expires_at: new Date(claims.exp * 1000).toISOString() };
      },
    }),
    {
      summary: 'Mint a session token for a publishable key',
      status: 201,
      // The spec's example repeats the status inside the body.
      reply: (session) => ({ json: { status: 201, data: session } }),
    },
  );

  const login: RouteDef = {
    op: 'login',
    method: 'POST',
    path: '/v1/login',
    scope: 'public',
    writes: false,
    summary: 'Sign in a user; returns a user token for the dashboard-style calls',
    body: LoginParams,
    handler: async ({ body, remoteAddress }) => {
      const { email, password } = body as { email: string; password: string };
      const spent = await deps.signIns.refusal(remoteAddress, email);
      if (spent) throw ApiError.withMessage('TOO_MANY_REQUESTS', `TOO_MANY_REQUESTS.sign_in_${spent}`);
      const user = await deps.users.verifyPassword(email, password);
      if (!user) {
        await deps.signIns.failed(remoteAddress, email);
        throw new ApiError('UNAUTHORIZED');
      }
      const iat = Math.floor(now() / 1000);
      const claims: UserClaims = { uid: user.id, iat, exp: iat + USER_TOKEN_TTL_SECONDS };
      return {
        json: {
          data: {
            token: deps.signer.sign('usr', claims),
            expires_at: new Date(claims.exp * 1000).toISOString(),
            user: { id: user.id, email: user.email, name: user.name },
          },
        },
      };
    },
  };

  return { postSession, login };
}
