// Composition root of the HTTP application: stores, credentials, access control, the route table and
// the request pipeline. Never listens (see serve.ts), so tests can drive it in-process too.

import { join } from 'node:path';
import type { Repositories } from '../data/repositories.js';
import { createAccessControl } from './auth/access.js';
import { type ChangeEventBus, MemoryChangeEventBus } from './core/change-events.js';
import { createPolicy, type Policy } from './core/policy.js';
import type { UnitOfWork } from './core/unit-of-work.js';
import { authRoutes } from './auth/auth-routes.js';
import { createQuotaGate, type QuotaGate } from './auth/quota.js';
import { TokenSigner } from './auth/signed-token.js';
import { signInThrottle } from './auth/sign-in-throttle.js';
import { MemoryWindowCounter, type WindowCounter } from './auth/window-counter.js';
import type { Config } from './config.js';
import type { Storage } from './storage.js';
import { createPipeline, type Handle } from './http/pipeline.js';
import type { RouteDef } from './http/route.js';
import { Router } from './http/router.js';
import type { Logger } from './logger.js';
import { managementOperations } from './management/management-operations.js';
import { managementRoutes } from './management/management-routes.js';
import { MANAGEMENT_DOCUMENT, openApiRoute } from './openapi/openapi-routes.js';
import { REPO_ROOT } from './paths.js';
import { createDataApi, type DataApi } from './data-api/data-api.js';
import { collectionRoutes } from './studio/collections/collection-routes.js';
import { itineraryRoutes } from './studio/itineraries/itinerary-routes.js';
import { ItineraryViewCache } from './studio/itineraries/itinerary-view-cache.js';
import { studioRoutes } from './studio/operations.js';
import { createStudioOperations, type StudioOperations } from './studio/studio-operations.js';
import { shareRoutes } from './studio/shares/share-routes.js';
import type { StudioDeps } from './studio/studio-deps.js';
import { transferRoutes } from './studio/transfer/transfer-routes.js';
import { zoneRoutes } from './studio/zones/zone-routes.js';
import type { WorkerPool } from './pool/pool.js';
import { regionalPool } from './regions/regional-pool.js';
import { type RegionSet, servedRegions } from './regions/region-set.js';
import { SecretBox } from './management/secret-box.js';
import { mcpRoutes } from './mcp/mcp-routes.js';
import { agentOperations } from './agent/agent.js';
import { agentRoutes } from './agent/agent-routes.js';
import { clientRegistry, httpsMetadataFetcher } from './oauth/oauth-clients.js';
import { oauthRoutes } from './oauth/oauth-routes.js';
import { argumentChecker, mcpTools } from './mcp/mcp-tools.js';
import { embedCredentialRoutes } from './embed/embed-credential.js';
import { embedOperation } from './embed/embed-page.js';
import { embedRoutes, mapLibreAssets } from './embed/embed-routes.js';
import { WEB_DIR } from './embed/web-pages.js';
import { studioCatalog, studioCatalogRoutes } from './embed/studio-catalog.js';
import { LiveHub } from './live/live-hub.js';
import { liveOperation, liveRoutes } from './live/live-routes.js';
import { plannerRoutes } from './planner/planner-routes.js';
import { TileCache } from './tiles/tile-cache.js';
import { overlayTileOperations } from './tiles/overlay-tiles.js';
import { overlayTileRoutes, trailTileRoutes } from './tiles/tile-routes.js';
import { trailTileOperations } from './tiles/trail-tiles.js';
import { systemRoutes } from './system/system-routes.js';
import { siteAssets, siteRoutes } from './site/site-routes.js';

/** The counters behind rate limits and quotas (in memory by default; swap for a shared store to scale out). */
export interface Counters {
  sessionIp: WindowCounter;
  sessionFailures: WindowCounter;
  quota: WindowCounter;
  oauthRegistrations: WindowCounter;
  /** Failed sign-ins (POST /v1/login and the OAuth page alike) per client address and per account. */
  signInFailuresByAddress: WindowCounter;
  signInFailuresByAccount: WindowCounter;
}

