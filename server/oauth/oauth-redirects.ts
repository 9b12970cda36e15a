// Where the authorization flow sends the browser back to: the client's redirect URI, exactly as registered (a
// loopback one on any port), with the answer's parameters added.

import type { OAuthClient } from '../../data/model/oauth.js';
import type { Reply } from '../http/route.js';
import { NO_STORE, OAuthProblem } from './oauth-problem.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const redirect = (location: string): Reply => ({
  status: 302,
  headers: [['Location', location], ...NO_STORE],
  body: '',
  contentType: 'text/plain; charset=utf-8',
});

/** The redirect URI with these parameters added (RFC 6749 §4.1.2; `iss` per RFC 9207). */
export function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** Back to the client, once the member has acted (signed in and allowed, or denied). */
export const redirectTo = (redirectUri: string, params: Record<string, string | undefined>): Reply =>
  redirect(withParams(redirectUri, params));

/**
 * Whether `given` is the registered loopback URI `registered` on another port: a native app listens on whatever
 * port it gets, so the port of a loopback redirect is not compared (RFC 8252 §7.3); everything else is.
 */
function sameLoopbackTarget(registered: string, given: string): boolean {
  try {
    const r = new URL(registered);
    const g = new URL(given);
    return (
      r.protocol === 'http:' &&
      g.protocol === 'http:' &&
      LOOPBACK_HOSTS.has(r.hostname) &&
      r.hostname === g.hostname &&
      r.pathname === g.pathname &&
      r.search === g.search &&
      !g.username &&
      !g.password &&
      g.hash === ''
    );
  } catch {
    return false;
  }
}

/** The redirect URI of a request: the one given, exactly as registered (loopback: any port), or the client's only one. */
export function chosenRedirectUri(client: OAuthClient, given: string | undefined): string {
  if (given === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0] as string;
    throw new OAuthProblem('invalid_request', 'This client registered several redirect URIs: send redirect_uri.', 'redirect_uri');
  }
  if (!client.redirectUris.some((registered) => registered === given || sameLoopbackTarget(registered, given))) {
    throw new OAuthProblem(
      'invalid_request',
      'This redirect_uri is not one the client registered (they must match exactly).',
      'redirect_uri',
    );
  }
  return given;
}
