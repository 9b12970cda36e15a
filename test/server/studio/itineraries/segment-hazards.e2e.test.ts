// Segments carry the restrictions their line crosses (toll and access-restricted ways) for the itinerary's
// activity, as routed: kept through a split and a merge, in the draft and the published snapshot; a drawn
// (freehand) segment has none.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap, ownerCalls, type RunningServer, startServer } from '../../../helpers/server.js';

let server: RunningServer;
let org: Bootstrapped;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
}, 30_000);
afterAll(() => server?.stop());

it('a routed segment over the toll road says so, through split, merge and publication', async () => {
  const call = ownerCalls(server, org);
  const id = (await call('POST', '/v1/itineraries', { name: 'Col road', activity: 'ROAD_CYCLING', privacy: 'private' })).data.id;
  // The demo region's one toll road climbs from the valley's east end to the pass.
  const routed = (await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.5872, 42.5028], to: [1.5964, 42.5131] }))
    .data;
  const segment = routed.segments[0];
  expect(segment.hazards.length).toBeGreaterThan(0);
  expect(segment.hazards.every((h: any) => h.kind === 'TOLLWAY')).toBe(true);
  const toll = segment.hazards[0];
  expect(toll.from_distance).toBeGreaterThanOrEqual(0);
  expect(toll.to_distance).toBeLessThanOrEqual(segment.distance + 0.1);
  expect(toll.to_distance).toBeGreaterThan(toll.from_distance);

  // Split in the middle of the line: each part keeps the stretch of toll road on it, from its own start.
  const middle = segment.geometry.coordinates[Math.floor(segment.geometry.coordinates.length / 2)];
  const split = (await call('POST', `/v1/itineraries/${id}/segments/${segment.id}/split`, { point: [middle[0], middle[1]] })).data;
  const [head, tail] = split.segments;
  expect(head.hazards.length + tail.hazards.length).toBeGreaterThan(0);
  for (const part of [head, tail]) for (const h of part.hazards) expect(h.to_distance).toBeLessThanOrEqual(part.distance + 0.1);
  const merged = (await call('POST', `/v1/itineraries/${id}/segments/${head.id}/merge`, { with_segment_id: tail.id })).data.segments[0];
  expect(merged.hazards.reduce((m: number, h: any) => m + h.to_distance - h.from_distance, 0)).toBeCloseTo(
    segment.hazards.reduce((m: number, h: any) => m + h.to_distance - h.from_distance, 0),
    0,
  );

  await call('POST', `/v1/itineraries/${id}/publish`);
  const published = (await call('GET', `/v1/itineraries/${id}?version=published`)).data;
  expect(published.segments[0].hazards).toEqual(merged.hazards);

  const drawn = (await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'freehand', coordinates: [[1.597, 42.514]] })).data;
  expect(drawn.segments.at(-1).hazards).toEqual([]);
});

it('a walk that keeps to open paths crosses nothing', async () => {
  const call = ownerCalls(server, org);
  const id = (await call('POST', '/v1/itineraries', { name: 'Open walk', privacy: 'private' })).data.id;
  const view = (await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.4999] }))
    .data;
  expect(view.segments[0].hazards).toEqual([]);
});
