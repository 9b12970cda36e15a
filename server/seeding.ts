// First start on an empty database: seed the demo organization, plan a few published demo itineraries
// with the Studio operations themselves, and print what a newcomer needs once.

import { seedDemoIfEmpty, type SeedResult } from '../data/seed.js';
import { createPool, type WorkerPool } from './pool/pool.js';
import { type App, buildApp } from './app.js';
import type { Access } from './auth/access.js';
import { loadConfig } from './config.js';
import { resolveSigningSecret } from './auth/signing-secret.js';
import { createLogger, type Logger } from './logger.js';
import { openStorage } from './storage.js';

/** Demo itineraries on the built-in demo valley, between its named places (each leg routed on trails). */
const DEMO_ITINERARIES = [
  {
    name: 'Pic de Cairn from the village',
    description: 'Up past the Refugi de l’Estany to the highest summit of the valley.',
    activity: 'HIKING_AND_TRAIL',
    stops: ['Vilanova de Cairn', "Refugi de l'Estany", 'Pic de Cairn'],
  },
  {
    name: 'Shepherd’s hut circuit',
    description: 'From the village to the Cabana del Pastor and across to the Orri de la Coma.',
    activity: 'HIKING_AND_TRAIL',
    stops: ['Vilanova de Cairn', 'Cabana del Pastor', 'Orri de la Coma'],
  },
  {
    name: 'Evening walk to the viewpoint',
    description: 'A short walk above the village.',
    activity: 'WALKING',
    stops: ['Vilanova de Cairn', 'Mirador del Poble'],
  },
] as const;

/**
 * Plans, files and publishes the demo itineraries as the demo owner, calling the Studio operations
 * (routing on the worker pool). A failure is logged and the start goes on: the organization, keys and
 * collection already exist.
 */
async function seedDemoItineraries(app: App, pool: WorkerPool, seeded: SeedResult, caller: Access, logger: Logger): Promise<string[]> {
  const places = await namedPlaces(pool, new Set(DEMO_ITINERARIES.flatMap((plan) => plan.stops)));
  const context = { origin: 'http://localhost', lang: 'en' as const };
  const ops = app.operations.itineraries;
  const created: string[] = [];
  for (const plan of DEMO_ITINERARIES) {
    try {
      const stops = plan.stops.map((name) => places.get(name));
      if (stops.some((s) => !s)) throw new Error('a named place is missing from the region');
      const [from, to, ...rest] = stops as [number, number][];
      const itinerary = await ops.postItinerary.run(
        caller,
        { name: plan.name, description: plan.description, activity: plan.activity, privacy: 'public', collection_id: seeded.collection.id },
        context,
      );
      const itinerary_id = itinerary.id;
      await ops.postItinerarySegment.run(caller, { itinerary_id, engine: 'smart', from, to: to! }, context);
      for (const stop of rest) await ops.postItinerarySegment.run(caller, { itinerary_id, engine: 'smart', to: stop }, context);
      await ops.postItineraryPublish.run(caller, { itinerary_id }, context);
      created.push(plan.name);
    } catch (error) {
      logger.error('demo itinerary not created', { name: plan.name, error: String(error) });
    }
  }
  return created;
}

/** Where each named place is, looked up on the worker pool (the region lives there, not on this thread). */
async function namedPlaces(pool: WorkerPool, names: Set<string>): Promise<Map<string, [number, number]>> {
  const found = new Map<string, [number, number]>();
  for (const name of names) {
    const out = await pool.runTask('places', { text: name, limit: 1 });
    const place = out.ok ? out.places[0] : undefined;
    if (place?.name === name) found.set(name, place.coordinates);
  }
  return found;
}

/** What a seeded organization gets besides its keys: the demo itineraries and a ready embed URL. */
export interface DemoContent {
  /** Names of the published demo itineraries (none on an imported region: their stops are the demo valley's places). */
  itineraries: string[];
  /** The demo collection's embed page with a share link: it works pasted into a browser, with no key or token. */
  embedUrl: string;
}

