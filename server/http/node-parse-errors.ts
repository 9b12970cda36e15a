// Answers for what Node's HTTP parser refuses (its clientError event), in the error envelope and through the
// pipeline like any other answer: the request line and headers are recovered from the bytes that failed,
// so the answer is localized, carries X-Request-Id and is logged. The connection is closed after it.

import { METHODS } from 'node:http';
import type { Socket } from 'node:net';
import type { Handle, IncomingRequest, OutgoingResponse } from './pipeline.js';
import { RequestAbort } from './request-abort.js';
import { isEmptyStatus, type Refusal } from './responses.js';
import { statusLine } from './status-line.js';

/** A request head (request line and header fields) may take this many bytes and this many fields. */
export const HEAD_LIMITS = { bytes: 16 * 1024, fields: 100 } as const;
/** As uWS: longest wait for a complete request head, for the next request, and between body bytes. */
export const IDLE_MS = 10_000;
/** After a refusal, how long the rest of what the client sends is read and dropped before the socket closes. */
const LINGER_MS = 2000;

const malformed: Refusal = { status: 400, messageKey: 'BAD_REQUEST.malformed' };
const REFUSALS: Record<string, Refusal> = {
  version: { status: 505, messageKey: 'BAD_REQUEST.http_version' },
  contentLength: { status: 400, messageKey: 'BAD_REQUEST.content_length' },
  transferEncoding: { status: 400, messageKey: 'BAD_REQUEST.transfer_encoding' },
  uri: { status: 414, messageKey: 'BAD_REQUEST.uri_too_long', params: { limit: HEAD_LIMITS.bytes } },
  head: { status: 431, messageKey: 'BAD_REQUEST.headers_too_large', params: { limit: HEAD_LIMITS.bytes, fields: HEAD_LIMITS.fields } },
};

/** A method worth routing and logging: letters only, so nothing shaped like a credential reaches the log. */
const METHOD = /^[A-Za-z-]{1,24}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a header value may hold no control character but tab
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*$/;
/** Methods llhttp knows: one of these in a packet refused for its method means the packet began elsewhere. */
const KNOWN_METHODS = new Set(METHODS);

interface ParseError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** What to answer for an llhttp error: a refusal, 'method' (let the pipeline answer 405/404), or nothing. */
function classify(error: ParseError, packet: string): Refusal | 'method' | undefined {
  const code = error.code ?? '';
  if (!code.startsWith('HPE_')) return undefined; // timeouts and resets: nobody is listening for an answer
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      // The head passed its budget inside the request line itself: the URL is at fault.
      return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(packet) && !packet.includes('\n') ? REFUSALS.uri : REFUSALS.head;
    case 'HPE_INVALID_METHOD':
      return 'method';
    case 'HPE_INVALID_VERSION':
      return /^Invalid HTTP version/i.test(error.reason ?? '') ? REFUSALS.version : malformed;
    case 'HPE_PAUSED_H2_UPGRADE':
      return REFUSALS.version; // an HTTP/2 connection preface
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return REFUSALS.transferEncoding;
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return /Transfer-Encoding/i.test(error.reason ?? '') ? REFUSALS.transferEncoding : REFUSALS.contentLength;
    default:
      return malformed;
  }
}

/** The request line and the well-formed header fields of a refused packet (the rest is ignored). */
function recover(packet: string): { method: string; target: string; headers: Record<string, string> } {
  const lines = packet.split('\n');
  const [method = '', target = ''] = (lines[0] ?? '').replace(/\r$/, '').split(' ');
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line === '') break;
    const field = FIELD.exec(line);
    if (!field) continue;
    const key = (field[1] as string).toLowerCase();
    const prior = headers[key];
    headers[key] = prior === undefined ? (field[2] as string) : `${prior}, ${field[2] as string}`;
  }
  return { method: METHOD.test(method) ? method : '', target: target.startsWith('/') ? target : '', headers };
}

const noBody = () => Promise.resolve(Buffer.alloc(0));
const answered = new WeakSet<Socket>();

/** Read and drop what the client still sends for a moment, so that it sees the answer before the close. */
function closeAfterAnswer(socket: Socket): void {
  socket.end();
  socket.setTimeout(LINGER_MS, () => socket.destroy());
}

/**
 * Answers one clientError. `owner` is set when the error is in the body of a request already handed to the
 * pipeline (a bad chunk size): that request is never answered twice. If its answer is written, the
 * connection closes after it; if not, the connection closes now and the request is aborted.
 */
export function answerParseError(handle: Handle, error: ParseError, socket: Socket, owner?: 'answered' | 'pending'): void {
  if (answered.has(socket)) return; // the rest of an oversized head, after the answer
  if (owner === 'answered' && socket.writable) {
    answered.add(socket);
    closeAfterAnswer(socket);
    return;
  }
  const packet = error.rawPacket ? error.rawPacket.toString('latin1', 0, Math.min(error.rawPacket.length, HEAD_LIMITS.bytes)) : '';
  const verdict = classify(error, packet);
  if (verdict === undefined || owner === 'pending' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { method, target, headers } = recover(packet);
  let refusal = verdict === 'method' ? undefined : verdict;
  // A method llhttp knows cannot be the one it refused: the packet began mid-stream, so nothing in it is sure.
  if (verdict === 'method' && (method === '' || KNOWN_METHODS.has(method))) refusal = malformed;
  const mark = target.indexOf('?');
  const request: IncomingRequest = {
    method: method || '-',
    path: mark === -1 ? target : target.slice(0, mark),
    query: mark === -1 ? '' : target.slice(mark + 1),
    headers,
    remoteAddress: socket.remoteAddress ?? '',
    refusal,
  };
  answered.add(socket);
  const outcome = handle(request, noBody, new RequestAbort());
  const send = (response: OutgoingResponse) => {
    socket.write(serialize(response, method === 'HEAD'));
    closeAfterAnswer(socket);
  };
  if (outcome instanceof Promise) outcome.then(send, () => socket.destroy());
  else send(outcome);
}

/** The answer as bytes on a socket Node's HTTP layer has given up on. */
function serialize(response: OutgoingResponse, head: boolean): Buffer {
  const body =
    typeof response.body === 'string'
      ? Buffer.from(response.body)
      : Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  let text = `HTTP/1.1 ${statusLine(response.status)}\r\nDate: ${new Date().toUTCString()}\r\n`;
  for (const [key, value] of response.headers) text += `${key}: ${value}\r\n`;
  const empty = isEmptyStatus(response.status);
  if (!empty) text += `Content-Length: ${body.byteLength}\r\n`;
  text += 'Connection: close\r\n\r\n';
  return empty || head ? Buffer.from(text, 'latin1') : Buffer.concat([Buffer.from(text, 'latin1'), body]);
}
