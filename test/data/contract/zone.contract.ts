// Zones, on any engine (formerly the SQLite ZoneStore's own tests).
import { describe, expect, it } from 'vitest';
import { isConflict } from '../../../data/model/conflict.js';
import { onFresh, type OpenSubject } from './subject.js';

export function zoneContract(adapter: string, open: OpenSubject): void {
  describe(`zones: ${adapter}`, () => {
    it(
      'creates, reads, updates, lists and deletes a zone',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'Z' });
        const zone = await r.zones.create({
          organizationId: org.id,
          name: 'Rockfall',
          level: 'DANGER',
          mode: 'CIRCLE',
          geometry: { type: 'Point', coordinates: [1.5, 42.5] },
          radiusM: 200,
          privacy: 'public',
        });
        expect(await r.zones.get(zone.id)).toEqual(zone);
        const updated = await r.zones.update(zone.id, { level: 'WARNING', description: 'after the storm' });
        expect(updated).toMatchObject({ level: 'WARNING', description: 'after the storm', radiusM: 200, name: 'Rockfall' });
        expect((await r.zones.list(org.id, { publicOnly: true })).total).toBe(1);
        const c = await r.collections.create({ organizationId: org.id, name: 'C' });
        if (isConflict(c)) throw new Error('unexpected conflict');
        await r.collections.addZone(c.id, zone.id);
        expect((await r.zones.listByCollection(c.id)).map((z) => z.id)).toEqual([zone.id]);
        expect(await r.zones.delete(zone.id)).toBe(true);
        expect(await r.collections.zoneIds(c.id)).toEqual([]);
      }),
    );

    it(
      'a circle needs a radius and a corridor needs a width',
      onFresh(open, async ({ repositories: r, refused }) => {
        const org = await r.organizations.create({ name: 'Z' });
        const base = { organizationId: org.id, name: 'x', level: 'INFO' as const };
        await expect(r.zones.create({ ...base, mode: 'CIRCLE', geometry: { type: 'Point', coordinates: [0, 0] } })).rejects.toThrow(
          refused.check,
        );
        await expect(
          r.zones.create({
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
        ).rejects.toThrow(refused.check);
        await expect(r.zones.create({ ...base, level: 'SEVERE' as never, mode: 'POLYGON', geometry: {} })).rejects.toThrow(refused.check);
      }),
    );
  });
}
