// Escaping text and attribute values for the XML exports.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe inside an element or a quoted attribute; characters XML 1.0 forbids are dropped. */
export function escapeXml(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the control characters XML 1.0 forbids
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
