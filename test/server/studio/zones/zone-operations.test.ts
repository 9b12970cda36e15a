// The zone operations called directly, without HTTP: results are domain values, failures carry paths
// relative to the operation's input, and each write announces its change after the commit (none on refusal).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../data/db.js';
import { seedDemo, type SeedResult } from '../../../../data/seed.js';
import { createStores } from '../../../../data/stores/stores.js';
import { buildApp, type App } from '../../../../server/app.js';
import type { Access } from '../../../../server/auth/access.js';
import { DEFAULTS } from '../../../../server/config.js';
import type { ChangeEvent } from '../../../../server/core/change-events.js';
import { ApiError } from '../../../../server/errors.js';
import { createLogger } from '../../../../server/logger.js';
import type { zoneOperations } from '../../../../server/studio/zones/zone-operations.js';
import { sqliteStorage } from '../../../../server/storage.js';

let db: Database;
let app: App;
let seeded: SeedResult;
let ops: ReturnType<typeof zoneOperations>;
let owner: Access;
let bareKey: Access;
const events: { event: ChangeEvent; zonesCommitted: number }[] = [];
const context = { origin: 'http://localhost', lang: 'en' as const };
const circle = {
  name: 'Rockfall',
  level: 'DANGER' as const,
  mode: 'CIRCLE' as const,
  geometry: { type: 'Point', coordinates: [1.5, 42.5] },
  radius_m: 50,
  privacy: 'private' as const,
};

beforeAll(async () => {
  db = openDatabase(':memory:');
  app = buildApp({
    config: { ...DEFAULTS, logLevel: 'error' },
    storage: sqliteStorage(db),
    logger: createLogger('silent'),
    signingSecret: 'x'.repeat(40),
  });
  seeded = await seedDemo(app.stores, app.writes, { ownerPassword: 'irrelevant-password' });
  ops = app.operations.zones;
  // Read directly on the connection: the listener runs synchronously after the commit.
  const stores = createStores(db);
  const user = stores.users.get(seeded.owner.id)!;
  owner = { kind: 'user', user, memberships: new Map([[seeded.organization.id, 'owner']]) };
  const organization = stores.organizations.get(seeded.organization.id)!;
  const key = stores.apiKeys.findPublishable(seeded.publishableKey.key)!;
  bareKey = { kind: 'key', organization, key, session: undefined, actingMember: undefined };
  app.events.subscribe((event) => events.push({ event, zonesCommitted: stores.zones.countByOrganization(seeded.organization.id) }));
});

afterAll(() => db.close());

describe('zone operations without a transport', () => {
  it('create returns the zone view and announces it after the commit', async () => {
    events.length = 0;
    const zone = await ops.postZone.run(owner, circle, context);
    expect(zone).toMatchObject({ name: 'Rockfall', mode: 'CIRCLE', radius_m: 50, organization_id: seeded.organization.id });
    expect(events).toEqual([
      {
        event: { type: 'zone.changed', organizationId: seeded.organization.id, zoneId: zone.id, change: 'created' },
        zonesCommitted: 1,
      },
    ]);
    expect(db.inTransaction).toBe(false);
  });

  it('a refused write fails with input-relative paths and announces nothing', async () => {
    events.length = 0;
    const error = await ops.postZone
      .run(owner, { ...circle, geometry: { type: 'Point', coordinates: [200, 42] } }, context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('VALIDATION_FAILED');
    expect((error as ApiError).entries.map((e) => e.path)).toEqual([['geometry', 'coordinates', 0]]);
    expect(events).toEqual([]);
  });

  it('a bare key reads by id but may not write: 403 from the policy, nothing announced', async () => {
    events.length = 0;
    const zone = await ops.postZone.run(owner, { ...circle, name: 'Cornice' }, context);
    events.length = 0;
    await expect(ops.getZone.run(bareKey, { zone_id: zone.id }, context)).resolves.toMatchObject({ id: zone.id });
    const refused = await ops.deleteZone.run(bareKey, { zone_id: zone.id }, context).catch((e: unknown) => e);
    expect((refused as ApiError).code).toBe('FORBIDDEN');
    expect(events).toEqual([]);
    await ops.deleteZone.run(owner, { zone_id: zone.id }, context);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'zone.changed', organizationId: seeded.organization.id, zoneId: zone.id, change: 'deleted' },
    ]);
  });

  it('listings are pages of domain values; a bare key lists public zones only', async () => {
    const page = await ops.getZones.run(bareKey, { limit: 5 }, context);
    expect(page.page).toEqual({ limit: 5, offset: 0 });
    expect(page.items.every((z) => z.privacy === 'public')).toBe(true);
    const all = await ops.getZones.run(owner, {}, context);
    expect(all.total).toBeGreaterThan(page.total);
  });

  it('each operation declares its scope, whether it writes and what reaches it', () => {
    expect(Object.values(ops).map((o) => [o.id, o.writes])).toEqual([
      ['getZones', false],
      ['postZone', true],
      ['getZone', false],
      ['patchZone', true],
      ['deleteZone', true],
      ['getZoneCollections', false],
    ]);
    expect(Object.values(ops).every((o) => o.scope === 'resources' && !o.reach.includes('share'))).toBe(true);
  });
});
