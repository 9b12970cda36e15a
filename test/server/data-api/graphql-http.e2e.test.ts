// The Data API's HTTP contract over real HTTP: the schema document, POST and GET, the error rules of the spec
// (parse failure, validation failure, depth and cost limits, credentials, product, quota before any resolver;
// resolver failures as 200 with localized `errors[]`), the RateLimit-* headers, introspection, and a GraphQL
// client library running the documented example.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLClient, gql } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';
import { type Caller, callerOf, getGraphql, mintSession, postGraphql } from './data-api-client.js';
import { insideOneMinute } from '../../helpers/clock-minute.js';

let server: RunningServer;
let org: Bootstrapped;
let caller: Caller;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  caller = callerOf(org, await mintSession(server, org));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const SDL = readFileSync(join(REPO_ROOT, 'server', 'data-api', 'schema.graphql'), 'utf8');
const codes = (body: { errors: { extensions: { code: string } }[] }) => body.errors.map((e) => e.extensions.code);

/** A fresh organization with its own quota window (tests that spend quota do not starve the others). */
async function freshCaller(): Promise<{ org: Bootstrapped; caller: Caller }> {
  const other = bootstrap(server);
  return { org: other, caller: callerOf(other, await mintSession(server, other)) };
}

describe('the schema document', () => {
  it('GET /graphql/schema.graphql serves the SDL file verbatim, without a credential', async () => {
    const res = await fetch(`${server.url}/graphql/schema.graphql`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/graphql; charset=utf-8');
    expect(await res.text()).toBe(SDL);
  });

  it('declares @pkeyScope(scope: "data") on every Query field, and the fields of the contract', () => {
    const query = /type Query \{([\s\S]*?)\n\}/.exec(SDL)?.[1] ?? '';
    const fields = [...query.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]);
    expect(fields.sort()).toEqual(
      ['analyzeGeometry', 'directions', 'isochrone', 'itinerary', 'place', 'places', 'suggestions', 'ways', 'zones'].sort(),
    );
    const declarations = query.split('\n').filter((l) => /^ {2}\w+\(/.test(l));
    for (const line of declarations) expect(line).toMatch(/@pkeyScope\(scope: "data"\)$/);
    expect(SDL).toContain('directive @pkeyScope(scope: String!) on FIELD_DEFINITION');
  });

  it('fetching the schema is not metered', async () => {
    const { caller: c } = await freshCaller();
    const first = await postGraphql(server, c, { query: '{ __typename }' });
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/graphql/schema.graphql`);
    const second = await postGraphql(server, c, { query: '{ __typename }' });
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
  });
});

describe('requests', () => {
  it('POST runs a query and answers 200 with data', async () => {
    const r = await postGraphql(server, caller, { query: '{ __typename }' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('GET runs a query with variables and an operation name', async () => {
    const r = await getGraphql(server, caller, {
      query: 'query A { __typename } query B($id: ID!) { itinerary(id: $id) { id } }',
      variables: JSON.stringify({ id: 'not-a-uuid' }),
      operationName: 'B',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ itinerary: null });
    expect(r.body.errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', path: ['input', 'id'] });
  });

  it('introspection is on', async () => {
    const r = await postGraphql(server, caller, { query: '{ __schema { queryType { name } types { name } } }' });
    expect(r.status).toBe(200);
    const names = r.body.data.__schema.types.map((t: { name: string }) => t.name);
    for (const name of ['Directions', 'Route', 'ZoneSearchResult', 'ZoneLevel', 'AvoidanceOutcome', 'Itinerary'])
      expect(names).toContain(name);
  });

  it('a body without a query string is 400 BAD_REQUEST, saying how to send one', async () => {
    for (const body of [{}, { query: 42 }, { query: '  ' }, [1]]) {
      const r = await postGraphql(server, caller, body);
      expect(r.status).toBe(400);
      expect(r.body.data).toBeUndefined();
      expect(codes(r.body)).toEqual(['BAD_REQUEST']);
      expect(r.body.errors[0].message).toContain('"query"');
    }
  });

  it('variables that are not an object, and unreadable GET variables, are 400 BAD_REQUEST', async () => {
    const post = await postGraphql(server, caller, { query: '{ __typename }', variables: [1] });
    expect([post.status, codes(post.body)]).toEqual([400, ['BAD_REQUEST']]);
    const get = await getGraphql(server, caller, { query: '{ __typename }', variables: '{nope' });
    expect([get.status, codes(get.body)]).toEqual([400, ['BAD_REQUEST']]);
  });

  it('a document with several operations and no operationName is 400 BAD_REQUEST', async () => {
    const r = await postGraphql(server, caller, { query: 'query A { __typename } query B { __typename }' });
    expect([r.status, codes(r.body)]).toEqual([400, ['BAD_REQUEST']]);
    expect(r.body.errors[0].message).toContain('operationName');
  });

  it('a mutation or subscription is 400 VALIDATION_FAILED saying the Data API answers queries only', async () => {
    const r = await postGraphql(server, caller, { query: 'mutation { x }' });
    expect([r.status, codes(r.body)]).toEqual([400, ['VALIDATION_FAILED']]);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toBe(
      'The Data API answers queries only and has no mutation type: send "query { … }" (itineraries are changed through the Studio API).',
    );
    const both = await postGraphql(server, caller, {
      query: 'subscription S { x } mutation M { y } query Q { __typename }',
      operationName: 'Q',
    });
    expect(both.body.errors.map((e: { message: string }) => e.message.match(/no (\w+) type/)?.[1])).toEqual(['subscription', 'mutation']);
  });

  it('other methods on /graphql answer 405 with Allow', async () => {
    const res = await fetch(`${server.url}/graphql`, { method: 'PUT', headers: { 'X-API-Key': caller.key } });
    expect(res.status).toBe(405);
    expect((res.headers.get('allow') ?? '').split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });
});

describe('documents refused before any resolver', () => {
  it('a document that does not parse is 400 BAD_REQUEST with no data, naming where', async () => {
    const r = await postGraphql(server, caller, { query: '{ directions(input: {' });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(codes(r.body)).toEqual(['BAD_REQUEST']);
    expect(r.body.errors[0].message).toMatch(/line 1, column \d+/);
  });

  it('an undeclared field is 400 VALIDATION_FAILED, "Cannot query field", with no data', async () => {
    const r = await postGraphql(server, caller, { query: '{ directions(input: {activity: WALKING, waypoints: []}) { speed } }' });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(codes(r.body)).toEqual(['VALIDATION_FAILED']);
    expect(r.body.errors[0].message).toContain('Cannot query field "speed" on type Directions');
  });

  it('one entry per validation failure, localized by Accept-Language, the code never in the message', async () => {
    const query = '{ nope directions { routes } }';
    const en = await postGraphql(server, caller, { query });
    const fr = await postGraphql(server, caller, { query }, { 'Accept-Language': 'fr' });
    expect(en.status).toBe(400);
    expect(codes(en.body)).toEqual(['VALIDATION_FAILED', 'VALIDATION_FAILED', 'VALIDATION_FAILED']);
    expect(codes(fr.body)).toEqual(codes(en.body));
    for (let i = 0; i < en.body.errors.length; i++) {
      expect(fr.body.errors[i].message).not.toBe(en.body.errors[i].message);
      expect(en.body.errors[i].message).not.toContain('VALIDATION_FAILED');
    }
    expect(fr.body.errors[0].message).toContain('Impossible de demander le champ "nope"');
  });

  it('variables that do not fit their types are 400 VALIDATION_FAILED naming the variable', async () => {
    const r = await postGraphql(server, caller, {
      query: 'query Q($input: DirectionsInput!) { directions(input: $input) { routes { distance } } }',
      variables: { input: { activity: 'FLYING', waypoints: [] } },
    });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(codes(r.body)).toEqual(['VALIDATION_FAILED']);
    expect(r.body.errors[0].message).toBe(
      'The variable $input (DirectionsInput!) is not valid at input.activity: fix that value in "variables".',
    );
  });

  it('a query nested deeper than the limit is refused, saying the depth and the limit', async () => {
    // Each `ofType` adds a level: 20 of them pass the default limit of 15.
    const query = `{ __type(name: "Route") { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } }`;
    const r = await postGraphql(server, caller, { query });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(codes(r.body)).toEqual(['VALIDATION_FAILED']);
    expect(r.body.errors[0].message).toContain('at most 15');
    expect(r.body.errors[0].message).toContain('22 levels');
  });

  it('a query costing more than the limit is refused, saying its cost and the limit', async () => {
    const route = 'routes { advisories { kind access isRestriction osmWayId fromIndex toIndex fromDistance toDistance } }';
    const aliases = Array.from({ length: 8 }, (_, i) => `d${i}: directions(input: {activity: WALKING, waypoints: []}) { ${route} }`);
    const r = await postGraphql(server, caller, { query: `{ ${aliases.join(' ')} }` });
    expect(r.status).toBe(400);
    expect(codes(r.body)).toEqual(['VALIDATION_FAILED']);
    // 8 × (1 directions + 1 routes + 10 advisories + 8 × 100 fields) = 6,496.
    expect(r.body.errors[0].message).toContain('costs 6496');
    expect(r.body.errors[0].message).toContain('at most 5000');
  });

  it('the standard introspection query of GraphQL tools passes the limits', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const r = await postGraphql(server, caller, { query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) });
    expect(r.status).toBe(200);
    expect(r.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('credentials, product and quota before any resolver', () => {
  const query = { query: '{ directions(input: {activity: WALKING, waypoints: []}) { routes { distance } } }' };

  it('no key, or a key without its session token, is 401 UNAUTHORIZED with no data', async () => {
    for (const who of [undefined, { key: caller.key }, { key: caller.key, session: 'sess_forged.x' }]) {
      const r = await postGraphql(server, who, query);
      expect(r.status).toBe(401);
      expect(r.body.data).toBeUndefined();
      expect(codes(r.body)).toEqual(['UNAUTHORIZED']);
    }
  });

  it('a key without the data scope is 403 FORBIDDEN with no data', async () => {
    const key = admin(server, 'create-key', '--org', org.organization.id, '--type', 'pk', '--name', 'tiles only', '--scopes', 'tiles');
    const res = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': org.secretKey.key },
      body: JSON.stringify({ publishable_key: key.api_key.key }),
    });
    const session = ((await res.json()) as { data: { token: string } }).data.token;
    const r = await postGraphql(server, { key: key.api_key.key, session }, query);
    expect([r.status, codes(r.body), r.body.data]).toEqual([403, ['FORBIDDEN'], undefined]);
  });

  it('an organization without the data product gets 402 PAYMENT_REQUIRED with no data', async () => {
    const { org: o, caller: c } = await freshCaller();
    admin(server, 'set', '--org', o.organization.id, 'products=studio');
    const r = await postGraphql(server, c, query);
    expect([r.status, codes(r.body), r.body.data]).toEqual([402, ['PAYMENT_REQUIRED'], undefined]);
  });

  it('RateLimit-* headers count the organization quota down; past it 429 with no data and no Retry-After', async () => {
    const { org: o, caller: c } = await freshCaller();
    admin(server, 'set', '--org', o.organization.id, 'quota.data=3');
    await insideOneMinute();
    const seen: [number, string | null, string | null][] = [];
    for (let i = 0; i < 3; i++) {
      const r = await postGraphql(server, c, { query: '{ __typename }' });
      seen.push([r.status, r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')]);
      const reset = Number(r.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(seen).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
    ]);
    const refused = await postGraphql(server, c, query);
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(codes(refused.body)).toEqual(['TOO_MANY_REQUESTS']);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
  });

  it("the quota is the organization's, across all its keys", async () => {
    const { org: o, caller: c } = await freshCaller();
    admin(server, 'set', '--org', o.organization.id, 'quota.data=2');
    const second = admin(server, 'create-key', '--org', o.organization.id, '--type', 'pk', '--name', 'second', '--scopes', 'data');
    const res = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': o.secretKey.key },
      body: JSON.stringify({ publishable_key: second.api_key.key }),
    });
    const session = ((await res.json()) as { data: { token: string } }).data.token;
    await insideOneMinute();
    expect((await postGraphql(server, c, { query: '{ __typename }' })).status).toBe(200);
    expect((await postGraphql(server, { key: second.api_key.key, session }, { query: '{ __typename }' })).status).toBe(200);
    expect((await postGraphql(server, c, { query: '{ __typename }' })).status).toBe(429);
  });
});

describe('resolver failures answer 200 with errors[]', () => {
  it('an input error has the response path, the code, the input path and a localized sentence', async () => {
    const query = '{ directions(input: {activity: WALKING, waypoints: [[1.55, 42.5]]}) { routes { distance } } }';
    const en = await postGraphql(server, caller, { query });
    const de = await postGraphql(server, caller, { query }, { 'Accept-Language': 'de' });
    expect(en.status).toBe(200);
    expect(en.body.data).toBeNull();
    expect(en.body.errors).toEqual([
      {
        message: 'Give 2 to 50 waypoints, each a [longitude, latitude] pair.',
        path: ['directions'],
        extensions: { code: 'VALIDATION_FAILED', path: ['input', 'waypoints'] },
      },
    ]);
    expect(de.body.errors[0].message).toBe('Geben Sie 2 bis 50 Wegpunkte an, jeder ein Paar [Länge, Breite].');
    expect(de.body.errors[0].extensions).toEqual(en.body.errors[0].extensions);
  });

  it('each failed field of an input is its own entry', async () => {
    const query =
      '{ directions(input: {activity: WALKING, waypoints: [[200, 42.5], [1.5, 95]], alternatives: 9}) { routes { distance } } }';
    const r = await postGraphql(server, caller, { query });
    expect(r.status).toBe(200);
    expect(r.body.errors.map((e: { extensions: { path: unknown } }) => e.extensions.path)).toEqual([
      ['input', 'waypoints', 0, 0],
      ['input', 'waypoints', 1, 1],
      ['input', 'alternatives'],
    ]);
    for (const e of r.body.errors) expect(e.path).toEqual(['directions']);
  });

  it('a failing field leaves the others: data and errors side by side', async () => {
    const r = await postGraphql(server, caller, { query: '{ __typename places(input: {}) { name } }' });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull(); // places is non-null, so its failure nulls the whole answer
    const partial = await postGraphql(server, caller, {
      query: '{ __typename itinerary(id: "6f1c1e5e-0000-4000-8000-000000000001") { id } }',
    });
    expect(partial.body.data).toEqual({ __typename: 'Query', itinerary: null });
    expect(partial.body.errors).toEqual([{ message: 'Nothing was found here.', path: ['itinerary'], extensions: { code: 'NOT_FOUND' } }]);
  });
});

describe('a GraphQL client library', () => {
  it('graphql-request runs the example of docs/data-api.md', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'data-api.md'), 'utf8');
    // The first ```graphql block of the "directions" section is the documented example.
    const example = /## `directions`[\s\S]*?```graphql\n([\s\S]*?)```/.exec(doc)?.[1];
    const variables = /## `directions`[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeTruthy();
    const client = new GraphQLClient(`${server.url}/graphql`, { headers: { 'X-API-Key': caller.key, 'X-Session-Token': caller.session! } });
    const data = await client.request<{ directions: { routes: { distance: number; avoidance: string; geometry: { type: string } }[] } }>(
      gql`${example!}`,
      JSON.parse(variables!),
    );
    expect(data.directions.routes.length).toBeGreaterThanOrEqual(1);
    expect(data.directions.routes[0]!.distance).toBeGreaterThan(0);
    expect(data.directions.routes[0]!.geometry.type).toBe('LineString');
  });

  it('graphql-request runs every documented example that needs no variables, on the demo region', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'data-api.md'), 'utf8');
    const examples = [...doc.matchAll(/## `([a-zA-Z]+)`[^\n]*\n[\s\S]*?```graphql\n([\s\S]*?)```/g)]
      .map(([, field, document]) => ({ field: field!, document: document! }))
      .filter((e) => !e.document.trimStart().startsWith('query'));
    expect(examples.map((e) => e.field)).toEqual(
      expect.arrayContaining(['zones', 'suggestions', 'isochrone', 'analyzeGeometry', 'places', 'ways']),
    );
    const client = new GraphQLClient(`${server.url}/graphql`, { headers: { 'X-API-Key': caller.key, 'X-Session-Token': caller.session! } });
    for (const { field, document } of examples) {
      const data = await client.request<Record<string, unknown>>(gql`${document}`);
      const answer = data[field];
      expect(answer, field).toBeTruthy();
      // A fresh organization has no zones; every other example answers something.
      if (Array.isArray(answer) && field !== 'zones') expect(answer.length, field).toBeGreaterThan(0);
    }
  });

  it('graphql-request surfaces a resolver error with its code', async () => {
    const client = new GraphQLClient(`${server.url}/graphql`, { headers: { 'X-API-Key': caller.key, 'X-Session-Token': caller.session! } });
    await expect(client.request('{ places(input: {}) { name } }')).rejects.toMatchObject({
      response: { errors: [{ extensions: { code: 'VALIDATION_FAILED', path: ['input', 'text'] } }] },
    });
  });
});
