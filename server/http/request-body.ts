// Reading the query string and the request body: credentials set apart, content types checked, JSON parsed.

import { ApiError } from '../errors.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../lib/json-depth.js';

/** Credentials carried in the query string; reserved names, never filters (spec, Credentials). */
export const RESERVED_QUERY_NAMES = ['publishable_key', 'session_token', 'share_token', 'auth_token'] as const;
export type QueryCredentials = Partial<Record<(typeof RESERVED_QUERY_NAMES)[number], string>>;

const JSON_TYPE = 'application/json';
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Fills `into` with the application parameters and returns the reserved credential names found. */
export function parseQueryInto(raw: string, into: Record<string, string | string[]>): QueryCredentials {
  const credentials: QueryCredentials = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if ((RESERVED_QUERY_NAMES as readonly string[]).includes(key)) {
      credentials[key as (typeof RESERVED_QUERY_NAMES)[number]] ??= value;
      continue;
    }
    const prior = into[key];
    if (prior === undefined) into[key] = value;
    else into[key] = Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return credentials;
}

/** Checks the content type and parses JSON bodies; other declared types pass through as a Buffer. */
export function parseBody(raw: Buffer, contentTypeHeader: string | undefined, contentTypes: ReadonlySet<string>): unknown {
  // An empty body is "no body": the route's schema (if any) decides whether that is acceptable.
  if (raw.length === 0) return undefined;
  const mediaType = (contentTypeHeader ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!contentTypes.has(mediaType)) {
    throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.content_type', {
      expected: [...contentTypes].join(', '),
    });
  }
  if (mediaType !== JSON_TYPE) return raw;
  let text: string;
  try {
    // JSON is UTF-8 (RFC 8259): invalid bytes are refused, never stored as U+FFFD replacement characters.
    text = UTF8.decode(raw);
  } catch {
    throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.invalid_utf8');
  }
  if (jsonNestsDeeperThan(text)) throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.json_too_deep', { max: MAX_JSON_DEPTH });
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.invalid_json');
  }
}
