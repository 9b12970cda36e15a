// Turning handler replies and errors into responses.

import { ApiError } from '../errors.js';
import type { Language } from '../i18n/messages.js';
import { renderError } from './envelope.js';
import type { OutgoingResponse } from './pipeline.js';
import type { Reply } from './route.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function tooLarge(limit: number): ApiError {
  return ApiError.withMessage('PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit });
}

export function errorResponse(
  error: ApiError,
  lang: Language,
  extra?: [string, string][],
  closeConnection = false,
): OutgoingResponse {
  const rendered = renderError(error, lang);
  const headers: [string, string][] = [['Content-Type', JSON_CONTENT_TYPE]];
  if (extra) headers.push(...extra);
  return { status: rendered.status, headers, body: rendered.body, closeConnection };
}

export function replyToResponse(reply: Reply, defaultStatus: number): OutgoingResponse {
  const headers: [string, string][] = [];
  const extra = reply.headers;
  if (Array.isArray(extra)) {
    for (const pair of extra) headers.push(pair as [string, string]);
  } else if (extra) {
    for (const key in extra) headers.push([key, (extra as Record<string, string>)[key] as string]);
  }
  const status = reply.status ?? defaultStatus;
  if ('json' in reply) {
    headers.push(['Content-Type', JSON_CONTENT_TYPE]);
    return { status, headers, body: status === 204 ? '' : JSON.stringify(reply.json) };
  }
  headers.push(['Content-Type', reply.contentType]);
  return { status, headers, body: reply.body };
}
