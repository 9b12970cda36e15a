import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { DEFAULT_LIMITS } from '../../../data/model/organization.js';
import { OrganizationStore } from '../../../data/stores/organization-store.js';

function store(): OrganizationStore {
  return new OrganizationStore(openDatabase(':memory:'));
}

describe('OrganizationStore', () => {
  it('creates an organization with the documented defaults', () => {
    const orgs = store();
    const org = orgs.create({ name: 'Acme' });
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
    expect(orgs.get(org.id)).toEqual(org);
    expect(orgs.count()).toBe(1);
  });

  it('keeps a null limit (unlimited) apart from an absent one (not granted) across a round trip', () => {
    const orgs = store();
    const org = orgs.create({ name: 'Limits', limits: { itineraries: null, zones: 3 } });
    const read = orgs.get(org.id);
    expect(read?.limits).toEqual({ itineraries: null, zones: 3 });
    expect('itineraries' in (read?.limits ?? {})).toBe(true);
    expect(read?.limits.itineraries).toBeNull();
    expect('collections' in (read?.limits ?? {})).toBe(false);

    orgs.setLimit(org.id, 'zones', undefined);
    orgs.setLimit(org.id, 'collections', null);
    expect(orgs.get(org.id)?.limits).toEqual({ itineraries: null, collections: null });
  });

  it('refuses -1 or any negative or fractional limit', () => {
    const orgs = store();
    const org = orgs.create({ name: 'Strict' });
    expect(() => orgs.setLimit(org.id, 'itineraries', -1)).toThrow(TypeError);
    expect(() => orgs.setLimit(org.id, 'itineraries', 1.5)).toThrow(TypeError);
    expect(() => orgs.create({ name: 'Bad', limits: { zones: -1 } })).toThrow(TypeError);
    expect(orgs.get(org.id)?.limits).toEqual({});
  });

  it('updates settings, products, card and status, leaving other fields unchanged', () => {
    const orgs = store();
    const org = orgs.create({ name: 'Patch', products: ['studio'], limits: { ...DEFAULT_LIMITS } });
    orgs.updateSettings(org.id, { requireSessionToken: true, quotaData: 5, embedLayers: ['trails'] });
    orgs.setProducts(org.id, ['intelligence', 'studio']);
    orgs.setCardOnFile(org.id, true);
    const updated = orgs.setStatus(org.id, 'inactive');
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
    expect(orgs.get(org.id)).toEqual(updated);
  });

  it('refuses unknown products and statuses', () => {
    const orgs = store();
    const org = orgs.create({ name: 'P' });
    expect(() => orgs.setProducts(org.id, ['maps' as never])).toThrow(/unknown product/);
    expect(() => orgs.setStatus(org.id, 'paused' as never)).toThrow(/CHECK/);
  });

  it('answers undefined for an unknown organization', () => {
    const orgs = store();
    expect(orgs.get('nope')).toBeUndefined();
    expect(orgs.update('nope', { quotaData: 1 })).toBeUndefined();
    expect(orgs.setLimit('nope', 'x', null)).toBeUndefined();
  });

  it('stores AI settings as an object', () => {
    const orgs = store();
    const org = orgs.create({ name: 'AI' });
    orgs.setAiSettings(org.id, { endpoint: 'http://localhost:11434/v1', model: 'm', enabledTools: ['plan_route'] });
    expect(orgs.get(org.id)?.aiSettings).toEqual({
      endpoint: 'http://localhost:11434/v1',
      model: 'm',
      enabledTools: ['plan_route'],
    });
  });
});
