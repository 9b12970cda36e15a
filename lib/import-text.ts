// Text read from an imported file (names, kinds, descriptions) made safe to store, and the rule that names
// the new itinerary. Every name and description an import keeps passes through here.

/** Longest itinerary or waypoint name (the itinerary schemas' limit), in characters. */
export const NAME_MAX = 200;
/** Longest waypoint kind. */
export const KIND_MAX = 64;
/** Longest itinerary description. */
export const DESCRIPTION_MAX = 5000;
/** The name of last resort. */
export const DEFAULT_NAME = 'Imported itinerary';

// What the request schemas refuse in a name (server/http/schema-types.ts, NameText and MultiLineText) is
// removed from a file's text instead: C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F) controls, the line
// and paragraph separators, and unpaired surrogates. Files carry them from old devices and careless
// converters; in a name they only break lists, file names and terminals. So whatever an import stores,
// the API would also have accepted.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]|[\uD800-\uDFFF]/gu;
// Controls that separate words (tab, line breaks, NEL, separators) become a space rather than gluing words.
const SEPARATOR = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const CONTROL_BUT_TAB_AND_NEWLINE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]|[\uD800-\uDFFF]/gu;

/** The first `max` characters (code points, so no surrogate pair is cut in half). */
function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  return Array.from(value).slice(0, max).join('').trimEnd();
}

/**
 * A name as it may be stored: no control characters (those separating words become one space), spaces
 * collapsed, trimmed, at most `max` characters. Undefined when nothing is left, so callers fall back.
 */
export function cleanName(value: unknown, max = NAME_MAX): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.replace(SEPARATOR, ' ').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  return name === '' ? undefined : cut(name, max);
}

/** A description as it may be stored: line breaks (as \n) and tabs kept, other controls removed, trimmed. */
export function cleanDescription(value: unknown, max = DESCRIPTION_MAX): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(CONTROL_BUT_TAB_AND_NEWLINE, '')
    .trim();
  return text === '' ? undefined : cut(text, max);
}

/** What an import can be named after, in order of preference. */
export interface NameSources {
  /** The request's `name` parameter (already validated: one line, no control characters, not blank). */
  requested?: string;
  /** The file's own name: GPX metadata, KML Document, GeoJSON `name`. */
  file?: string;
  /** The first track's (or line's) name. */
  track?: string;
}

/**
 * The new itinerary's name: the one requested, as given; else the first name from the file that is not
 * blank once cleaned; else DEFAULT_NAME.
 */
export function importName(sources: NameSources): string {
  return sources.requested ?? cleanName(sources.file) ?? cleanName(sources.track) ?? DEFAULT_NAME;
}
