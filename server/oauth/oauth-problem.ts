// A refusal of the OAuth endpoints in OAuth's own form (RFC 6749 §5.2, RFC 7591 §3.2.2: `error` and an ASCII
// `error_description`, which OAuth clients parse), beside the spec's envelope (`errors[]` with the code, the field's
// path and the same sentence) so a Cairn client reads it like every other refusal.

import { type ApiError, isServerError } from '../errors.js';
import { renderError } from '../http/envelope.js';
import type { Reply } from '../http/route.js';
import { type Language, message } from '../i18n/messages.js';

/** Token responses and refusals must not be cached (RFC 6749 §5.1). */
export const NO_STORE: readonly (readonly [string, string])[] = [
  ['Cache-Control', 'no-store'],
  ['Pragma', 'no-cache'],
];

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'server_error'
  /** The MCP SDK's code for a rate-limited registration (OAuth defines none). */
  | 'too_many_requests';

export class OAuthProblem extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    /** One English sentence saying what to do (error_description is ASCII by RFC 6749). */
    readonly description: string,
    /** The request field at fault, for the envelope's path. */
    readonly field?: string,
    readonly status: 400 | 401 | 429 = error === 'invalid_client' ? 401 : error === 'too_many_requests' ? 429 : 400,
  ) {
    super(description);
  }

  reply(location: 'body' | 'query' = 'body'): Reply {
    const code =
      this.status === 401 ? 'UNAUTHORIZED' : this.status === 429 ? 'TOO_MANY_REQUESTS' : this.field ? 'VALIDATION_FAILED' : 'BAD_REQUEST';
    const entry = {
      message: this.description,
      ...(this.field ? { path: ['request', location, this.field] } : {}),
      extensions: { code },
    };
    const headers = this.status === 401 ? [...NO_STORE, ['WWW-Authenticate', 'Basic realm="cairn"'] as const] : NO_STORE;
    return { status: this.status, headers, json: { error: this.error, error_description: this.description, errors: [entry] } };
  }
}

/** Reads an `application/x-www-form-urlencoded` body; a parameter given twice is refused (RFC 6749 §3.1). */
export function formParams(body: unknown): Map<string, string> {
  const params = new Map<string, string>();
  if (body === undefined) return params;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body as Uint8Array);
  } catch {
    throw new OAuthProblem('invalid_request', 'The form body is not valid UTF-8; send it as application/x-www-form-urlencoded UTF-8.');
  }
  for (const [name, value] of new URLSearchParams(text)) {
    if (params.has(name)) throw new OAuthProblem('invalid_request', `Send ${name} once.`, name);
    params.set(name, value);
  }
  return params;
}

/** The query's single value of `name` (the router gives repeated parameters as an array, which OAuth forbids). */
export function singleParam(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new OAuthProblem('invalid_request', `Send ${name} once.`, name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The refusals the pipeline makes before an OAuth endpoint runs (a body of another content type, JSON that does not
 * parse, a body too large) and its 5xx, in OAuth's form too: `unreadable` is the endpoint's `error` for a body it
 * cannot read (`invalid_request`, or `invalid_client_metadata` at registration) and `howToSend` its description.
 */
export function oauthErrorReply(unreadable: OAuthErrorCode, howToSend: string) {
  return (error: ApiError, lang: Language): Reply => {
    const entry = error.entries[0];
    let code = unreadable;
    let description = howToSend;
    if (isServerError(error.status) || error.code === 'TOO_MANY_REQUESTS') {
      code = isServerError(error.status) ? 'server_error' : 'too_many_requests';
      description = message('en', error.code);
    } else if (error.code === 'PAYLOAD_TOO_LARGE') {
      description = message('en', entry?.messageKey ?? error.code, entry?.messageParams);
    }
    const { errors } = JSON.parse(renderError(error, lang).body) as { errors: unknown[] };
    return { status: error.status, headers: NO_STORE, json: { error: code, error_description: description, errors } };
  };
}
