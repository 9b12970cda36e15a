// Renders an ApiError (or any thrown value) as the spec's error envelope, localized.

import { ApiError, isServerError } from '../errors.js';
import { type Language, message } from '../i18n/messages.js';

export interface RenderedError {
  status: number;
  body: string;
}

interface EnvelopeEntry {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; path?: (string | number)[]; metadata?: unknown };
}

/** The envelope for `error`. Every 5xx collapses to one generic entry with no path or metadata. */
export function renderError(error: ApiError, lang: Language): RenderedError {
  if (isServerError(error.status)) {
    const entry: EnvelopeEntry = { message: message(lang, error.code), extensions: { code: error.code } };
    return { status: error.status, body: JSON.stringify({ errors: [entry] }) };
  }
  const errors: EnvelopeEntry[] = error.entries.map((e) => {
    const out: EnvelopeEntry = {
      message: e.message ?? message(lang, e.messageKey ?? e.code, e.messageParams),
      extensions: { code: e.code },
    };
    if (e.path) out.path = e.path;
    if (e.metadata !== undefined) out.extensions.metadata = e.metadata;
    return out;
  });
  const envelope: { errors: EnvelopeEntry[]; extensions?: { metadata: unknown } } = { errors };
  if (error.metadata !== undefined) envelope.extensions = { metadata: error.metadata };
  return { status: error.status, body: JSON.stringify(envelope) };
}

/** Anything thrown that is not an ApiError is a bug on our side: INTERNAL_ERROR. */
export function asApiError(thrown: unknown): ApiError {
  return thrown instanceof ApiError ? thrown : new ApiError('INTERNAL_ERROR');
}
