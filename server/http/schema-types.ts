// Small TypeBox helpers shared by request schemas.

import { type TUnsafe, Type } from '@sinclair/typebox';

/** A string enum as a single JSON Schema `enum` (one validation error, one OpenAPI enum). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

// Text fields. JSON can carry any code point, but a NUL breaks SQLite's text functions and control
// characters, line separators and lone surrogates have no business in a name. Ajv compiles patterns with
// the `u` flag, so `[\uD800-\uDFFF]` matches only unpaired surrogates.
const CONTROL = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\uD800-\\uDFFF';
const CONTROL_EXCEPT_LINE_BREAKS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u2028\\u2029\\uD800-\\uDFFF';

/** Message keys of the patterns below, so a failure reads as a sentence instead of a regular expression. */
const PATTERN_MESSAGES = new Map<string, string>();

function patterned(pattern: string, messageKey: string, options: Record<string, unknown>) {
  PATTERN_MESSAGES.set(pattern, messageKey);
  return Type.String({ ...options, pattern });
}

/** The message key for a failed `pattern`, when the pattern is one of ours. */
export function patternMessageKey(pattern: string): string | undefined {
  return PATTERN_MESSAGES.get(pattern);
}

/** A name: one line, no control characters, not blank. */
export function NameText(options: { maxLength?: number; description?: string } = {}) {
  return patterned(`^(?=[\\s\\S]*[^\\s${CONTROL}])[^${CONTROL}]*$`, 'VALIDATION_FAILED.name_text', {
    minLength: 1,
    maxLength: options.maxLength ?? 200,
    ...(options.description ? { description: options.description } : {}),
  });
}

/** Other single-line text (may be empty): no control characters. */
export function LineText(options: { maxLength: number; minLength?: number }) {
  return patterned(`^[^${CONTROL}]*$`, 'VALIDATION_FAILED.line_text', options);
}

/** Multi-line text (descriptions): tabs and line breaks allowed, no other control characters. */
export function MultiLineText(options: { maxLength: number }) {
  return patterned(`^[^${CONTROL_EXCEPT_LINE_BREAKS}]*$`, 'VALIDATION_FAILED.multiline_text', options);
}

/** A colour `#RGB`, `#RRGGBB` or `#RRGGBBAA`. */
export const ColorText = patterned('^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$', 'VALIDATION_FAILED.color', {});
