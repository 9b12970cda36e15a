// Turning handler replies and errors into responses.

import { ApiError } from '../errors.js';
import type { Language } from '../i18n/messages.js';
import { renderError } from './envelope.js';
import { jsonText } from './json-text.js';
import type { OutgoingResponse } from './pipeline.js';
import type { Reply } from './route.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function tooLarge(limit: number): ApiError {
  return ApiError.withMessage('PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', { limit });
}

export function errorResponse(error: ApiError, lang: Language, extra?: [string, string][], closeConnection = false): OutgoingResponse {
  const rendered = renderError(error, lang);
  const headers: [string, string][] = [['Content-Type', JSON_CONTENT_TYPE]];
  if (extra) headers.push(...extra);
  if (error.headers) for (const [name, value] of error.headers) headers.push([name, value]);
  return { status: rendered.status, headers, body: rendered.body, closeConnection };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text safe inside HTML elements and attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Whether a request is a browser navigation (it asks for HTML). */
export function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

/** The error as a small HTML page (the status and the envelope's sentences), for browser navigations. */
export function htmlErrorResponse(error: ApiError, lang: Language): OutgoingResponse {
  const rendered = renderError(error, lang);
  const entries = (JSON.parse(rendered.body) as { errors: { message: string; extensions: { code: string } }[] }).errors;
  const code = entries[0]?.extensions.code ?? error.code;
  const body =
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${rendered.status} ${escapeHtml(code)}</title>` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#212529}h1{font-size:1.1rem}code{color:#868e96}</style></head>' +
    `<body><h1>${rendered.status} <code>${escapeHtml(code)}</code></h1>${entries.map((e) => `<p>${escapeHtml(e.message)}</p>`).join('')}</body></html>`;
  const headers: [string, string][] = [
    ['Content-Type', 'text/html; charset=utf-8'],
    ['Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'"],
  ];
  if (error.headers) for (const [name, value] of error.headers) headers.push([name, value]);
  return { status: rendered.status, headers, body };
}

/**
 * A request refused at the HTTP layer (its framing, version, head size or Host): code BAD_REQUEST with the
 * status that names the problem (400, 414, 431, 505), and the connection closed after the answer, since
 * the rest of what the client sends cannot be trusted to start a new request.
 */
export interface Refusal {
  status: 400 | 414 | 431 | 505;
  messageKey: string;
  params?: Record<string, string | number>;
}

export function refusalResponse(refusal: Refusal, lang: Language): OutgoingResponse {
  const rendered = renderError(ApiError.withMessage('BAD_REQUEST', refusal.messageKey, refusal.params), lang);
  return { status: refusal.status, headers: [['Content-Type', JSON_CONTENT_TYPE]], body: rendered.body, closeConnection: true };
}

/** Statuses that never carry content (RFC 9110 §15.3.5, §15.4.5): no Content-Type, no Content-Length. */
export function isEmptyStatus(status: number): boolean {
  return status === 204 || status === 304;
}

export function replyToResponse(reply: Reply, defaultStatus: number): OutgoingResponse {
  if ('upgrade' in reply) return { status: 101, headers: [], body: '', upgrade: reply.upgrade };
  const headers: [string, string][] = [];
  const extra = reply.headers;
  if (Array.isArray(extra)) {
    for (const pair of extra) headers.push(pair as [string, string]);
  } else if (extra) {
    for (const key in extra) headers.push([key, (extra as Record<string, string>)[key] as string]);
  }
  const status = reply.status ?? defaultStatus;
  if (isEmptyStatus(status)) return { status, headers, body: '' };
  if ('json' in reply) {
    headers.push(['Content-Type', JSON_CONTENT_TYPE]);
    return { status, headers, body: jsonText(reply.json) };
  }
  if ('stream' in reply) {
    headers.push(['Content-Type', reply.contentType]);
    return { status, headers, body: '', stream: reply.stream };
  }
  headers.push(['Content-Type', reply.contentType]);
  return { status, headers, body: reply.body };
}
