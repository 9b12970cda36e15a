// Composition of the HTTP application: the route table and the request pipeline. Never listens.

import { join } from 'node:path';
import type { Database } from '../data/db.js';
import type { Config } from './config.js';
import { createPipeline, type Authenticate, type Handle } from './http/pipeline.js';
import type { RouteDef } from './http/route.js';
import { Router } from './http/router.js';
import { ApiError } from './errors.js';
import type { Logger } from './logger.js';
import { REPO_ROOT } from './paths.js';
import { CollectionCreateParams } from './studio/collections/collection-schemas.js';
import { studioRoutes } from './studio/operations.js';
import { diagnosticRoutes } from './system/diagnostic-routes.js';
import { systemRoutes } from './system/system-routes.js';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  authenticate?: Authenticate;
}

export interface App {
  router: Router;
  handle: Handle;
}

/** The embed page's static files (kept in the source tree, served from memory). */
const ASSET_DIR = join(REPO_ROOT, 'server', 'embed', 'assets');

export function buildApp(deps: AppDeps): App {
  // Studio operations whose request schemas exist; their handlers land with the Studio API.
  const declaredStudio: RouteDef[] = [
    {
      op: 'postCollection',
      method: 'POST',
      path: '/v1/collections',
      scope: 'resources',
      public: true,
      body: CollectionCreateParams,
      status: 201,
      handler: () => {
        throw new ApiError('NOT_IMPLEMENTED');
      },
    },
  ];
  const routes: RouteDef[] = [
    ...systemRoutes(ASSET_DIR),
    ...studioRoutes(declaredStudio),
    ...(deps.config.diagnosticRoutes ? diagnosticRoutes() : []),
  ];
  const router = new Router(routes);
  const handle = createPipeline({ router, config: deps.config, logger: deps.logger, authenticate: deps.authenticate });
  return { router, handle };
}
