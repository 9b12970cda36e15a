// The Data API's executable schema: the SDL file beside this module (the contract, served verbatim at
// GET /graphql/schema.graphql) with a resolver attached to every field of Query. Checked once at start:
// every Query field declares @pkeyScope(scope: "data") and has a resolver, and no resolver names a field
// the SDL lacks.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, getDirectiveValues, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { REPO_ROOT } from '../paths.js';

/** The SDL as shipped in the source tree (the compiled server reads the same file). */
export const SCHEMA_PATH = join(REPO_ROOT, 'server', 'data-api', 'schema.graphql');

export function readSchemaText(path = SCHEMA_PATH): string {
  return readFileSync(path, 'utf8');
}

/** The scope every Query field must declare (spec: every public operation declares its scope). */
export const DATA_SCOPE = 'data';

// biome-ignore lint/suspicious/noExplicitAny: each resolver takes the arguments its own field declares
export type QueryResolvers = Record<string, GraphQLFieldResolver<unknown, any, any>>;

/** Builds the schema from `sdl` and attaches `resolvers` to Query's fields; throws TypeError on a mismatch. */
export function buildDataSchema(sdl: string, resolvers: QueryResolvers): GraphQLSchema {
  const schema = buildSchema(sdl);
  const query = schema.getQueryType();
  if (!query) throw new TypeError('data-api: the schema has no Query type');
  const directive = schema.getDirective('pkeyScope');
  if (!directive) throw new TypeError('data-api: the schema does not declare @pkeyScope');
  const fields = query.getFields();
  for (const [name, field] of Object.entries(fields)) {
    const scope = field.astNode ? getDirectiveValues(directive, field.astNode)?.['scope'] : undefined;
    if (scope !== DATA_SCOPE) throw new TypeError(`data-api: Query.${name} must declare @pkeyScope(scope: "${DATA_SCOPE}")`);
    const resolve = resolvers[name];
    if (!resolve) throw new TypeError(`data-api: Query.${name} has no resolver`);
    field.resolve = resolve;
  }
  for (const name of Object.keys(resolvers)) {
    if (!fields[name]) throw new TypeError(`data-api: resolver ${name} names no field of Query`);
  }
  return schema;
}
