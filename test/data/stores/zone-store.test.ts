import { describe, expect, it } from 'vitest';
import { memoryStores, created } from '../memory-db.js';

describe('ZoneStore', () => {
  it('creates, reads, updates, lists and deletes a zone', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'Z' });
    const zone = stores.zones.create({
      organizationId: org.id,
      name: 'Rockfall',
      level: 'DANGER',
      mode: 'CIRCLE',
      geometry: { type: 'Point', coordinates: [1.5, 42.5] },
      radiusM: 200,
      privacy: 'public',
    });
    expect(stores.zones.get(zone.id)).toEqual(zone);
    const updated = stores.zones.update(zone.id, { level: 'WARNING', description: 'after the storm' });
    expect(updated).toMatchObject({ level: 'WARNING', description: 'after the storm', radiusM: 200, name: 'Rockfall' });
    expect(stores.zones.list(org.id, { publicOnly: true }).total).toBe(1);
    const c = created(stores.collections.create({ organizationId: org.id, name: 'C' }));
    stores.collections.addZone(c.id, zone.id);
    expect(stores.zones.listByCollection(c.id).map((z) => z.id)).toEqual([zone.id]);
    expect(stores.zones.delete(zone.id)).toBe(true);
    expect(stores.collections.zoneIds(c.id)).toEqual([]);
  });

  it('a circle needs a radius and a corridor needs a width', () => {
    const stores = memoryStores();
    const org = stores.organizations.create({ name: 'Z' });
    const base = { organizationId: org.id, name: 'x', level: 'INFO' as const };
    expect(() => stores.zones.create({ ...base, mode: 'CIRCLE', geometry: { type: 'Point', coordinates: [0, 0] } })).toThrow(/CHECK/);
    expect(() =>
      stores.zones.create({
        ...base,
        mode: 'CORRIDOR',
        geometry: {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      }),
    ).toThrow(/CHECK/);
    expect(() => stores.zones.create({ ...base, level: 'SEVERE' as never, mode: 'POLYGON', geometry: {} })).toThrow(/CHECK/);
  });
});
