// The developer pages' HTML: the page bodies of ./pages set in ./pages/layout.html (its slots filled by
// fillTemplate), and docs/*.md rendered to HTML with `marked`, all read once.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { fillTemplate } from '../http/html-template.js';
import { escapeHtml } from '../http/responses.js';

export interface SitePages {
  landing: string;
  reference: string;
  playground: string;
  /** The docs index, then each doc by its file name (`api.md`). */
  docsIndex: string;
  docs: ReadonlyMap<string, string>;
}

/** A doc's title: its first level-one heading, else its file name. */
function titleOf(markdown: string, file: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? file;
}

interface Page {
  title: string;
  /** Stylesheets of the page's libraries under /studio/assets, before the site's own. */
  styles?: string[];
  bodyClass?: string;
  /** The body's HTML. */
  body: string;
}

export function loadSitePages(pagesDir: string, docsDir: string): SitePages {
  const file = (name: string) => readFileSync(join(pagesDir, name), 'utf8');
  const layout = file('layout.html');
  const page = (p: Page) =>
    fillTemplate(
      layout,
      { title: p.title, bodyClass: p.bodyClass ?? '' },
      { styles: (p.styles ?? []).map((name) => `<link rel="stylesheet" href="/studio/assets/${name}">\n`).join(''), body: p.body },
    );
  const doc = (title: string, content: string) =>
    page({ title: `${title} · Cairn docs`, body: fillTemplate(file('doc.html'), {}, { content }) });

  const files = readdirSync(docsDir)
    .filter((f) => /^[a-z0-9-]+\.md$/.test(f))
    .sort();
  const docs = new Map<string, string>();
  const entries: string[] = [];
  for (const name of files) {
    const markdown = readFileSync(join(docsDir, name), 'utf8');
    const title = titleOf(markdown, name);
    // The docs are this repository's own text, so their HTML is rendered as written; relative links between
    // them (`authentication.md`) resolve under /docs/ as they do in the repository.
    docs.set(name, doc(title, marked.parse(markdown, { async: false, gfm: true })));
    entries.push(`<li><a href="/docs/${name}">${escapeHtml(title)}</a></li>`);
  }
  return {
    landing: page({ title: 'Cairn', body: file('landing.html') }),
    reference: page({ title: 'API reference · Cairn', styles: ['swagger-ui.css'], body: file('reference.html') }),
    playground: page({
      title: 'GraphQL playground · Cairn',
      styles: ['graphiql.min.css'],
      bodyClass: 'playground',
      body: file('playground.html'),
    }),
    docsIndex: doc('Documentation', `<h1>Documentation</h1>\n<ul class="doc-index">\n${entries.join('\n')}\n</ul>`),
    docs,
  };
}
