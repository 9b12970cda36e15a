// The Data API's HTTP surface: POST /graphql (JSON body {query, variables, operationName}), GET /graphql
// (the same as query parameters; the schema has no mutations, so a GET can only read) and the SDL at
// GET /graphql/schema.graphql (public, unmetered). Access control has run before a handler does (key,
// session, scope, product, quota: 401/402/403/429 before any resolver). Here: the request's own framing
// (400 BAD_REQUEST), the document's fate in the compiled-query cache (400 BAD_REQUEST or VALIDATION_FAILED,
// no `data`), then execution, answered 200 with `data` and any `errors`. Every answer after the quota was
// charged carries the RateLimit-* headers.

import type { GraphQLSchema } from 'graphql';
import type { Access } from '../auth/access.js';
import { rateLimitHeaders } from '../auth/quota.js';
import { ApiError } from '../errors.js';
import { operationContext } from '../http/operation-context.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import type { Reply, RequestContext, RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import { executionErrors, variablesError } from './graphql-errors.js';
import type { QueryCache } from './query-cache.js';
import type { DataContext } from './resolvers.js';

export interface GraphqlRouteDeps {
  schema: GraphQLSchema;
  /** The SDL text, served as it is in the repository. */
  sdl: string;
  cache: QueryCache;
  logger: Logger;
}

interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

const badRequest = (key: string) => ApiError.withMessage('BAD_REQUEST', `BAD_REQUEST.${key}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The three members of a GraphQL request, checked for their JSON types (the document itself is the cache's). */
function graphqlRequest(query: unknown, variables: unknown, operationName: unknown): GraphqlRequest {
  if (typeof query !== 'string' || query.trim() === '') throw badRequest('graphql_query');
  if (variables !== undefined && variables !== null && !isObject(variables)) throw badRequest('graphql_variables');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    throw badRequest('graphql_operation_name');
  return { query, variables: variables ?? undefined, operationName: operationName || undefined };
}

function fromBody(body: unknown): GraphqlRequest {
  if (!isObject(body)) throw badRequest('graphql_query');
  return graphqlRequest(body['query'], body['variables'], body['operationName']);
}

/** GET: `variables` is JSON text; a parameter given twice is not one value. */
function fromQuery(query: Record<string, unknown>): GraphqlRequest {
  const one = (name: string, key: string): string | undefined => {
    const v = query[name];
    if (Array.isArray(v)) throw badRequest(key);
    return v as string | undefined;
  };
  const text = one('query', 'graphql_query');
  const rawVariables = one('variables', 'graphql_variables');
  let variables: unknown;
  if (rawVariables !== undefined && rawVariables !== '') {
    if (jsonNestsDeeperThan(rawVariables)) throw ApiError.withMessage('BAD_REQUEST', 'BAD_REQUEST.json_too_deep', { max: MAX_JSON_DEPTH });
    try {
      variables = JSON.parse(rawVariables);
    } catch {
      throw badRequest('graphql_variables');
    }
  }
  return graphqlRequest(text, variables, one('operationName', 'graphql_operation_name'));
}

const SCHEMA_CONTENT_TYPE = 'application/graphql; charset=utf-8';

export function graphqlRoutes(deps: GraphqlRouteDeps): RouteDef[] {
  const { cache, logger } = deps;

  const execute = async (ctx: RequestContext, read: () => GraphqlRequest): Promise<Reply> => {
    const caller = ctx.access as Access;
    const quota = caller.kind === 'key' ? caller.quota : undefined;
    const headers = quota ? rateLimitHeaders(quota) : [];
    try {
      const request = read();
      const { compiled, document } = cache.get(request.query, request.operationName);
      const context: DataContext = { caller, operation: operationContext(ctx) };
      const variables = request.variables ?? {};
      const result = await compiled.query(undefined, context, variables);
      // Variables that do not fit their types are refused before anything runs: no `data` at all.
      if (!('data' in result) && result.errors) throw variablesError(deps.schema, document, request.operationName, variables);
      const json: { data: unknown; errors?: unknown[] } = { data: result.data ?? null };
      if (result.errors && result.errors.length > 0) {
        json.errors = executionErrors(result.errors, ctx.lang, (error) =>
          logger.error('graphql resolver failed', {
            requestId: ctx.requestId,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
        );
      }
      return { status: 200, headers, json };
    } catch (error) {
      throw error instanceof ApiError ? error.withHeaders(headers) : error;
    }
  };

  return [
    {
      op: 'postGraphql',
      method: 'POST',
      path: '/graphql',
      scope: 'data',
      writes: false,
      handler: (ctx) => execute(ctx, () => fromBody(ctx.body)),
    },
    {
      op: 'getGraphql',
      method: 'GET',
      path: '/graphql',
      scope: 'data',
      writes: false,
      handler: (ctx) => execute(ctx, () => fromQuery(ctx.query)),
    },
    {
      op: 'getGraphqlSchema',
      method: 'GET',
      path: '/graphql/schema.graphql',
      scope: 'public',
      writes: false,
      handler: () => ({ status: 200, body: deps.sdl, contentType: SCHEMA_CONTENT_TYPE }),
    },
  ];
}
