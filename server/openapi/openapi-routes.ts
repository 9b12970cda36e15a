// GET /v1/openapi.json: the public OpenAPI document, public and unmetered (DESIGN §12, §16); and
// GET /v1/management/openapi.json, the management API's own. Built once from the route table at start; the
// serialized bytes are cached per server origin.

import type { Config } from '../config.js';
import type { RouteDef } from '../http/route.js';
import { buildManagementDocument } from './management-document.js';
import { buildOpenApiDocument, type OpenApiOptions } from './openapi-document.js';
import type { JsonSchema } from './schema-registry.js';

/** Which document a route serves: its operation, its path and how it is built from the route table. */
export interface OpenApiDocumentKind {
  op: string;
  path: string;
  summary: string;
  build: (routes: readonly RouteDef[], options: OpenApiOptions) => JsonSchema;
}

export const PUBLIC_DOCUMENT: OpenApiDocumentKind = {
  op: 'getOpenApiDocument',
  path: '/v1/openapi.json',
  summary: 'The public OpenAPI 3.1 document of the Studio API',
  build: buildOpenApiDocument,
};

export const MANAGEMENT_DOCUMENT: OpenApiDocumentKind = {
  op: 'getManagementOpenApiDocument',
  path: '/v1/management/openapi.json',
  summary: 'The OpenAPI 3.1 document of the management API',
  build: buildManagementDocument,
};

/** Distinct request origins kept serialized when PUBLIC_BASE_URL is unset (a Host header cannot grow it further). */
const MAX_CACHED_ORIGINS = 8;

/**
 * The document route. `routes` returns the finished route table, so the route can sit inside the table it
 * describes: the document is built in a microtask right after the synchronous composition that declares
 * this route (a route table the generator refuses, such as two schemas under one $id, fails at start).
 */
export function openApiRoute(config: Config, routes: () => readonly RouteDef[], kind: OpenApiDocumentKind = PUBLIC_DOCUMENT): RouteDef {
  const baseUrl = config.publicBaseUrl.replace(/\/+$/, '');
  let document: Record<string, unknown> | undefined;
  const bytesByOrigin = new Map<string, Uint8Array>();

  const build = (table: readonly RouteDef[]) => {
    const authUrl = config.publicAuthUrl.replace(/\/+$/, '');
    const options: OpenApiOptions = { serverUrl: baseUrl, authUrl: authUrl || undefined };
    document = kind.build(table, options);
    if (baseUrl) bytesFor(baseUrl);
  };
  queueMicrotask(() => {
    let table: readonly RouteDef[];
    try {
      table = routes();
    } catch {
      return; // the composition failed before the table existed; that error is the one to report
    }
    if (!document) build(table);
  });

  const serialize = (serverUrl: string): Uint8Array => {
    if (!document) build(routes());
    return new TextEncoder().encode(JSON.stringify({ ...document, servers: [{ url: serverUrl }] }));
  };

  const bytesFor = (serverUrl: string): Uint8Array => {
    const cached = bytesByOrigin.get(serverUrl);
    if (cached) return cached;
    const bytes = serialize(serverUrl);
    if (bytesByOrigin.size < MAX_CACHED_ORIGINS) bytesByOrigin.set(serverUrl, bytes);
    return bytes;
  };

  return {
    op: kind.op,
    method: 'GET',
    path: kind.path,
    scope: 'public',
    writes: false,
    summary: kind.summary,
    handler: ({ headers }) => {
      let serverUrl = baseUrl;
      if (!serverUrl) {
        const forwarded = config.trustProxy ? headers['x-forwarded-proto']?.split(',')[0]?.trim() : undefined;
        const proto = forwarded === 'https' ? 'https' : 'http';
        serverUrl = `${proto}://${headers.host ?? 'localhost'}`;
      }
      return {
        body: bytesFor(serverUrl),
        contentType: 'application/json; charset=utf-8',
        headers: { 'Cache-Control': 'public, max-age=300' },
      };
    },
  };
}
