// One serving process: config → database (migrated, demo-seeded) → app → listen; SIGTERM/SIGINT drain and close.
// main.ts runs it as Cairn; the benchmarks' diagnostic server (bench/diagnostics/main.ts) runs it with routes added.

import { availableParallelism } from 'node:os';
import { checkRegionFolder } from '../data/region/region-folder.js';
import { createPool } from './pool/pool.js';
import { RegionSet } from './regions/region-set.js';
import { type AppDeps, buildApp } from './app.js';
import { resolveSigningSecret } from './auth/signing-secret.js';
import { loadConfig } from './config.js';
import { exitIfPortInUse } from './http/http-server.js';
import { listenNode } from './http/node-adapter.js';
import { listen, loadNativeUws } from './http/uws-adapter.js';
import { createLogger } from './logger.js';
import { seedOnFirstStart } from './seeding.js';
import { openStorage } from './storage.js';
import { connectRedis, RedisChangeEventBus, RedisWindowCounter } from './scale/redis-adapters.js';
import { startLockSweeper } from './studio/itineraries/lock-sweeper.js';

export interface ServeOptions {
  /** Routes added to the table (never public); the production entry adds none. */
  extraRoutes?: AppDeps['extraRoutes'];
}

export async function serve(options: ServeOptions = {}): Promise<void> {
  const uws = loadNativeUws(); // first: fail loudly before touching anything else
  const config = loadConfig();
  // A bad REGION_PATH stops the start here, not the first request that needs a worker.
  if (config.regionPath && !config.regionsPath) checkRegionFolder(config.regionPath);
  const logger = createLogger(config.logLevel);
  // The SQLite file, or PostgreSQL when DATABASE_URL names one (migrated here, one node at a time).
  const storage = await openStorage(config);
  const signingSecret = await resolveSigningSecret(process.env.SESSION_SECRET, storage.repositories.settings);
  // One pool for the process, every worker started now. Each region's graph, places and prepared routing are read
  // once into a routing memory of its own, which every worker searches in place (memory does not grow with
  // WORKER_THREADS), and handed to every worker before the server listens: no request waits for a load.
  const t0 = performance.now();
  const threads = config.workerThreads || availableParallelism();
  const pool = createPool({
    minThreads: threads,
    maxThreads: threads,
    pollUs: config.poolPollUs,
    // The workers' own region is never loaded by the server's tasks: each names its region.
    env: { ...process.env, REGION_PATH: undefined, REGION_WARM: undefined },
    onWorkerError: (error) =>
      logger.error('worker failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  });
  const regions = await RegionSet.open({
    pool,
    logger,
    regionsPath: config.regionsPath || undefined,
    regionPath: config.regionPath || undefined,
    pollMs: config.regionsPollMs,
  });
  logger.info('regions ready', {
    regions: regions.regions.map((r) => r.name),
    unusable: regions.problems.length,
    workers: pool.piscina.threads.length,
    ms: Math.round(performance.now() - t0),
  });
  // Scaled out (REDIS_URL): the counters and change events every node must share; otherwise in memory.
  const shared = config.redisUrl ? await sharedState(config.redisUrl, config.redisPrefix, logger) : undefined;
  const app = buildApp({
    config,
    logger,
    storage,
    pool,
    regions,
    signingSecret,
    extraRoutes: options.extraRoutes,
    ...(shared ? { counters: shared.counters, events: shared.events } : {}),
  });
  // Usage counts are aggregated in memory and written once a second (and at shutdown).
  const usageFlush = setInterval(() => app.quota.flush(), 1000);
  usageFlush.unref();
  const stopLockSweeper = startLockSweeper(app, (error) => logger.error('lock sweep failed', { error: String(error) }));
  const listenOptions = { host: config.host, port: config.port, trustProxy: config.trustProxy };
  const server = await (config.httpCompat ? listenNode(app.handle, listenOptions) : listen(uws, app.handle, listenOptions)).catch(
    exitIfPortInUse,
  );
  app.live.attach(server.publish, server.subscribers);
  const origin = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${server.port}`;
  logger.info('listening', { url: origin, port: server.port, database: storage.description });
  // Seeding runs while the server already answers; shutdown waits for it before closing the pool and database.
  const seeding = config.seedDemo
    ? seedOnFirstStart(app, {
        origin,
        onDemoRegion: !config.regionPath && !config.regionsPath,
        pool: app.pool ?? pool,
        logger,
        print: (text) => process.stdout.write(text),
      })
    : Promise.resolve();
  seeding.catch((error: unknown) => logger.error('demo seeding failed', { error: String(error) }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal, inFlight: server.inFlight() });
    server.stopAccepting();
    await server.drain(config.shutdownGraceMs);
    await seeding.catch(() => undefined);
    clearInterval(usageFlush);
    stopLockSweeper();
    app.quota.flush();
    await app.writes.flush();
    await regions.close();
    await pool.close();
    await shared?.close();
    await storage.close();
    logger.info('stopped', { signal });
    logger.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The Redis side of a scaled-out node: one connection for the counters and publishing, one for subscribing. */
async function sharedState(url: string, prefix: string, logger: ReturnType<typeof createLogger>) {
  const onError = (error: unknown) => logger.error('redis', { error: String(error) });
  const redis = await connectRedis(url, onError);
  const events = await RedisChangeEventBus.create(redis, onError, prefix);
  const counter = (name: string) => new RedisWindowCounter(redis, name, 60_000, prefix);
  return {
    counters: {
      sessionIp: counter('session-ip'),
      sessionFailures: counter('session-failures'),
      quota: counter('quota'),
      oauthRegistrations: counter('oauth-registrations'),
      signInFailuresByAddress: counter('sign-in-failures-address'),
      signInFailuresByAccount: counter('sign-in-failures-account'),
    },
    events,
    async close() {
      await events.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
