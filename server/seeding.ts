// First start on an empty database: seed the demo organization, plan a few published demo itineraries
// with the Studio operations themselves, and print what a newcomer needs once.

import type { Database } from '../data/db.js';
import { seedDemoIfEmpty, type SeedResult } from '../data/seed.js';
import type { App } from './app.js';
import type { Access } from './auth/access.js';
import type { Logger } from './logger.js';
import type { WorkerPool } from '../workers/pool.js';

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
async function seedDemoItineraries(app: App, pool: WorkerPool, seeded: SeedResult, logger: Logger): Promise<string[]> {
  const places = await namedPlaces(pool, new Set(DEMO_ITINERARIES.flatMap((plan) => plan.stops)));
  const owner = await app.stores.users.get(seeded.owner.id);
  if (!owner) throw new Error('the seeded owner is missing');
  const caller: Access = { kind: 'user', user: owner, memberships: new Map([[seeded.organization.id, 'owner']]) };
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

/**
 * Seeds the demo organization when the database has none and writes a short banner with the owner's
 * login and both keys. The banner is not a log line: it is printed once, on purpose, because the
 * plaintexts exist only now (the secret key is stored hashed). Demo itineraries are planned only on the
 * built-in demo region (their stops are its named places).
 */
export async function seedOnFirstStart(
  db: Database,
  app: App,
  options: { origin: string; regionPath: string; pool: WorkerPool; logger: Logger; print: (text: string) => void },
): Promise<void> {
  const seeded = seedDemoIfEmpty(db);
  if (!seeded) return;
  app.forgetCachedReads(); // written straight to the connection, not through the repositories
  const itineraries = options.regionPath ? [] : await seedDemoItineraries(app, options.pool, seeded, options.logger);
  options.print(
    [
      '',
      'Cairn demo organization created (shown once, keep it):',
      `  organization     ${seeded.organization.name} (${seeded.organization.id})`,
      `  owner login      ${seeded.owner.email} / ${seeded.owner.password}`,
      `  publishable key  ${seeded.publishableKey.key} (scopes: ${seeded.publishableKey.scopes.join(', ')})`,
      `  secret key       ${seeded.secretKey.key}`,
      `  demo collection  ${seeded.collection.name} (${seeded.collection.id}), ${itineraries.length} published itineraries`,
      `  try              curl -H 'X-API-Key: ${seeded.publishableKey.key}' ${options.origin}/v1/collections/${seeded.collection.id}/itineraries`,
      `  listening on     ${options.origin}`,
      '',
      '',
    ].join('\n'),
  );
}
