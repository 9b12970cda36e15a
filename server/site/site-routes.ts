// The developer pages for browsers: `GET /` (a landing page when the request asks for HTML; anything else is
// answered as before, 404), the docs under /docs, the API reference and the GraphQL playground.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ApiError } from '../errors.js';
import { acceptsHtml } from '../http/responses.js';
import type { Reply, RouteDef } from '../http/route.js';
import { REPO_ROOT } from '../paths.js';
import { loadSitePages } from './site-pages.js';

/**
 * Every script and style is a file of this origin (no CDN: the pages work offline); Swagger UI and GraphiQL set
 * inline styles and embed their fonts as data: URLs.
 */
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
].join('; ');

const HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', POLICY],
  ['Cache-Control', 'no-cache'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'DENY'],
];

const html = (body: string): Reply => ({ status: 200, body, contentType: 'text/html; charset=utf-8', headers: HEADERS });

/** The browser bundles of Swagger UI, React and GraphiQL from their installed packages (served under /studio/assets). */
export function siteAssets(): Record<string, string> {
  const require = createRequire(import.meta.url);
  // React lists no subpath for its UMD builds in `exports`: they are found beside its package.json.
  const umd = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), 'umd', file);
  return {
    'swagger-ui-bundle.js': require.resolve('swagger-ui-dist/swagger-ui-bundle.js'),
    'swagger-ui.css': require.resolve('swagger-ui-dist/swagger-ui.css'),
    'react.production.min.js': umd('react', 'react.production.min.js'),
    'react-dom.production.min.js': umd('react-dom', 'react-dom.production.min.js'),
    'graphiql.min.js': require.resolve('graphiql/graphiql.min.js'),
    'graphiql.min.css': require.resolve('graphiql/graphiql.min.css'),
  };
}

export function siteRoutes(): RouteDef[] {
  const pages = loadSitePages(join(REPO_ROOT, 'server', 'site', 'pages'), join(REPO_ROOT, 'docs'));
  const page = (op: string, path: string, summary: string, body: () => string): RouteDef => ({
    op,
    method: 'GET',
    path,
    scope: 'public',
    writes: false,
    summary,
    htmlErrors: true,
    handler: () => html(body()),
  });
  return [
    {
      ...page('getLandingPage', '/', 'The landing page for browsers', () => pages.landing),
      handler: ({ headers }) => {
        // Only a browser navigation gets the page; API clients keep the 404 the root always answered.
        if (!acceptsHtml(headers.accept)) throw new ApiError('NOT_FOUND');
        return html(pages.landing);
      },
    },
    page('getDocsIndex', '/docs', 'The documentation index', () => pages.docsIndex),
    {
      ...page('getDocsPage', '/docs/{name}', 'One page of the documentation', () => ''),
      handler: ({ params }) => {
        const doc = pages.docs.get(params.name as string);
        if (!doc) throw new ApiError('NOT_FOUND');
        return html(doc);
      },
    },
    page('getApiReference', '/reference', 'The API reference of the OpenAPI documents', () => pages.reference),
    page('getGraphqlPlayground', '/playground', 'The GraphQL playground of the Data API', () => pages.playground),
  ];
}
