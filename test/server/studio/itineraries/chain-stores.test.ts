// The chain's stores and saveChain over a real in-memory SQLite: rows round-trip (elevation included),
// saving writes only the difference, and a row never moves to another itinerary.

import { describe, expect, it } from 'vitest';
import { createSqliteRepositories } from '../../../../data/repositories-sqlite.js';
import { memoryStores, created } from '../../../data/memory-db.js';
import { type Chain, loadChain, saveChain, sealChain } from '../../../../server/studio/itineraries/chain.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'Org', products: ['studio'], cardOnFile: true, limits: { itineraries: null } });
  const a = created(stores.itineraries.create({ organizationId: org.id, name: 'A' }));
  const b = created(stores.itineraries.create({ organizationId: org.id, name: 'B' }));
  return { stores, chain: createSqliteRepositories(stores.db), a: a.id, b: b.id };
}

const sample = (): Chain =>
  sealChain({
    waypoints: [
      {
        id: '11111111-1111-4111-8111-111111111111',
        name: 'Start',
        kind: null,
        description: 'Car park\n\nFree',
        coord: [1.56, 42.5, Number.NaN],
      },
      { id: '22222222-2222-4222-8222-222222222222', name: null, kind: 'pass', description: null, coord: [1.57, 42.51, Number.NaN] },
    ],
    segments: [
      {
        id: '33333333-3333-4333-8333-333333333333',
        engine: 'freehand',
        geometry: [
          [1.56, 42.5, 1000],
          [1.565, 42.505, Number.NaN],
          [1.57, 42.51, 1100],
        ],
        distance: 1400,
        ascent: 100,
        descent: 0,
        duration: 1200,
        name: null,
        description: 'd',
        groupId: '44444444-4444-4444-8444-444444444444',
        hazards: [{ kind: 'TOLLWAY', from: 10, to: 250.5 }],
      },
    ],
    groups: [{ id: '44444444-4444-4444-8444-444444444444', name: 'G', color: '#fff', speed: null }],
  });

describe('chain stores', () => {
  it('round-trip a sealed chain, unknown elevations included', async () => {
    const { chain, a } = setup();
    const c = sample();
    await saveChain(chain, a, { waypoints: [], segments: [], groups: [] }, c);
    const back = await loadChain(chain, a);
    expect(back.segments[0]!.geometry[1]![2]).toBeNaN();
    expect(back.waypoints.map((w) => w.coord)).toEqual([
      [1.56, 42.5, 1000],
      [1.57, 42.51, 1100],
    ]);
    expect(JSON.stringify(back)).toBe(JSON.stringify(c));
  });

  it('saving removes what the new chain dropped and renumbers the rest', async () => {
    const { chain, a } = setup();
    const c = sample();
    await saveChain(chain, a, { waypoints: [], segments: [], groups: [] }, c);
    const empty = sealChain({ waypoints: [], segments: [], groups: [] });
    await saveChain(chain, a, c, empty);
    expect(await loadChain(chain, a)).toEqual(empty);
  });

  it('an id of another itinerary is never taken over', async () => {
    const { chain, a, b } = setup();
    const c = sample();
    await saveChain(chain, a, { waypoints: [], segments: [], groups: [] }, c);
    await chain.segments.upsert({ ...c.segments[0]!, itineraryId: b, position: 0, name: 'hijack' });
    expect(await chain.segments.listByItinerary(b)).toEqual([]);
    expect((await chain.segments.listByItinerary(a))[0]!.name).toBeNull();
    expect(await chain.segments.delete(b, c.segments[0]!.id)).toBe(false);
  });
});
