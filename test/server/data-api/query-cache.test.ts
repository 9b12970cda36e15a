// The compiled-query cache in-process: a hit does no parse, validation or compilation; the cache is bounded
// (least recently used out first); refusals are cached as refusals; the schema's declarations are checked.

import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { QueryCache } from '../../../server/data-api/query-cache.js';
import { LIST_FACTOR, measureDocument } from '../../../server/data-api/query-limits.js';
import { buildDataSchema, readSchemaText } from '../../../server/data-api/schema.js';
import { ApiError } from '../../../server/errors.js';

const SDL = readSchemaText();
const FIELDS = ['directions', 'suggestions', 'analyzeGeometry', 'itinerary', 'places', 'place', 'isochrone', 'zones', 'ways', 'regions'];
const resolvers = Object.fromEntries(FIELDS.map((f) => [f, () => null]));
const schema = buildDataSchema(SDL, resolvers);
const options = { maxEntries: 3, maxDepth: 15, maxCost: 5000, maxTokens: 20_000 };

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('compiled-query cache', () => {
  it('compiles a document once: a hit parses, validates and compiles nothing', () => {
    const cache = new QueryCache(schema, options);
    const first = cache.get('{ __typename }', undefined);
    expect(cache.stats).toEqual({ parses: 1, compiles: 1, hits: 0 });
    const again = cache.get('{ __typename }', undefined);
    expect(again.compiled).toBe(first.compiled);
    expect(cache.stats).toEqual({ parses: 1, compiles: 1, hits: 1 });
  });

  it('keys by the exact text: another spelling is another document', () => {
    const cache = new QueryCache(schema, options);
    cache.get('{ __typename }', undefined);
    cache.get('{__typename}', undefined);
    expect(cache.stats.parses).toBe(2);
  });

  it('compiles each operation of a document once, parsing the document once', () => {
    const cache = new QueryCache(schema, options);
    const text = 'query A { __typename } query B { __typename }';
    const a = cache.get(text, 'A');
    const b = cache.get(text, 'B');
    expect(a.compiled).not.toBe(b.compiled);
    expect(cache.get(text, 'A').compiled).toBe(a.compiled);
    expect(cache.stats).toEqual({ parses: 1, compiles: 2, hits: 2 });
    expect(refusal(() => cache.get(text, undefined)).code).toBe('BAD_REQUEST');
    expect(refusal(() => cache.get(text, 'C')).entries[0]?.messageKey).toBe('BAD_REQUEST.graphql_unknown_operation');
  });

  it('is bounded: past maxEntries the least recently used document goes first', () => {
    const cache = new QueryCache(schema, options);
    const doc = (n: number) => `query Q${n} { __typename }`;
    cache.get(doc(1), undefined);
    cache.get(doc(2), undefined);
    cache.get(doc(3), undefined);
    cache.get(doc(1), undefined); // 1 is now the most recent; 2 the least
    cache.get(doc(4), undefined);
    expect(cache.size).toBe(3);
    const parses = cache.stats.parses;
    cache.get(doc(1), undefined);
    cache.get(doc(3), undefined);
    expect(cache.stats.parses).toBe(parses);
    cache.get(doc(2), undefined);
    expect(cache.stats.parses).toBe(parses + 1);
  });

  it('is bounded in characters too: large distinct documents evict the oldest, the newest always stays', () => {
    const cache = new QueryCache(schema, { ...options, maxEntries: 100, maxChars: 1000 });
    const big = (n: number) => `query Q${n} { __typename }${' '.repeat(400)}`;
    for (let n = 1; n <= 5; n++) cache.get(big(n), undefined);
    expect(cache.size).toBe(2); // ~430 characters each: two fit under 1,000
    const huge = `query H { __typename }${' '.repeat(5000)}`;
    cache.get(huge, undefined);
    expect(cache.size).toBe(1);
    const parses = cache.stats.parses;
    cache.get(huge, undefined);
    expect(cache.stats.parses).toBe(parses);
  });

  it('caches a refusal: resending a bad document parses nothing', () => {
    const cache = new QueryCache(schema, options);
    const first = refusal(() => cache.get('{ nope }', undefined));
    const second = refusal(() => cache.get('{ nope }', undefined));
    expect(first.code).toBe('VALIDATION_FAILED');
    expect(second).toBe(first);
    expect(cache.stats.parses).toBe(1);
    expect(refusal(() => cache.get('{ nope', undefined)).code).toBe('BAD_REQUEST');
  });

  it('refuses documents past the depth and cost limits, naming both numbers', () => {
    const cache = new QueryCache(schema, { ...options, maxDepth: 3, maxCost: 20 });
    const deep = refusal(() =>
      cache.get('{ directions(input: {activity: WALKING, waypoints: []}) { routes { geometry { type } } } }', undefined),
    );
    expect(deep.entries[0]).toMatchObject({ messageKey: 'VALIDATION_FAILED.graphql_depth', messageParams: { depth: 4, limit: 3 } });
    const costly = refusal(() =>
      cache.get('{ directions(input: {activity: WALKING, waypoints: []}) { routes { distance duration } } }', undefined),
    );
    // directions 1 + routes 1 + two fields inside the list of routes, each 10.
    expect(costly.entries[0]).toMatchObject({ messageKey: 'VALIDATION_FAILED.graphql_cost', messageParams: { cost: 22, limit: 20 } });
  });
});

describe('query measures', () => {
  it('expands fragments where they are spread and multiplies inside lists', () => {
    const doc = parse(`
      fragment R on Route { distance advisories { kind } }
      { directions(input: {activity: WALKING, waypoints: []}) { routes { ...R } } }`);
    // directions 1, routes 1, distance 10, advisories 10, kind 100.
    expect(measureDocument(schema, doc)).toEqual({ depth: 4, cost: 1 + 1 + LIST_FACTOR + LIST_FACTOR + LIST_FACTOR * LIST_FACTOR });
  });
});

describe('the schema', () => {
  it('refuses a Query field without @pkeyScope(scope: "data"), one without a resolver, and a resolver without a field', () => {
    const unscoped = SDL.replace('ways(input: WaysInput!): [Way!]! @pkeyScope(scope: "data")', 'ways(input: WaysInput!): [Way!]!');
    expect(unscoped).not.toBe(SDL);
    expect(() => buildDataSchema(unscoped, resolvers)).toThrow(/Query\.ways must declare @pkeyScope/);
    const { ways: _ways, ...missing } = resolvers;
    expect(() => buildDataSchema(SDL, missing)).toThrow(/Query\.ways has no resolver/);
    expect(() => buildDataSchema(SDL, { ...resolvers, extra: () => null })).toThrow(/resolver extra names no field/);
  });

  it('is valid GraphQL SDL on its own', () => {
    expect(() => buildSchema(SDL)).not.toThrow();
  });
});