export interface AppDeps {
  config: Config;
  /** The SQLite file or PostgreSQL (./storage.ts). */
  storage: Storage;
  logger: Logger;
  /** Overrides of the default in-memory counters (tests inject failing ones). */
  counters?: Partial<Counters>;
  /** The process's worker pool (routing); tests that need no routing may leave it out. */
  pool?: WorkerPool;
  /** The regions served (server/regions/); without it, the one region the workers load themselves. */
  regions?: RegionSet;
  /** The HMAC key of every signed token (./auth/signing-secret.ts resolves it). */
  signingSecret: string;
  /** The change-event bus (defaults to an in-memory one). */
  events?: ChangeEventBus;
  now?: () => number;
  /** Routes a harness adds to the table, given the Data API (the benchmarks' diagnostic routes); none in production. */
  extraRoutes?: (parts: { dataApi: DataApi }) => RouteDef[];
}

export interface App {
  router: Router;
  /** The worker pool as the operations use it: a task that answers from a region goes to that region. */
  pool: WorkerPool | undefined;
  handle: Handle;
  stores: Repositories;
  quota: QuotaGate;
  signer: TokenSigner;
  writes: UnitOfWork;
  /** Committed changes, announced after each commit (live channel, tile caches and webhooks subscribe). */
  events: ChangeEventBus;
  policy: Policy;
  /** Every Studio operation: what REST binds, seeding calls, GraphQL reads through, and later MCP and the agent. */
  operations: StudioOperations;
  /** The Data API: its operations, schema and compiled-query cache. */
  dataApi: DataApi;
  /** The Tile API: its operations and the cache of encoded tiles. */
  tiles: TileApi;
  /** The live channel's hub: attach the server's publish once it listens. */
  live: LiveHub;
}

export interface TileApi {
  cache: TileCache;
  trails: ReturnType<typeof trailTileOperations>;
  overlays: ReturnType<typeof overlayTileOperations>;
}

/** Limits of session creation (spec, Limits). */
export const SESSION_IP_LIMIT = 60;
export const SESSION_FAILURE_LIMIT = 10;
/** OAuth client registrations per client IP per minute (each stores a row: a flood would fill the disk). */
export const OAUTH_REGISTRATION_LIMIT = 30;
/** Failed sign-ins per client address and per account per minute, on every sign-in path, before the next must wait. */
export const SIGN_IN_FAILURE_LIMIT = 10;

/** The pages' static files (kept in the source tree, served from memory): the site's, and the studio's front end. */
const ASSET_DIRS = [join(REPO_ROOT, 'server', 'embed', 'assets'), WEB_DIR];

