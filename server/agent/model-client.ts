// The organization's model, as any OpenAI-compatible chat-completions endpoint serves it (management `ai`: the
// endpoint URL, the model name, an optional API key): one request per turn, with the tools it may call. A model
// that answers unusably is BAD_GATEWAY, one that cannot be reached SERVICE_UNAVAILABLE, one that takes longer than
// the turn's budget GATEWAY_TIMEOUT; the organization's key never leaves this module but in the Authorization header.

import { ApiError } from '../errors.js';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: unknown };
}

export interface ModelSettings {
  endpoint: string;
  model: string;
  apiKey: string | null;
}

/** What the model said this turn: text, tool calls, or both. */
export interface ModelTurn {
  content: string | null;
  toolCalls: ChatToolCall[];
}

const TURN_TIMEOUT_MS = 60_000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The answer's text, read no further than `limit` bytes (a larger answer is unusable, and never held whole). */
async function readCapped(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw unusable();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function unusable(): ApiError {
  return ApiError.withMessage('BAD_GATEWAY', 'BAD_GATEWAY.model_answer');
}

export async function chatTurn(
  settings: ModelSettings,
  messages: ChatMessage[],
  tools: ChatTool[],
  signal: AbortSignal,
): Promise<ModelTurn> {
  const timeout = AbortSignal.timeout(TURN_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(settings.endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: settings.model, messages, ...(tools.length > 0 ? { tools, tool_choice: 'auto' } : {}) }),
      signal: AbortSignal.any([signal, timeout]),
      redirect: 'error',
    });
  } catch (error) {
    if (timeout.aborted) throw ApiError.withMessage('GATEWAY_TIMEOUT', 'GATEWAY_TIMEOUT.model');
    if (signal.aborted) throw error;
    throw ApiError.withMessage('SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE.model');
  }
  if (response.status === 401 || response.status === 403) throw ApiError.withMessage('BAD_GATEWAY', 'BAD_GATEWAY.model_refused');
  if (!response.ok) throw unusable();
  let text: string;
  try {
    text = await readCapped(response, MAX_ANSWER_BYTES);
  } catch (error) {
    if (timeout.aborted) throw ApiError.withMessage('GATEWAY_TIMEOUT', 'GATEWAY_TIMEOUT.model');
    if (signal.aborted || error instanceof ApiError) throw error;
    throw ApiError.withMessage('SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE.model');
  }
  let body: { choices?: { message?: { content?: unknown; tool_calls?: unknown } }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw unusable();
  }
  const message = body?.choices?.[0]?.message;
  if (!message || typeof message !== 'object') throw unusable();
  const content = typeof message.content === 'string' ? message.content : null;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls: ChatToolCall[] = [];
  for (const call of calls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
    if (typeof call?.id !== 'string' || typeof call.function?.name !== 'string') throw unusable();
    const args = call.function.arguments;
    toolCalls.push({
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
    });
  }
  if (content === null && toolCalls.length === 0) throw unusable();
  return { content, toolCalls };
}
