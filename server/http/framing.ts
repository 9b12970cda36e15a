// Message framing checks every request passes before anything else (RFC 9112 §6.3).

import type { Refusal } from './responses.js';

const DECIMAL = /^[0-9]+$/;
const CHUNKED_LAST = /(?:^|,)[ \t]*chunked[ \t]*$/i;
const CONTENT_LENGTH_REFUSAL: Refusal = { status: 400, messageKey: 'BAD_REQUEST.content_length' };
const TRANSFER_ENCODING_REFUSAL: Refusal = { status: 400, messageKey: 'BAD_REQUEST.transfer_encoding' };

/**
 * RFC 9112 §6.3: a body whose length is ambiguous must be refused with 400 and the connection closed, or a
 * proxy in front and this server could split the bytes into different requests (request smuggling). That
 * is a Content-Length that is not one decimal number (two headers, even equal ones, arrive joined as
 * "5, 5"; RFC 9110 §8.6 allows refusing them, and Node's parser in HTTP_COMPAT mode does), and a
 * Transfer-Encoding next to a Content-Length or not ending in chunked.
 */
export function framingRefusal(headers: Record<string, string>): Refusal | undefined {
  const length = headers['content-length'];
  if (length !== undefined && !DECIMAL.test(length)) return CONTENT_LENGTH_REFUSAL;
  const coding = headers['transfer-encoding'];
  if (coding !== undefined && (length !== undefined || !CHUNKED_LAST.test(coding))) return TRANSFER_ENCODING_REFUSAL;
  return undefined;
}
