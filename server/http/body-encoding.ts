// Compressed request bodies (Content-Encoding: gzip or deflate), inflated on zlib's thread pool with the
// route's body limit applied to the inflated size, so that a small compression bomb stops at the limit.

import { gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { ApiError } from '../errors.js';
import { tooLarge } from './responses.js';

type Inflate = (input: Buffer, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;

/** Turns the bytes as sent into the body as meant, or rejects with 400 (corrupt) or 413 (over `limit` once inflated). */
export type BodyDecoder = (raw: Buffer, limit: number) => Promise<Buffer>;

export const ACCEPTED_ENCODINGS = 'gzip, deflate';

/**
 * HTTP's "deflate" is zlib-wrapped (RFC 9110 §8.4.1.2), but some clients send a raw deflate stream: the
 * two-byte zlib header (compression method 8, header checksum a multiple of 31) tells them apart.
 */
function isZlibWrapped(raw: Buffer): boolean {
  const cmf = raw[0] ?? 0;
  const flg = raw[1] ?? 0;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

function decoder(pick: (raw: Buffer) => Inflate): BodyDecoder {
  return (raw, limit) => {
    // No bytes is no body, whatever the header says: the route's schema decides about that.
    if (raw.length === 0) return Promise.resolve(raw);
    return new Promise((resolve, reject) => {
      pick(raw)(raw, { maxOutputLength: limit }, (error, result) => {
        if (!error) resolve(result);
        else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') reject(tooLarge(limit));
        else reject(ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.compressed_body'));
      });
    });
  };
}

const gzip = decoder(() => gunzip);
const DECODERS = new Map<string, BodyDecoder>([
  ['gzip', gzip],
  ['x-gzip', gzip],
  ['deflate', decoder((raw) => (isZlibWrapped(raw) ? inflate : inflateRaw))],
]);

/**
 * The decoder a Content-Encoding header asks for: none for an absent header or `identity`, one of gzip or
 * deflate, and a 400 naming the accepted encodings for anything else (br, compress, a chain of codings).
 * Called before the body is read, so that a refusal does not wait for the upload.
 */
export function bodyDecoder(header: string | undefined): BodyDecoder | undefined {
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return undefined;
  const found = codings.length === 1 ? DECODERS.get(codings[0] as string) : undefined;
  if (!found) throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.content_encoding', { accepted: ACCEPTED_ENCODINGS });
  return found;
}