/**
 * Plans the demo itineraries into the seeded collection (on the built-in demo region) and mints a share link
 * of the collection for its embed URL, all through the operations, as the seeded owner.
 */
export async function seedDemoContent(
  app: App,
  seeded: SeedResult,
  options: { origin: string; onDemoRegion: boolean; pool: WorkerPool; logger: Logger },
): Promise<DemoContent> {
  // Everything below is done as the seeded owner, signed in.
  const owner = await app.stores.users.get(seeded.owner.id);
  if (!owner) throw new Error('the seeded owner is missing');
  const caller: Access = { kind: 'user', user: owner, memberships: new Map([[seeded.organization.id, 'owner']]) };
  const itineraries = options.onDemoRegion ? await seedDemoItineraries(app, options.pool, seeded, caller, options.logger) : [];
  const [mintShare] = app.operations.shares.collection;
  const link = (await mintShare.run(caller, { collection_id: seeded.collection.id }, { origin: options.origin, lang: 'en' })) as {
    url: string;
  };
  return { itineraries, embedUrl: link.url };
}

/**
 * Seeds the demo organization when the database has none and writes a short banner with the owner's
 * login, both keys and the embed URL. The banner is not a log line: it is printed once, on purpose, because the
 * plaintexts exist only now (the secret key is stored hashed).
 */
export async function seedOnFirstStart(
  app: App,
  options: { origin: string; onDemoRegion: boolean; pool: WorkerPool; logger: Logger; print: (text: string) => void },
): Promise<void> {
  const seeded = await seedDemoIfEmpty(app.stores, app.writes);
  if (!seeded) return;
  const { itineraries, embedUrl } = await seedDemoContent(app, seeded, options);
  options.print(
    [
      '',
      'Cairn demo organization created (shown once, keep it):',
      `  organization     ${seeded.organization.name} (${seeded.organization.id})`,
      `  owner login      ${seeded.owner.email} / ${seeded.owner.password}`,
      `  publishable key  ${seeded.publishableKey.key} (scopes: ${seeded.publishableKey.scopes.join(', ')})`,
      `  secret key       ${seeded.secretKey.key}`,
      `  demo collection  ${seeded.collection.name} (${seeded.collection.id}), ${itineraries.length} published itineraries`,
      `  embed            ${embedUrl}`,
      `  planner          ${options.origin}/studio (sign in with the owner login)`,
      `  try              curl -H 'X-API-Key: ${seeded.publishableKey.key}' ${options.origin}/v1/collections/${seeded.collection.id}/itineraries`,
      `  listening on     ${options.origin}`,
      '',
      '',
    ].join('\n'),
  );
}

/**
 * `npm run admin -- bootstrap` after its organization is written: the same demo content as a first start, planned
 * on a worker pool of its own (REGION_PATH, or the demo region) against the database the environment names
 * (DATABASE_URL or DATABASE_PATH). Errors go to stderr as JSON lines; the organization stays.
 */
export async function seedDemoContentOffline(seeded: SeedResult, env: NodeJS.ProcessEnv): Promise<DemoContent> {
  const config = loadConfig(env);
  const logger = createLogger('error', (chunk) => process.stderr.write(chunk));
  const storage = await openStorage(config);
  const pool = createPool({
    env: { ...env, REGION_PATH: config.regionPath },
    onWorkerError: (error) => logger.error('worker failed', { error: String(error) }),
  });
  try {
    // The server's own signing secret when it has one in the environment, so the admin command adds no other.
    const signingSecret = await resolveSigningSecret(env.SESSION_SECRET, storage.repositories.settings);
    const app = buildApp({ config, logger, storage, pool, signingSecret });
    // The share link's URL is on PUBLIC_APP_URL when set (the share operation's rule), else on the default port.
    const origin = `http://localhost:${config.port || 8080}`;
    const content = await seedDemoContent(app, seeded, { origin, onDemoRegion: !config.regionPath && !config.regionsPath, pool, logger });
    await app.writes.flush();
    return content;
  } finally {
    await pool.close();
    await storage.close();
    logger.flush();
  }
}
