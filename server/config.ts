// Runtime configuration: one defaults object, each field overridable from the environment.

export interface Config {
  /** TCP port of the single listener serving all four hosts (0 = any free port). */
  port: number;
  /** Interface to bind. */
  host: string;
  /** SQLite file holding all state (when `databaseUrl` is empty). */
  databasePath: string;
  /** `postgres://…`: all state in PostgreSQL, shared with the other nodes (scale-out); empty: the SQLite file. */
  databaseUrl: string;
  /** Region folder from `npm run import`; empty = the built-in demo region (or REGIONS_PATH's regions). */
  regionPath: string;
  /** A folder of region folders, all served, each added, replaced or removed live; empty = REGION_PATH. */
  regionsPath: string;
  /** Ms between looks at the region folders for a region added, replaced or removed (0: never). */
  regionsPollMs: number;
  /** Largest JSON request body in bytes (413 past it). */
  bodyLimit: number;
  /** Largest import body in bytes (GPX/KML/GeoJSON uploads). */
  importBodyLimit: number;
  /** Time budget of one request in ms; a 5xx or an overrun past it is answered 504. */
  requestBudgetMs: number;
  /** Time budget of an itinerary import in ms (parsing a 10 MiB GPX takes seconds). */
  importBudgetMs: number;
  /** Longest wait for in-flight requests at shutdown before closing anyway, in ms. */
  shutdownGraceMs: number;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  trustProxy: boolean;
  /**
   * Serve through node:http instead of uWebSockets.js: about a third of the throughput, but HTTP/1.0 is
   * served and every malformed request gets an answer (docs/operating.md, "HTTP edge cases"). For direct
   * exposure to clients that speak HTTP/1.0; behind a proxy speaking HTTP/1.1 to Cairn it is not needed.
   */
  httpCompat: boolean;
  /** Absolute origins used only to write links; empty = the listener's own origin. */
  publicBaseUrl: string;
  publicAuthUrl: string;
  publicDataUrl: string;
  publicAppUrl: string;
  /** Log level: `info` logs every request, `error` only failures, `silent` nothing. */
  logLevel: 'info' | 'error' | 'silent';
  /**
   * OAuth client ID metadata documents may be fetched from loopback and private addresses (a client on the same
   * network, tests). Off by default: the server would otherwise fetch any internal URL an anonymous caller names.
   */
  oauthPrivateClientUrls: boolean;
  /** `redis://…`: counters and change events shared with the other nodes (scale-out); empty: in memory. */
  redisUrl: string;
  /** What this deployment's Redis keys and channel start with (several deployments may share one Redis). */
  redisPrefix: string;
  /** Seed the demo organization when the database holds none. */
  seedDemo: boolean;
  /** Data API: deepest nesting of fields a document may have (the standard introspection query needs 15). */
  graphqlMaxDepth: number;
  /** Data API: highest cost a document may have (docs/data-api.md, "Limits"). */
  graphqlMaxCost: number;
  /** Data API: distinct documents kept compiled (least recently used dropped first). */
  graphqlCacheSize: number;
  /** Seconds a session token lives (SESSION_TTL_SECONDS): 300, as the contract says; only tests of renewal change it. */
  sessionTtlSeconds: number;
  /** Seconds an embed page's own credential lives (EMBED_TOKEN_TTL_SECONDS): 600; the page renews it before the end. */
  embedTokenTtlSeconds: number;
  /** Bytes of encoded tiles kept in memory (TILE_CACHE_MB, default 64 MiB). */
  tileCacheBytes: number;
  /** Worker threads of the geometry pool (WORKER_THREADS; 0 = one per core). Several nodes on one machine share its cores. */
  workerThreads: number;
  /**
   * µs the event loop polls rather than sleeps after handing a task to a worker, while its answer is due and a core
   * is free (POOL_POLL_US; 0 = never): the answer is read ~0.1 ms sooner (server/pool/loop-poller.ts).
   */
  poolPollUs: number;
}

export const DEFAULTS: Config = {
  port: 8080,
  host: '0.0.0.0',
  databasePath: 'var/platform.db',
  databaseUrl: '',
  regionPath: '',
  regionsPath: '',
  regionsPollMs: 2000,
  bodyLimit: 1024 * 1024,
  importBodyLimit: 10 * 1024 * 1024,
  requestBudgetMs: 10_000,
  importBudgetMs: 60_000,
  shutdownGraceMs: 15_000,
  trustProxy: false,
  httpCompat: false,
  publicBaseUrl: '',
  publicAuthUrl: '',
  publicDataUrl: '',
  publicAppUrl: '',
  logLevel: 'info',
  oauthPrivateClientUrls: false,
  redisUrl: '',
  redisPrefix: 'cairn:',
  seedDemo: true,
  graphqlMaxDepth: 15,
  graphqlMaxCost: 5000,
  graphqlCacheSize: 1000,
  tileCacheBytes: 64 * 1024 * 1024,
  workerThreads: 0,
  poolPollUs: 2000,
  sessionTtlSeconds: 300,
  embedTokenTtlSeconds: 600,
};

