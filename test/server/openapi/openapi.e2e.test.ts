// The public OpenAPI document over real HTTP: it validates with a standard validator, lists exactly the 50
// public operations, and agrees with the route table operation by operation.

import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { buildApp } from '../../../server/app.js';
import { DEFAULTS } from '../../../server/config.js';
import type { RouteDef } from '../../../server/http/route.js';
import { inject } from '../../../server/http/inject.js';
import type { Logger } from '../../../server/logger.js';
import { pathParameterNames } from '../../../server/openapi/openapi-document.js';
import { STUDIO_OPERATIONS } from '../../../server/studio/operations.js';
import { type RunningServer, startServer } from '../../helpers/server.js';
import { sqliteStorage } from '../../../server/storage.js';

type Doc = {
  openapi: string;
  info: { license?: { name: string } };
  servers: { url: string }[];
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
};
type Op = {
  operationId: string;
  summary?: string;
  description: string;
  'x-pkey-scope': string;
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: any }> }>;
};

const silent: Logger = { request() {}, error() {}, info() {} } as unknown as Logger;
/** The spec's conflict table (Errors → Conflict metadata): an operation that declares a 409 must use this schema. */
const SPEC_CONFLICTS: Record<string, string> = {
  postItinerary: 'ResponseMetadataPostItinerary',
  postItineraryImport: 'ResponseMetadataPostItinerary',
  postItineraryDuplicate: 'ResponseMetadataPostItinerary',
  patchItinerary: 'ResponseMetadataPatchItinerary',
  postCollection: 'ResponseMetadataPostCollection',
  patchCollection: 'ResponseMetadataPatchCollection',
  postItinerarySegmentInsert: 'ResponseMetadataLockConflict',
  putItinerarySegment: 'ResponseMetadataLockConflict',
  deleteItinerarySegment: 'ResponseMetadataLockConflict',
  postItinerarySegmentMerge: 'ResponseMetadataLockConflict',
  postItinerarySegmentSplit: 'ResponseMetadataLockConflict',
  patchItinerarySegmentMode: 'ResponseMetadataLockConflict',
  putItinerarySegmentGroup: 'ResponseMetadataLockConflict',
  deleteItinerarySegmentGroup: 'ResponseMetadataLockConflict',
  putItineraryWaypoint: 'ResponseMetadataLockConflict',
  deleteItineraryWaypoint: 'ResponseMetadataLockConflict',
  postItineraryPublish: 'ResponseMetadataLockConflict',
};
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let server: RunningServer;
let doc: Doc;
let raw: string;
let routes: readonly RouteDef[];
let operations: { method: string; path: string; op: Op }[];

function buildInProcess(overrides: Partial<typeof DEFAULTS> = {}) {
  return buildApp({
    config: { ...DEFAULTS, logLevel: 'silent', seedDemo: false, ...overrides },
    storage: sqliteStorage(openDatabase(':memory:')),
    logger: silent,
    signingSecret: 'x'.repeat(40),
  });
}

