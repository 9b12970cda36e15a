// A refusal as a model reads it (the MCP server's tool errors, the agent's tool results): the spec's code, then
// each sentence after the path of the argument it concerns, so the model can correct that argument.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, isServerError } from '../errors.js';
import { renderError } from '../http/envelope.js';
import { type Language, message } from '../i18n/messages.js';

/** Each entry's sentence, after the path of the argument at fault (`waypoints.1: …`). */
export function refusalSentences(error: ApiError, lang: Language): string {
  return error.entries
    .map((e) => {
      const sentence = e.message ?? message(lang, e.messageKey ?? e.code, e.messageParams);
      return e.path && e.path.length > 0 ? `${e.path.join('.')}: ${sentence}` : sentence;
    })
    .join(' ');
}

/** A refusal as an MCP tool error: the text a model reads, and the envelope's entries as structured content. */
export function toolError(error: ApiError, lang: Language): CallToolResult {
  // A 5xx says nothing of its cause, as its REST body does not.
  const shown = isServerError(error.status) ? new ApiError(error.code) : error;
  const { errors } = JSON.parse(renderError(shown, lang).body) as { errors: unknown[] };
  return {
    isError: true,
    content: [{ type: 'text', text: `${shown.code}: ${refusalSentences(shown, lang)}` }],
    structuredContent: { error: { code: shown.code, errors } },
  };
}
