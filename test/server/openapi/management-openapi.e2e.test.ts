// The management API's OpenAPI document over real HTTP: it validates with the validators the public document's
// tests use, lists exactly the management route table, and the public document does not grow by it.

import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { buildApp } from '../../../server/app.js';
import { DEFAULTS } from '../../../server/config.js';
import type { RouteDef } from '../../../server/http/route.js';
import type { Logger } from '../../../server/logger.js';
import { pathParameterNames } from '../../../server/openapi/openapi-document.js';
import { sqliteStorage } from '../../../server/storage.js';
import { type RunningServer, startServer } from '../../helpers/server.js';

type Op = {
  operationId: string;
  summary?: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, unknown>;
  security: Record<string, string[]>[];
};
type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Op>> };

const silent: Logger = { request() {}, error() {}, info() {} } as unknown as Logger;
const PATH = '/v1/management/openapi.json';

let server: RunningServer;
let raw: string;
let doc: Doc;
let management: RouteDef[];

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  const res = await fetch(`${server.url}${PATH}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  raw = await res.text();
  doc = JSON.parse(raw) as Doc;
  const app = buildApp({
    config: { ...DEFAULTS, logLevel: 'silent', seedDemo: false },
    storage: sqliteStorage(openDatabase(':memory:')),
    logger: silent,
    signingSecret: 'x'.repeat(40),
  });
  management = app.router.routes.filter((r) => r.path.startsWith('/v1/management/') && r.path !== PATH);
});

afterAll(async () => {
  await server?.stop();
});

describe('GET /v1/management/openapi.json', () => {
  it('validates as an OpenAPI 3.1 document with a standard validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes the Redocly recommended ruleset with no error or warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: raw, absoluteRef: `${server.url}${PATH}`, config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('needs no credential and names the request origin as its server', async () => {
    expect(doc.servers).toEqual([{ url: server.url }]);
    const again = await fetch(`${server.url}${PATH}`, { headers: { 'X-API-Key': 'pk_nonsense' } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(raw);
  });

  it('lists exactly the operations of the management route table', () => {
    const listed = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`))
      .sort();
    expect(listed).toEqual(management.map((r) => `${r.method} ${r.path} ${r.op}`).sort());
    expect(listed).toHaveLength(15);
  });

  it('agrees with each route: parameters, body fields, success status, credentials', () => {
    for (const route of management) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()] as Op;
      expect(op.summary, route.op).toEqual(route.summary);
      expect(op.summary, route.op).toBeTruthy();
      const params = op.parameters ?? [];
      expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParameterNames(route.path));
      const query = Object.keys((route.query as { properties?: object } | undefined)?.properties ?? {});
      expect(params.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(query);
      const body = route.body as { properties?: object; required?: string[] } | undefined;
      const schema = op.requestBody?.content['application/json']?.schema;
      expect(Object.keys(schema?.properties ?? {}), route.op).toEqual(Object.keys(body?.properties ?? {}));
      expect(schema?.required ?? [], route.op).toEqual(body?.required ?? []);
      expect(Object.keys(op.responses)).toContain(String(route.status ?? 200));
      for (const s of ['401', '403', '404', '500']) expect(Object.keys(op.responses), `${route.op} ${s}`).toContain(s);
      expect(op.security).toEqual([{ ApiKey: [], SessionToken: [] }, { UserToken: [] }]);
    }
  });

  it('leaves the public document without any management operation', async () => {
    const pub = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Doc;
    expect(Object.keys(pub.paths).filter((p) => p.startsWith('/v1/management'))).toEqual([]);
    const count = Object.values(pub.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(count).toBe(50);
  });
});
