// The generator on small route tables: stubs without schemas, scopes, declared errors, refusals.

import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../server/http/route.js';
import { buildOpenApiDocument, declaredErrorStatuses } from '../../../server/openapi/openapi-document.js';

const handler = () => ({ json: {} });
const stub: RouteDef = {
  op: 'deleteThing',
  summary: 'Delete a thing',
  method: 'DELETE',
  path: '/v1/things/{thing_id}',
  scope: 'resources',
  writes: true,
  public: true,
  handler,
};
const doc = (routes: RouteDef[]) => buildOpenApiDocument(routes, { serverUrl: 'https://api.example.test' }) as any;

describe('buildOpenApiDocument', () => {
  it('lists a route without schemas with its path parameters, required, as uuids', () => {
    const op = doc([stub]).paths['/v1/things/{thing_id}'].delete;
    expect(op.parameters).toEqual([
      { name: 'thing_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      expect.objectContaining({ name: 'X-User-Id', in: 'header', required: false }),
    ]);
    expect(op.requestBody).toBeUndefined();
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '402', '403', '404', '500', '504']);
  });

  it('leaves out routes that are not public', () => {
    const d = doc([stub, { ...stub, op: 'internal', path: '/v1/internal', public: false }]);
    expect(Object.keys(d.paths)).toEqual(['/v1/things/{thing_id}']);
  });

  it('describes the session call as authorized by the secret key, with 429', () => {
    const session: RouteDef = { ...stub, op: 'postSession', method: 'POST', path: '/v1/sessions', scope: 'any' };
    const op = doc([session]).paths['/v1/sessions'].post;
    expect(op.description.split('\n')[0]).toBe('Required scope: any scope; authorized by the secret key');
    expect(op['x-pkey-scope']).toBe('any');
    expect(op.security).toEqual([{ ApiKey: [] }]);
    expect(declaredErrorStatuses(session)).toEqual([400, 401, 403, 404, 429, 500, 504]);
  });

  it('declares no 400 on a read without parameters, and 409 only with a conflict schema', () => {
    const list: RouteDef = { op: 'getThings', method: 'GET', path: '/v1/things', scope: 'resources', writes: false, public: true, handler };
    expect(declaredErrorStatuses(list)).toEqual([401, 402, 403, 404, 500, 504]);
    const create: RouteDef = {
      ...list,
      op: 'postThing',
      method: 'POST',
      body: Type.Object({ name: Type.String() }),
      conflict: 'ResponseMetadataPostCollection',
    };
    expect(declaredErrorStatuses(create)).toEqual([400, 401, 402, 403, 404, 409, 413, 500, 504]);
  });

  it('refuses an operationId used twice', () => {
    expect(() => doc([stub, { ...stub, path: '/v1/other/{thing_id}' }])).toThrow(TypeError);
  });

  it('refuses a public operation without a summary, and states the licence', () => {
    const { summary: _omitted, ...bare } = stub;
    expect(() => doc([bare])).toThrow(/deleteThing needs a summary/);
    expect(doc([stub]).info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    expect(doc([stub]).paths['/v1/things/{thing_id}'].delete.summary).toBe('Delete a thing');
  });
});
