// The developer pages' HTML: the page files of ./pages, and docs/*.md rendered to HTML with `marked`, all read once.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { escapeHtml } from '../http/responses.js';

export interface SitePages {
  landing: string;
  reference: string;
  playground: string;
  /** The docs index, then each doc by its file name (`api.md`). */
  docsIndex: string;
  docs: ReadonlyMap<string, string>;
}

/** Fills `{{name}}` slots of a page file; the values are HTML already (escape text before). */
function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => slots[name] ?? '');
}

/** A doc's title: its first level-one heading, else its file name. */
function titleOf(markdown: string, file: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? file;
}

export function loadSitePages(pagesDir: string, docsDir: string): SitePages {
  const page = (name: string) => readFileSync(join(pagesDir, name), 'utf8');
  const docTemplate = page('doc.html');
  const files = readdirSync(docsDir)
    .filter((f) => /^[a-z0-9-]+\.md$/.test(f))
    .sort();
  const docs = new Map<string, string>();
  const entries: string[] = [];
  for (const file of files) {
    const markdown = readFileSync(join(docsDir, file), 'utf8');
    const title = titleOf(markdown, file);
    // The docs are this repository's own text, so their HTML is rendered as written; relative links between
    // them (`authentication.md`) resolve under /docs/ as they do in the repository.
    const content = marked.parse(markdown, { async: false, gfm: true });
    docs.set(file, fill(docTemplate, { title: escapeHtml(title), content }));
    entries.push(`<li><a href="/docs/${file}">${escapeHtml(title)}</a></li>`);
  }
  const docsIndex = fill(docTemplate, {
    title: 'Documentation',
    content: `<h1>Documentation</h1>\n<ul class="doc-index">\n${entries.join('\n')}\n</ul>`,
  });
  return { landing: page('landing.html'), reference: page('reference.html'), playground: page('playground.html'), docsIndex, docs };
}