function int(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new TypeError(`${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['0', 'false', 'off', 'no']);

/** An on/off setting; anything else is refused rather than read as off. */
function bool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const lower = value.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  throw new TypeError(`${name} must be on or off (1/0, true/false, yes/no), got "${value}"`);
}

/** DATABASE_URL, when set, names a PostgreSQL database (the only other engine there is). */
function databaseUrl(value: string | undefined): string {
  if (!value) return '';
  if (!/^postgres(ql)?:\/\//.test(value)) throw new TypeError('DATABASE_URL must be a postgres:// URL (or unset for the SQLite file)');
  return value;
}

/** Reads the configuration from an environment (process.env by default). Throws TypeError naming a bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? DEFAULTS.logLevel;
  if (logLevel !== 'info' && logLevel !== 'error' && logLevel !== 'silent') {
    throw new TypeError(`LOG_LEVEL must be info, error or silent, got "${logLevel}"`);
  }
  return {
    port: int('PORT', env.PORT, DEFAULTS.port, 0),
    host: env.HOST || DEFAULTS.host,
    databasePath: env.DATABASE_PATH || DEFAULTS.databasePath,
    databaseUrl: databaseUrl(env.DATABASE_URL),
    regionPath: env.REGION_PATH || DEFAULTS.regionPath,
    regionsPath: env.REGIONS_PATH || DEFAULTS.regionsPath,
    regionsPollMs: int('REGIONS_POLL_MS', env.REGIONS_POLL_MS, DEFAULTS.regionsPollMs, 0),
    bodyLimit: int('BODY_LIMIT', env.BODY_LIMIT, DEFAULTS.bodyLimit, 1),
    importBodyLimit: int('IMPORT_BODY_LIMIT', env.IMPORT_BODY_LIMIT, DEFAULTS.importBodyLimit, 1),
    requestBudgetMs: int('REQUEST_BUDGET_MS', env.REQUEST_BUDGET_MS, DEFAULTS.requestBudgetMs, 1),
    importBudgetMs: int('IMPORT_BUDGET_MS', env.IMPORT_BUDGET_MS, DEFAULTS.importBudgetMs, 1),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, DEFAULTS.shutdownGraceMs, 0),
    trustProxy: bool('TRUST_PROXY', env.TRUST_PROXY, DEFAULTS.trustProxy),
    httpCompat: bool('HTTP_COMPAT', env.HTTP_COMPAT, DEFAULTS.httpCompat),
    publicBaseUrl: env.PUBLIC_BASE_URL ?? '',
    publicAuthUrl: env.PUBLIC_AUTH_URL ?? '',
    publicDataUrl: env.PUBLIC_DATA_URL ?? '',
    publicAppUrl: env.PUBLIC_APP_URL ?? '',
    logLevel,
    redisUrl: env.REDIS_URL ?? '',
    redisPrefix: env.REDIS_PREFIX || DEFAULTS.redisPrefix,
    oauthPrivateClientUrls: bool('OAUTH_PRIVATE_CLIENT_URLS', env.OAUTH_PRIVATE_CLIENT_URLS, DEFAULTS.oauthPrivateClientUrls),
    seedDemo: bool('SEED_DEMO', env.SEED_DEMO, DEFAULTS.seedDemo),
    graphqlMaxDepth: int('GRAPHQL_MAX_DEPTH', env.GRAPHQL_MAX_DEPTH, DEFAULTS.graphqlMaxDepth, 1),
    graphqlMaxCost: int('GRAPHQL_MAX_COST', env.GRAPHQL_MAX_COST, DEFAULTS.graphqlMaxCost, 1),
    graphqlCacheSize: int('GRAPHQL_CACHE_SIZE', env.GRAPHQL_CACHE_SIZE, DEFAULTS.graphqlCacheSize, 1),
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', env.SESSION_TTL_SECONDS, DEFAULTS.sessionTtlSeconds, 5),
    embedTokenTtlSeconds: int('EMBED_TOKEN_TTL_SECONDS', env.EMBED_TOKEN_TTL_SECONDS, DEFAULTS.embedTokenTtlSeconds, 5),
    tileCacheBytes: int('TILE_CACHE_MB', env.TILE_CACHE_MB, DEFAULTS.tileCacheBytes / (1024 * 1024), 1) * 1024 * 1024,
    workerThreads: int('WORKER_THREADS', env.WORKER_THREADS, DEFAULTS.workerThreads, 0),
    poolPollUs: int('POOL_POLL_US', env.POOL_POLL_US, DEFAULTS.poolPollUs, 0),
  };
}
