// Organizations, on any engine (formerly the SQLite store's own tests).
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../data/model/organization.js';
import { onFresh, type OpenSubject } from './subject.js';

export function organizationContract(adapter: string, open: OpenSubject): void {
  describe(`organizations: ${adapter}`, () => {
    it(
      'creates an organization with the documented defaults',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'Acme' });
        expect(org).toMatchObject({
          name: 'Acme',
          status: 'active',
          requireSessionToken: false,
          quotaData: 60,
          quotaTiles: 600,
          embedLayers: ['trails', 'itineraries', 'waypoints', 'zones'],
          defaultAllowedOrigins: [],
          limits: {},
          products: [],
          cardOnFile: false,
        });
        expect(org.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(await r.organizations.get(org.id)).toEqual(org);
        expect(await r.organizations.count()).toBe(1);
      }),
    );

    it(
      'keeps a null limit (unlimited) apart from an absent one (not granted) across a round trip',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'Limits', limits: { itineraries: null, zones: 3 } });
        const read = await r.organizations.get(org.id);
        expect(read?.limits).toEqual({ itineraries: null, zones: 3 });
        expect('itineraries' in (read?.limits ?? {})).toBe(true);
        expect(read?.limits.itineraries).toBeNull();
        expect('collections' in (read?.limits ?? {})).toBe(false);

        await r.organizations.setLimit(org.id, 'zones', undefined);
        await r.organizations.setLimit(org.id, 'collections', null);
        expect((await r.organizations.get(org.id))?.limits).toEqual({ itineraries: null, collections: null });
      }),
    );

    it(
      'refuses -1 or any negative or fractional limit',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'Strict' });
        await expect(r.organizations.setLimit(org.id, 'itineraries', -1)).rejects.toThrow(TypeError);
        await expect(r.organizations.setLimit(org.id, 'itineraries', 1.5)).rejects.toThrow(TypeError);
        await expect(r.organizations.create({ name: 'Bad', limits: { zones: -1 } })).rejects.toThrow(TypeError);
        expect((await r.organizations.get(org.id))?.limits).toEqual({});
      }),
    );

    it(
      'updates settings, products, card and status, leaving other fields unchanged',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'Patch', products: ['studio'], limits: { ...DEFAULT_LIMITS } });
        await r.organizations.updateSettings(org.id, { requireSessionToken: true, quotaData: 5, embedLayers: ['trails'] });
        await r.organizations.setProducts(org.id, ['intelligence', 'studio']);
        await r.organizations.setCardOnFile(org.id, true);
        const updated = await r.organizations.setStatus(org.id, 'inactive');
        expect(updated).toMatchObject({
          requireSessionToken: true,
          quotaData: 5,
          quotaTiles: 600,
          embedLayers: ['trails'],
          products: ['studio', 'intelligence'],
          cardOnFile: true,
          status: 'inactive',
          limits: DEFAULT_LIMITS,
        });
        expect(await r.organizations.get(org.id)).toEqual(updated);
      }),
    );

    it(
      'refuses unknown products and statuses',
      onFresh(open, async ({ repositories: r, refused }) => {
        const org = await r.organizations.create({ name: 'P' });
        await expect(r.organizations.setProducts(org.id, ['maps' as never])).rejects.toThrow(/unknown product/);
        await expect(r.organizations.setStatus(org.id, 'paused' as never)).rejects.toThrow(refused.check);
      }),
    );

    it(
      'answers undefined for an unknown organization',
      onFresh(open, async ({ repositories: r }) => {
        expect(await r.organizations.get('nope')).toBeUndefined();
        expect(await r.organizations.update('nope', { quotaData: 1 })).toBeUndefined();
        expect(await r.organizations.setLimit('nope', 'x', null)).toBeUndefined();
      }),
    );

    it(
      'stores AI settings as an object',
      onFresh(open, async ({ repositories: r }) => {
        const org = await r.organizations.create({ name: 'AI' });
        await r.organizations.setAiSettings(org.id, { endpoint: 'http://localhost:11434/v1', model: 'm', enabledTools: ['plan_route'] });
        expect((await r.organizations.get(org.id))?.aiSettings).toEqual({
          endpoint: 'http://localhost:11434/v1',
          model: 'm',
          enabledTools: ['plan_route'],
        });
      }),
    );
  });
}
