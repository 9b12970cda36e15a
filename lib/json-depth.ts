// How deeply a JSON text nests, measured on the text before it is parsed.

/**
 * The deepest nesting any body Cairn reads needs: a GeoJSON MultiPolygon inside a Feature inside a FeatureCollection
 * is 7 levels, GraphQL variables a handful more. Deeper documents are refused before anything walks them: copying
 * them to a worker (structured clone), validating or serializing them recurses once per level and overflows the
 * stack past a few thousand.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when `text` opens more than `max` objects or arrays inside one another. Brackets inside strings do not
 * count. The text need not be valid JSON (a malformed text is the parser's to refuse); one pass, no allocation.
 */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  // Each level takes at least one byte: a text this short cannot nest deeper.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
