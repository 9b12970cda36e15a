// Bytes of an uploaded GPX or KML → a well-formed @xmldom/xmldom document, or an ImportProblem that says
// what is wrong in the user's terms. Parser messages are never passed on: they quote the file's own text
// (a binary upload came back as its raw bytes), so a refusal names at most a line and a column.

import { DOMParser } from '@xmldom/xmldom';
import { ImportProblem } from './import-problem.js';
import type { XmlFormat } from '../../contracts/transfer.js';

export type XmlDocument = ReturnType<DOMParser['parseFromString']>;
export type XmlElement = NonNullable<XmlDocument['documentElement']>;

/** Positions beyond this are shown as this: a position is a hint, not a number to print at any size. */
const POSITION_CAP = 99_999_999;

/** Text of the file. UTF-16 with a byte-order mark and the encoding an XML declaration names are honoured. */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // NUL never occurs in XML text: this is a binary file (an image, a zip sent as something else…).
  if (bytes.subarray(0, 8192).includes(0)) throw new ImportProblem('not_text');
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes); // an encoding Node does not know: read as UTF-8, like most files
  }
}

/** What the file claims to be, for the message: its first element's name, when that is gpx or kml. */
function formatOf(source: string): XmlFormat {
  const first = /<(?![?!/])(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(source.slice(0, 65536))?.[1]?.toLowerCase();
  return first === 'gpx' || first === 'kml' ? first : 'xml';
}

const cap = (n: unknown): number | undefined =>
  typeof n === 'number' && Number.isInteger(n) && n > 0 ? Math.min(n, POSITION_CAP) : undefined;

/** The position of the first error, from a second parse with the locator on (only files that failed pay for it). */
function firstErrorPosition(source: string): { line: number; column: number } | undefined {
  let position: { line: number; column: number } | undefined;
  const parser = new DOMParser({
    locator: true,
    onError: (level, _message, context) => {
      if (level === 'warning' || position) return;
      const locator = (context as { locator?: { lineNumber?: unknown; columnNumber?: unknown } } | undefined)?.locator;
      const line = cap(locator?.lineNumber);
      const column = cap(locator?.columnNumber);
      if (line !== undefined && column !== undefined) position = { line, column };
    },
  });
  try {
    parser.parseFromString(source, 'text/xml');
  } catch {
    // The fatal error was reported to onError first.
  }
  return position;
}

/** Parses XML, refusing anything not well-formed (xmldom's errors and fatal errors; warnings pass). */
export function parseXmlDocument(bytes: Uint8Array): XmlDocument {
  const source = decode(bytes);
  let failed = false;
  // Without the locator xmldom parses about 40% faster; a failed file is parsed again to say where.
  const parser = new DOMParser({
    locator: false,
    onError: (level) => {
      if (level !== 'warning') failed = true;
    },
  });
  let doc: XmlDocument | undefined;
  try {
    doc = parser.parseFromString(source, 'text/xml');
  } catch {
    failed = true;
  }
  if (failed || !doc?.documentElement) {
    const format = formatOf(source);
    const at = firstErrorPosition(source);
    throw at ? new ImportProblem('malformed_xml_at', { format, ...at }) : new ImportProblem('malformed_xml', { format });
  }
  return doc;
}

/** The local name of an element (namespace prefix ignored). */
export const localName = (n: { localName?: string | null; nodeName: string }): string => n.localName ?? n.nodeName;

/** The first direct child element of `parent` named `name` (namespace prefix ignored). */
export function childElement(parent: XmlElement | null | undefined, name: string): XmlElement | undefined {
  if (!parent) return undefined;
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && localName(n as XmlElement) === name) return n as XmlElement;
  }
  return undefined;
}

/** The text of that child, as written (cleaning is the reader's job). */
export function childText(parent: XmlElement | null | undefined, name: string): string | undefined {
  return childElement(parent, name)?.textContent ?? undefined;
}

/** The parent element, if the parent is an element. */
export function parentElement(node: XmlElement): XmlElement | undefined {
  const parent = node.parentNode;
  return parent && parent.nodeType === 1 ? (parent as XmlElement) : undefined;
}
