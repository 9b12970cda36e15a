// First start on an empty database: seed the demo organization, plan a few published demo itineraries
// through the Studio API itself, and print what a newcomer needs once.

import type { Database } from '../data/db.js';
import { buildDemoRegion } from '../data/region/demo-region.js';
import { seedDemoIfEmpty, type SeedResult } from '../data/seed.js';
import type { App } from './app.js';
import { inject } from './http/inject.js';
import type { Logger } from './logger.js';

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
 * Plans, files and publishes the demo itineraries with the demo owner's credentials, in-process through
 * the real pipeline (access control, validation, routing on the worker pool). A failure is logged and the
 * start goes on: the organization, keys and collection already exist.
 */
async function seedDemoItineraries(app: App, seeded: SeedResult, logger: Logger): Promise<string[]> {
  const places = new Map(buildDemoRegion().places.map((p) => [p.name, [p.lon, p.lat] as [number, number]]));
  const headers = { 'X-API-Key': seeded.publishableKey.key, 'X-User-Id': seeded.owner.id, 'Content-Type': 'application/json' };
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await inject(app.handle, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.json<{ data: { id: string } }>();
  };
  const created: string[] = [];
  for (const plan of DEMO_ITINERARIES) {
    try {
      const stops = plan.stops.map((name) => places.get(name));
      if (stops.some((s) => !s)) throw new Error('a named place is missing from the demo region');
      const { data } = await send('POST', '/v1/itineraries', {
        name: plan.name,
        description: plan.description,
        activity: plan.activity,
        privacy: 'public',
        collection_id: seeded.collection.id,
      });
      const path = `/v1/itineraries/${data.id}`;
      await send('POST', `${path}/segments`, { engine: 'smart', from: stops[0], to: stops[1] });
      for (const stop of stops.slice(2)) await send('POST', `${path}/segments`, { engine: 'smart', to: stop });
      await send('POST', `${path}/publish`);
      created.push(plan.name);
    } catch (error) {
      logger.error('demo itinerary not created', { name: plan.name, error: String(error) });
    }
  }
  return created;
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
  options: { origin: string; regionPath: string; logger: Logger; print: (text: string) => void },
): Promise<void> {
  const seeded = seedDemoIfEmpty(db);
  if (!seeded) return;
  const itineraries = options.regionPath ? [] : await seedDemoItineraries(app, seeded, options.logger);
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
    ].join('\n') + '\n',
  );
}
