// The pages' HTML lives in template files beside the code that serves them; this fills their slots. `{{name}}` takes
// text (escaped), `{{{name}}}` HTML the caller built (the site's rendered docs, a page's body, a JSON data block).

import { escapeHtml } from './responses.js';

/** Fills the slots of `template`; a slot with no value is left empty. */
export function fillTemplate(template: string, text: Record<string, string>, html: Record<string, string> = {}): string {
  return template.replace(/\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g, (_, raw: string | undefined, escaped: string | undefined) =>
    raw !== undefined ? (html[raw] ?? '') : escapeHtml(text[escaped as string] ?? ''),
  );
}
