// JSON text of a reply, with pieces that are already JSON text spliced in as they are. A worker formats a
// route's ~1,000 coordinates (workers/positions-json.ts); re-parsing and re-printing them here would cost the
// main thread more than all the rest of the request. A RawJson stands for such a piece in a reply's value:
// `jsonText` writes a marker for it and then replaces each marker by the piece's text. Serialized any other
// way (JSON.stringify by a library), a RawJson is its parsed value, so it is never wrong, only slower.

import { randomBytes } from 'node:crypto';

/**
 * Markers are strings no reply can hold: a NUL (refused in every input) and a per-process random nonce.
 * JSON.stringify escapes the NUL, so a marker appears in the text as `"\u0000<nonce>:<n>"`.
 */
const MARK = `\u0000${randomBytes(12).toString('hex')}:`;
const MARK_TEXT = JSON.stringify(MARK).slice(0, -1); // the opening quote and the escaped marker, no closing quote

/** The RawJson pieces met by the serialization under way (JSON.stringify is synchronous). */
let collecting: RawJson[] | undefined;

export class RawJson {
  /** `text` must be one well-formed JSON value (the producer guarantees it; nothing here checks). */
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (collecting === undefined) return JSON.parse(this.text);
    collecting.push(this);
    return MARK + (collecting.length - 1);
  }
}

/** JSON.stringify(value), with every RawJson in it written as its text. */
export function jsonText(value: unknown): string {
  const outer = collecting;
  const pieces: RawJson[] = [];
  collecting = pieces;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = outer;
  }
  if (pieces.length === 0) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < pieces.length; i++) {
    const at = text.indexOf(MARK_TEXT, from);
    const end = text.indexOf('"', at + MARK_TEXT.length);
    out += text.slice(from, at) + (pieces[Number(text.slice(at + MARK_TEXT.length, end))] as RawJson).text;
    from = end + 1;
  }
  return out + text.slice(from);
}
