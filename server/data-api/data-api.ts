// Assembles the Data API from the composition root's dependencies: its operations, the executable schema
// (SDL + resolvers), the compiled-query cache and the HTTP routes.

import type { GraphQLSchema } from 'graphql';
import type { WorkerPool } from '../pool/pool.js';
import type { ServedRegions } from '../regions/region-set.js';
import type { Config } from '../config.js';
import type { RouteDef } from '../http/route.js';
import type { Logger } from '../logger.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import { createDataOperations, type DataOperations } from './data-operations.js';
import { graphqlRoutes } from './graphql-routes.js';
import { QueryCache } from './query-cache.js';
import { queryResolvers } from './resolvers.js';
import { buildDataSchema, type QueryResolvers, readSchemaText } from './schema.js';

export interface DataApi {
  operations: DataOperations;
  schema: GraphQLSchema;
  cache: QueryCache;
  /** Query's resolvers (the schema holds them; the benchmark's plain-route peer calls them too). */
  resolvers: QueryResolvers;
  routes: RouteDef[];
}

/** Most tokens a document may hold: far above any useful query, low enough to bound parsing work. */
const MAX_TOKENS = 20_000;

export function createDataApi(deps: {
  config: Config;
  logger: Logger;
  pool: WorkerPool | undefined;
  regions?: ServedRegions;
  studio: StudioOperations;
}): DataApi {
  const operations = createDataOperations({ pool: deps.pool, ...(deps.regions ? { regions: deps.regions } : {}), studio: deps.studio });
  const sdl = readSchemaText();
  const resolvers = queryResolvers(operations);
  const schema = buildDataSchema(sdl, resolvers);
  const cache = new QueryCache(schema, {
    maxEntries: deps.config.graphqlCacheSize,
    maxDepth: deps.config.graphqlMaxDepth,
    maxCost: deps.config.graphqlMaxCost,
    maxTokens: MAX_TOKENS,
  });
  return { operations, schema, cache, resolvers, routes: graphqlRoutes({ schema, sdl, cache, logger: deps.logger }) };
}