/** Every named schema ($id) reachable from a TypeBox schema. */
function namedSchemas(schema: unknown, into = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return into;
  const s = schema as Record<string, unknown>;
  if (typeof s.$id === 'string') into.add(s.$id);
  for (const value of Object.values(s)) namedSchemas(value, into);
  return into;
}

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  const res = await fetch(`${server.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  raw = await res.text();
  doc = JSON.parse(raw) as Doc;
  routes = buildInProcess().router.routes;
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});

afterAll(async () => {
  await server?.stop();
});

describe('GET /v1/openapi.json', () => {
  it('validates as an OpenAPI 3.1 document with a standard validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes the Redocly recommended ruleset with no error or warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: raw, absoluteRef: `${server.url}/v1/openapi.json`, config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('is public and unmetered: no credential needed, same bytes on every call', async () => {
    const again = await fetch(`${server.url}/v1/openapi.json`, { headers: { 'X-API-Key': 'pk_nonsense' } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(raw);
  });

  it('names the request origin as its server when PUBLIC_BASE_URL is unset', () => {
    expect(doc.servers).toEqual([{ url: server.url }]);
  });

  it('names PUBLIC_BASE_URL as its server when it is set', async () => {
    const app = buildInProcess({ publicBaseUrl: 'https://api.example.test/' });
    const res = await inject(app.handle, { path: '/v1/openapi.json', headers: { host: 'internal:8080' } });
    expect(res.status).toBe(200);
    expect(res.json<Doc>().servers).toEqual([{ url: 'https://api.example.test' }]);
  });

  it('lists exactly the 50 public operations, those of DESIGN §6', () => {
    expect(operations).toHaveLength(50);
    const ids = operations.map((o) => o.op.operationId).sort();
    expect(new Set(ids).size).toBe(50);
    expect(ids).toEqual(STUDIO_OPERATIONS.map((d) => d.op).sort());
    expect(ids).toEqual(
      routes
        .filter((r) => r.public)
        .map((r) => r.op)
        .sort(),
    );
    expect(ids).not.toContain('getOpenApiDocument');
    expect(ids).not.toContain('login');
  });

  it('contains no removed operation (/groups, collection users)', () => {
    for (const path of Object.keys(doc.paths)) {
      expect(path).not.toMatch(/\/groups(\/|$)/);
      expect(path).not.toMatch(/^\/v1\/collections\/\{collection_id\}\/users/);
    }
    expect(doc.paths['/v1/itineraries/{itinerary_id}/segment-groups']?.post?.operationId).toBe('postItinerarySegmentGroup');
  });

  it('agrees with the route table operation by operation', () => {
    for (const route of routes.filter((r) => r.public)) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      if (!op) continue;
      expect(op.operationId).toBe(route.op);
      expect(op['x-pkey-scope']).toBe(route.scope);
      const firstLine = op.description.split('\n')[0];
      if (route.op === 'postSession') {
        expect(route.scope).toBe('any');
        expect(firstLine).toBe('Required scope: any scope; authorized by the secret key');
      } else {
        expect(firstLine).toBe(`Required scope: ${route.scope}`);
      }

      // Parameters: every path parameter (required), the query schema's properties, X-User-Id on key writes.
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name)).toEqual(pathParameterNames(route.path));
      for (const p of pathParams) expect(p.required).toBe(true);
      const queryProps = Object.keys((route.query as { properties?: object } | undefined)?.properties ?? {});
      expect(
        params
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
      ).toEqual(queryProps.sort());
      const userId = params.some((p) => p.in === 'header' && p.name === 'X-User-Id');
      expect(userId).toBe(route.scope === 'resources' && WRITE.has(route.method) && !route.signedInOnly);

      // Request body: from the body schema or the declared content types.
      if (route.body || route.contentTypes) {
        expect(Object.keys(op.requestBody?.content ?? {}).sort()).toEqual([...(route.contentTypes ?? ['application/json'])].sort());
      } else {
        expect(op.requestBody).toBeUndefined();
      }

      // Responses: the success status, then the declared errors.
      const statuses = Object.keys(op.responses);
      expect(statuses).toContain(String(route.status ?? 200));
      for (const s of ['401', '403', '404', '500', '504']) expect(statuses, `${route.op} ${s}`).toContain(s);
      expect(statuses.includes('429')).toBe(route.op === 'postSession');
      const hasInput =
        pathParameterNames(route.path).length > 0 || !!route.params || !!route.query || !!route.body || WRITE.has(route.method);
      expect(statuses.includes('400')).toBe(hasInput);

      // 409 exactly where the route declares a conflict, with the named metadata schema.
      expect(statuses.includes('409')).toBe(route.conflict !== undefined);
      if (route.conflict) {
        // Name conflicts only where the spec puts them; lock conflicts only on an itinerary's parts (the spec's
        // eleven guarded writes, and taking locks, which another member's lock also refuses).
        if (SPEC_CONFLICTS[route.op]) expect(route.conflict).toBe(SPEC_CONFLICTS[route.op]);
        else {
          expect(route.conflict).toBe('ResponseMetadataLockConflict');
          expect(route.path.startsWith('/v1/itineraries/{itinerary_id}/')).toBe(true);
        }
        const schema = op.responses['409']?.content?.['application/json']?.schema;
        expect(JSON.stringify(schema)).toContain(`"#/components/schemas/${route.conflict}"`);
        expect(JSON.stringify(schema)).toContain('"#/components/schemas/ErrorEnvelope"');
      }
    }
  });

  it('declares every 409 of the spec with its metadata schema', () => {
    for (const [opId, schema] of Object.entries(SPEC_CONFLICTS)) {
      const entry = operations.find((o) => o.op.operationId === opId);
      const conflict = entry?.op.responses['409']?.content?.['application/json']?.schema;
      expect(JSON.stringify(conflict), opId).toContain(`"#/components/schemas/${schema}"`);
    }
  });

  it('names the segment group schemas as the spec does', () => {
    expect(doc.components.schemas.SegmentGroupCreateParams).toBeDefined();
    expect(doc.components.schemas.ItinerarySegmentGroup).toBeDefined();
    const create = doc.paths['/v1/itineraries/{itinerary_id}/segment-groups']?.post;
    expect(JSON.stringify(create?.requestBody)).toContain('"#/components/schemas/SegmentGroupCreateParams"');
  });

  it('describes import bodies and export files by media type', () => {
    const importOp = doc.paths['/v1/itineraries/import']?.post;
    expect(Object.keys(importOp?.requestBody?.content ?? {})).toEqual(
      expect.arrayContaining(['application/gpx+xml', 'application/vnd.google-earth.kml+xml', 'application/geo+json']),
    );
    expect(importOp?.responses['413']).toBeDefined();
    const exportOk = doc.paths['/v1/itineraries/{itinerary_id}/export']?.get?.responses['200']?.content ?? {};
    expect(Object.keys(exportOk).sort()).toEqual(['application/geo+json', 'application/gpx+xml', 'application/vnd.google-earth.kml+xml']);
    expect(exportOk['application/geo+json']?.schema.type).toBe('object');
  });

  it('gives every operation a one-line summary and the document a licence', () => {
    for (const { op } of operations) expect(op.summary, op.operationId).toMatch(/^[A-Z][^\n]{5,100}$/);
    expect(new Set(operations.map(({ op }) => op.summary)).size).toBe(operations.length);
    expect(doc.info.license?.name).toBe('Proprietary');
  });

  it('declares 401, 500 and 504 on every operation', () => {
    for (const { op } of operations) {
      for (const s of ['401', '500', '504']) expect(op.responses[s], `${op.operationId} ${s}`).toBeDefined();
    }
  });

  it('carries the error envelope, the five conflict metadata schemas and every named request schema', () => {
    const schemas = doc.components.schemas;
    expect(schemas.ErrorEnvelope.required).toEqual(['errors']);
    expect(schemas.ErrorEnvelope.properties.errors.items.properties.extensions.properties.code.enum).toHaveLength(16);
    expect(schemas.ResponseMetadataPostItinerary.properties.itinerary.properties.id.format).toBe('uuid');
    expect(schemas.ResponseMetadataPatchItinerary.properties.itinerary.required).toEqual(['id']);
    expect(schemas.ResponseMetadataPostCollection.properties.collection.required).toEqual(['id']);
    expect(schemas.ResponseMetadataPatchCollection.properties.collection.required).toEqual(['id']);
    expect(schemas.ResponseMetadataLockConflict.properties.holder.properties.id.format).toBe('uuid');
    const named = new Set<string>();
    for (const r of routes.filter((x) => x.public)) for (const s of [r.params, r.query, r.body, r.response]) namedSchemas(s, named);
    expect(named.has('CollectionCreateParams')).toBe(true);
    for (const name of named) {
      expect(schemas[name], name).toBeDefined();
      expect(raw).toContain(`"$ref":"#/components/schemas/${name}"`);
      expect(JSON.stringify(schemas[name])).not.toContain('"$id"');
    }
  });

  it('declares the four credential schemes', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.SessionToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Session-Token' });
    expect(schemes.ShareToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Share-Token' });
    expect(schemes.UserToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
