// The published snapshot is stored in the domain's shape: it round-trips through JSON (unknown elevations
// included) and renders the same view as the draft it froze; snapshots stored earlier as REST views still read.

import { describe, expect, it } from 'vitest';
import type { Itinerary } from '../../../../data/model/itinerary.js';
import { type Chain, sealChain } from '../../../../server/studio/itineraries/chain.js';
import { itineraryView } from '../../../../server/studio/itineraries/itinerary-view.js';
import { decodeSnapshot, encodeSnapshot, publishedView, snapshotOf } from '../../../../server/studio/itineraries/published-snapshot.js';

const itinerary: Itinerary = {
  id: '44444444-4444-4444-8444-444444444444',
  organizationId: '55555555-5555-4555-8555-555555555555',
  name: 'Ridge',
  description: 'Along the crest',
  activity: 'HIKING_AND_TRAIL',
  privacy: 'public',
  createdBy: null,
  draftVersion: 7,
  publishedVersion: 7,
  publishedAt: '2026-11-24T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
};

const chain: Chain = sealChain({
  waypoints: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Start',
      kind: null,
      description: 'Car park\n\nFree',
      coord: [1.56, 42.5, Number.NaN],
    },
    { id: '22222222-2222-4222-8222-222222222222', name: null, kind: 'pass', description: null, coord: [1.57, 42.51, 2100] },
  ],
  segments: [
    {
      id: '33333333-3333-4333-8333-333333333333',
      engine: 'freehand',
      geometry: [
        [1.56, 42.5, Number.NaN],
        [1.565, 42.505, 2050],
        [1.57, 42.51, 2100],
      ],
      distance: 1400,
      ascent: 100,
      descent: 0,
      duration: 1200,
      name: null,
      description: null,
      groupId: '66666666-6666-4666-8666-666666666666',
      hazards: [{ kind: 'TOLLWAY', from: 10, to: 250.5 }],
    },
  ],
  groups: [{ id: '66666666-6666-4666-8666-666666666666', name: 'Climb', color: '#ff0000', speed: null }],
});

describe('published snapshot', () => {
  it('round-trips through JSON with unknown elevations and renders the view of the draft it froze', () => {
    const stored = JSON.parse(JSON.stringify(encodeSnapshot(snapshotOf(itinerary, chain))));
    const decoded = decodeSnapshot(stored, { ...itinerary, name: 'Renamed later', draftVersion: 9 });
    expect(decoded?.chain.segments[0]?.geometry[0]?.[2]).toBeNaN();
    expect(decoded?.name).toBe('Ridge');
    expect(publishedView({ ...itinerary, name: 'Renamed later', draftVersion: 9 }, decoded!)).toEqual(itineraryView(itinerary, chain));
  });

  it('reads a snapshot stored as the REST view by earlier versions', () => {
    const legacy = JSON.parse(JSON.stringify(itineraryView(itinerary, chain)));
    const decoded = decodeSnapshot(legacy, { ...itinerary, description: 'changed since' });
    expect(publishedView(itinerary, decoded!)).toEqual(itineraryView(itinerary, chain));
  });

  it('reads snapshots stored before waypoints had a description as having none', () => {
    const withoutDescriptions = (json: { waypoints?: Record<string, unknown>[]; chain?: { waypoints: Record<string, unknown>[] } }) => {
      for (const w of json.waypoints ?? json.chain?.waypoints ?? []) delete w.description;
      return json;
    };
    const undescribed = { ...chain, waypoints: chain.waypoints.map((w) => ({ ...w, description: null })) };
    const domain = withoutDescriptions(JSON.parse(JSON.stringify(encodeSnapshot(snapshotOf(itinerary, chain)))));
    const legacy = withoutDescriptions(JSON.parse(JSON.stringify(itineraryView(itinerary, chain))));
    for (const stored of [domain, legacy]) {
      expect(publishedView(itinerary, decodeSnapshot(stored, itinerary)!)).toEqual(itineraryView(itinerary, undescribed));
    }
  });

  it('is absent when nothing was stored', () => {
    expect(decodeSnapshot(undefined, itinerary)).toBeUndefined();
  });
});
