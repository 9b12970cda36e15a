// A refusal of the OAuth endpoints in OAuth's own form (RFC 6749 §5.2, RFC 7591 §3.2.2: `error` and an ASCII
// `error_description`, which OAuth clients parse), beside the spec's envelope (`errors[]` with the code, the field's
// path and the same sentence) so a Cairn client reads it like every other refusal.

import type { Reply } from '../http/route.js';

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
  | 'server_error';

export class OAuthProblem extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    /** One English sentence saying what to do (error_description is ASCII by RFC 6749). */
    readonly description: string,
    /** The request field at fault, for the envelope's path. */
    readonly field?: string,
    readonly status: 400 | 401 = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
  }

  reply(location: 'body' | 'query' = 'body'): Reply {
    const entry = {
      message: this.description,
      ...(this.field ? { path: ['request', location, this.field] } : {}),
      extensions: { code: this.status === 401 ? 'UNAUTHORIZED' : this.field ? 'VALIDATION_FAILED' : 'BAD_REQUEST' },
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