export function buildApp(deps: AppDeps): App {
  const { config, logger } = deps;
  const stores = deps.storage.repositories;
  const { shareLinks } = stores;
  const { signingSecret } = deps;
  const signer = new TokenSigner(signingSecret);
  const counters: Counters = {
    sessionIp: deps.counters?.sessionIp ?? new MemoryWindowCounter(),
    sessionFailures: deps.counters?.sessionFailures ?? new MemoryWindowCounter(),
    quota: deps.counters?.quota ?? new MemoryWindowCounter(),
    oauthRegistrations: deps.counters?.oauthRegistrations ?? new MemoryWindowCounter(),
    signInFailuresByAddress: deps.counters?.signInFailuresByAddress ?? new MemoryWindowCounter(),
    signInFailuresByAccount: deps.counters?.signInFailuresByAccount ?? new MemoryWindowCounter(),
  };
  const signIns = signInThrottle({
    byAddress: counters.signInFailuresByAddress,
    byAccount: counters.signInFailuresByAccount,
    limit: SIGN_IN_FAILURE_LIMIT,
    logger,
  });
  const events = deps.events ?? new MemoryChangeEventBus((error) => logger.error('change event listener failed', { error: String(error) }));
  const writes = deps.storage.unitOfWork({
    events,
    onCommitError: (error) => logger.error('group commit failed', { error: String(error) }),
  });
  const quota = createQuotaGate({ counter: counters.quota, usage: stores.usage, writes, logger, now: deps.now });
  const authenticate = createAccessControl({
    apiKeys: stores.apiKeys,
    organizations: stores.organizations,
    memberships: stores.memberships,
    users: stores.users,
    shareLinks,
    signer,
    sessionIpCounter: counters.sessionIp,
    sessionIpLimit: SESSION_IP_LIMIT,
    quota,
    oauthGrants: stores.oauth,
    publicBaseUrl: config.publicBaseUrl,
    logger,
  });
  const auth = authRoutes({
    apiKeys: stores.apiKeys,
    organizations: stores.organizations,
    users: stores.users,
    signer,
    sessionFailureCounter: counters.sessionFailures,
    sessionFailureLimit: SESSION_FAILURE_LIMIT,
    signIns,
    sessionTtlSeconds: config.sessionTtlSeconds,
    logger,
    now: deps.now,
  });

  const policy = createPolicy(stores);
  // Tasks that answer from a region go to the region their coordinates lie in (one region: the workers' own).
  const pool = deps.pool && deps.regions ? regionalPool(deps.pool, deps.regions) : deps.pool;
  const regions = servedRegions(deps.regions, deps.pool);
  const studio: StudioDeps = { stores, writes, policy, pool, views: new ItineraryViewCache(), config, logger };
  const operations = createStudioOperations(studio);
  const studioApi: RouteDef[] = [
    auth.postSession,
    ...shareRoutes(operations.shares),
    ...collectionRoutes(operations.collections),
    ...zoneRoutes(operations.zones),
    ...itineraryRoutes(operations.itineraries),
    ...transferRoutes(operations.transfer, config),
  ];
  const dataApi = createDataApi({ config, logger, pool, regions, studio: operations });
  const tileCache = new TileCache(config.tileCacheBytes);
  const tiles: TileApi = {
    cache: tileCache,
    trails: trailTileOperations({
      pool,
      cache: tileCache,
      regions,
    }),
    overlays: overlayTileOperations({ pool, cache: tileCache, studio: operations, events }),
  };
  const live = new LiveHub(events);
  // The MCP tools: what an MCP client and the studio's agent may call (the same operations, the same rules).
  const tools = mcpTools({ studio: operations, data: dataApi.operations });
  const secrets = new SecretBox(signingSecret, 'organization ai api key');
  const routes: RouteDef[] = [
    ...systemRoutes(ASSET_DIRS, { ...mapLibreAssets(), ...siteAssets() }, () => {
      const problems = deps.regions?.problems ?? [];
      const served = deps.regions?.regions.map((r) => r.name) ?? [];
      // Not ready with a folder it cannot load, or with nothing to serve (an empty REGIONS_PATH).
      return { ready: problems.length === 0 && (deps.regions === undefined || served.length > 0), regions: served, problems };
    }),
    ...siteRoutes(),
    ...embedRoutes(
      embedOperation({
        studio: operations,
        organizations: stores.organizations,
        signer,
        embedTokenTtlSeconds: config.embedTokenTtlSeconds,
      }),
    ),
    ...embedCredentialRoutes({ signer, embedTokenTtlSeconds: config.embedTokenTtlSeconds }),
    ...studioCatalogRoutes(studioCatalog({ organizations: stores.organizations })),
    ...liveRoutes(liveOperation({ studio: operations, hub: live })),
    ...plannerRoutes(),
    openApiRoute(config, () => router.routes),
    openApiRoute(config, () => router.routes, MANAGEMENT_DOCUMENT),
    auth.login,
    ...studioRoutes(studioApi),
    ...dataApi.routes,
    ...mcpRoutes({ tools, logger }),
    ...agentRoutes(
      agentOperations({ organizations: stores.organizations, secrets, tools, checkArguments: argumentChecker(tools), logger }),
    ),
    ...oauthRoutes({
      oauth: stores.oauth,
      users: stores.users,
      memberships: stores.memberships,
      apiKeys: stores.apiKeys,
      organizations: stores.organizations,
      signer,
      clients: clientRegistry({
        oauth: stores.oauth,
        fetchDocument: httpsMetadataFetcher(config.oauthPrivateClientUrls),
        write: (fn) => writes.write(fn),
      }),
      writes,
      registrationCounter: counters.oauthRegistrations,
      registrationLimit: OAUTH_REGISTRATION_LIMIT,
      signIns,
      publicBaseUrl: config.publicBaseUrl,
      logger,
    }),
    ...trailTileRoutes(tiles.trails),
    ...overlayTileRoutes(tiles.overlays),
    ...managementRoutes(managementOperations({ stores, writes, secrets })),
    ...(deps.extraRoutes?.({ dataApi }) ?? []),
  ];
  const router = new Router(routes);
  const handle = createPipeline({ router, config, logger, authenticate });
  return {
    router,
    pool,
    handle,
    stores,
    quota,
    signer,
    writes,
    events,
    policy,
    operations,
    dataApi,
    tiles,
    live,
  };
}
