// The served Data API fields over real HTTP: directions (equal to `npm run route` on the same region, avoidance
// outcomes, alternatives), itinerary (published by default, groups and groupId, waypoint descriptions, the
// Studio access rules) and
// zones (true shapes, levels, the organization's private zones only).

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, type Bootstrapped, REPO_ROOT, type RunningServer, startServer } from '../../helpers/server.js';
import { type Caller, callerOf, mintSession, postGraphql } from './data-api-client.js';

let server: RunningServer;
let org: Bootstrapped;
let caller: Caller;
let other: Bootstrapped;
let otherCaller: Caller;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  other = bootstrap(server);
  caller = callerOf(org, await mintSession(server, org));
  otherCaller = callerOf(other, await mintSession(server, other));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const ROUTE_FIELDS = `distance duration ascent descent avoidance
  geometry { type coordinates }
  advisories { kind access isRestriction osmWayId fromIndex toIndex fromDistance toDistance }
  trailDifficultyInfo { difficulty fromDistance toDistance fromIndex toIndex }
  waypoints { coordinates distance }`;
const DIRECTIONS = `query D($input: DirectionsInput!) { directions(input: $input) { routes { ${ROUTE_FIELDS} } } }`;

type Json = any;

async function directions(input: Record<string, unknown>): Promise<Json> {
  const r = await postGraphql(server, caller, { query: DIRECTIONS, variables: { input } });
  expect(r.status).toBe(200);
  return r.body;
}

/** `npm run route` on the demo region (the server's region too), as JSON. */
function routeCli(waypoints: number[][], avoid: string[], alternatives: number): Json {
  const args = [join(REPO_ROOT, 'dist', 'workers', 'route-cli.js'), '--activity', 'HIKING_AND_TRAIL'];
  args.push('--waypoints', waypoints.map((p) => p.join(',')).join(';'), '--alternatives', String(alternatives), '--geometry', '--json');
  if (avoid.length > 0) args.push('--avoid', avoid.join(','));
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }));
}

const round = (x: number) => Math.round(x * 10) / 10;

/** A GraphQL route in the CLI's rounded form. */
function asCli(route: Json) {
  return {
    distance: round(route.distance),
    duration: round(route.duration),
    ascent: round(route.ascent),
    descent: round(route.descent),
    avoidance: route.avoidance,
    advisories: route.advisories.map((a: Json) => ({ ...a, fromDistance: round(a.fromDistance), toDistance: round(a.toDistance) })),
    difficulty: route.trailDifficultyInfo.map((s: Json) => ({
      ...s,
      fromDistance: round(s.fromDistance),
      toDistance: round(s.toDistance),
    })),
    coordinateCount: route.geometry.coordinates.length,
    coordinates: route.geometry.coordinates,
  };
}

describe('directions', () => {
  const cases: [string, number[][], string[], number][] = [
    [
      'across the valley, with alternatives',
      [
        [1.551, 42.4952],
        [1.5703, 42.5049],
      ],
      [],
      3,
    ],
    [
      'around a restricted way',
      [
        [1.525, 42.515],
        [1.54, 42.505],
      ],
      ['TOLLWAY', 'RESTRICTED_ACCESS'],
      2,
    ],
    [
      'through three waypoints',
      [
        [1.551, 42.4952],
        [1.5703, 42.5049],
        [1.58, 42.51],
      ],
      ['TOLLWAY'],
      0,
    ],
  ];

  for (const [name, waypoints, avoid, alternatives] of cases) {
    it(`equals npm run route for the same input: ${name}`, async () => {
      const body = await directions({ activity: 'HIKING_AND_TRAIL', waypoints, avoid, alternatives });
      expect(body.errors).toBeUndefined();
      const cli = routeCli(waypoints, avoid, alternatives);
      const [first, ...rest] = body.data.directions.routes;
      const { alternatives: cliAlternatives, region, activity, ok, timings, snapped, ...cliFirst } = cli;
      expect(asCli(first)).toEqual(cliFirst);
      expect(rest.map(asCli)).toEqual(cliAlternatives);
      expect(first.waypoints.map((w: Json) => ({ lon: round(w.coordinates[0] * 1e6) / 1e6, distance: round(w.distance) }))).toEqual(
        snapped.map((s: Json) => ({ lon: round(s.lon * 1e6) / 1e6, distance: s.distance })),
      );
      expect(first.geometry.type).toBe('LineString');
      for (const c of first.geometry.coordinates) expect(c).toHaveLength(3);
    });
  }

  it('a second pass only when the first route crosses an avoided hazard: NOT_NEEDED, APPLIED, NO_ROUTE', async () => {
    const plain = (
      await directions({
        activity: 'HIKING_AND_TRAIL',
        waypoints: [
          [1.525, 42.515],
          [1.54, 42.505],
        ],
      })
    ).data.directions.routes[0];
    expect(plain.avoidance).toBe('NOT_NEEDED');
    expect(plain.advisories.some((a: Json) => a.kind === 'RESTRICTED_ACCESS')).toBe(true);
    const around = (
      await directions({
        activity: 'HIKING_AND_TRAIL',
        waypoints: [
          [1.525, 42.515],
          [1.54, 42.505],
        ],
        avoid: ['RESTRICTED_ACCESS'],
      })
    ).data.directions.routes[0];
    expect(around.avoidance).toBe('APPLIED');
    expect(around.advisories.filter((a: Json) => a.isRestriction)).toEqual([]);
    expect(around.distance).toBeGreaterThan(plain.distance);
    // Avoiding tolls on a route that crosses none changes nothing: no second pass.
    const untouched = (
      await directions({
        activity: 'HIKING_AND_TRAIL',
        waypoints: [
          [1.525, 42.515],
          [1.54, 42.505],
        ],
        avoid: ['TOLLWAY'],
      })
    ).data.directions.routes[0];
    expect(untouched.avoidance).toBe('NOT_NEEDED');
    expect(untouched.geometry).toEqual(plain.geometry);
    // A waypoint on a restricted way cannot avoid it: an outcome, not an error.
    const stuck = await directions({
      activity: 'HIKING_AND_TRAIL',
      waypoints: [
        [1.54, 42.49],
        [1.58, 42.51],
      ],
      avoid: ['TOLLWAY', 'RESTRICTED_ACCESS'],
    });
    expect(stuck.errors).toBeUndefined();
    expect(stuck.data.directions.routes[0].avoidance).toBe('NO_ROUTE');
    expect(stuck.data.directions.routes[0].advisories.length).toBeGreaterThan(0);
  });

  it('a waypoint far from any way is a VALIDATION_FAILED entry at its input path', async () => {
    const r = await postGraphql(server, caller, {
      query: DIRECTIONS,
      variables: {
        input: {
          activity: 'WALKING',
          waypoints: [
            [1.551, 42.4952],
            [10, 10],
          ],
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([
      {
        message: 'This point is not near any trail this activity may use: move it onto the network, or draw this part freehand.',
        path: ['directions'],
        extensions: { code: 'VALIDATION_FAILED', path: ['input', 'waypoints', 1] },
      },
    ]);
  });
});

// ---- itineraries -------------------------------------------------------------------------------------------

async function studio(method: string, path: string, body?: unknown, o: Bootstrapped = org): Promise<Json> {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-API-Key': o.publishableKey.key, 'X-User-Id': o.owner.id },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text).data : undefined;
}

const ITINERARY = `query I($id: ID!, $version: ItineraryVersion) { itinerary(id: $id, version: $version) {
  id name activity privacy distance
  segments { id position engine groupId distance geometry { type coordinates } }
  waypoints { id position description coordinates }
  groups { id name color speed } } }`;

async function readItinerary(id: string, version?: string, who: Caller = caller): Promise<Json> {
  const r = await postGraphql(server, who, { query: ITINERARY, variables: { id, ...(version ? { version } : {}) } });
  expect(r.status).toBe(200);
  return r.body;
}

describe('itinerary', () => {
  let id = '';
  let view: Json;

  beforeAll(async () => {
    const created = await studio('POST', '/v1/itineraries', { name: 'Ridge walk', privacy: 'private' });
    id = created.id;
    await studio('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.5] });
    const built = await studio('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', to: [1.5703, 42.5049] });
    const joint = `/v1/itineraries/${id}/waypoints/${built.waypoints[1].id}`;
    await studio('PUT', joint, { description: 'Stone bridge\n\nSlippery when wet' });
    await studio('POST', `/v1/itineraries/${id}/publish`);
    // A group and a description made after publishing: the draft has them, the published snapshot does not yet.
    await studio('PUT', joint, { description: 'Bridge closed' });
    const draft = await studio('GET', `/v1/itineraries/${id}?version=draft`);
    await studio('POST', `/v1/itineraries/${id}/segment-groups`, { name: 'Climb', color: '#1A7F37', segment_ids: [draft.segments[0].id] });
    view = await studio('GET', `/v1/itineraries/${id}?version=published`);
  });

  it('answers the published snapshot by default, as the Studio read does, with groups [] when none', async () => {
    const body = await readItinerary(id);
    expect(body.errors).toBeUndefined();
    const it = body.data.itinerary;
    expect(it).toMatchObject({ id, name: 'Ridge walk', activity: 'HIKING_AND_TRAIL', privacy: 'PRIVATE', groups: [] });
    expect(it.distance).toBeCloseTo(view.distance, 6);
    expect(it.segments.map((s: Json) => [s.id, s.position, s.engine, s.groupId, s.distance])).toEqual(
      view.segments.map((s: Json) => [s.id, s.position, s.engine.toUpperCase(), null, s.distance]),
    );
    expect(it.segments[0].geometry).toEqual(view.segments[0].geometry);
    expect(it.waypoints).toEqual(
      view.waypoints.map((w: Json) => ({ id: w.id, position: w.position, description: w.description, coordinates: w.coordinates })),
    );
    expect(it.waypoints.map((w: Json) => w.description)).toEqual([null, 'Stone bridge\n\nSlippery when wet', null]);
  });

  it("version DRAFT answers the draft: its groups, each segment groupId and the waypoints' descriptions", async () => {
    const it = (await readItinerary(id, 'DRAFT')).data.itinerary;
    expect(it.groups).toHaveLength(1);
    expect(it.groups[0]).toMatchObject({ name: 'Climb', color: '#1A7F37', speed: null });
    expect(it.segments[0].groupId).toBe(it.groups[0].id);
    expect(it.segments[1].groupId).toBeNull();
    expect(it.waypoints.map((w: Json) => w.description)).toEqual([null, 'Bridge closed', null]);
  });

  it('another organization cannot see a private itinerary: null with NOT_FOUND, as over REST', async () => {
    const body = await readItinerary(id, undefined, otherCaller);
    expect(body.data).toEqual({ itinerary: null });
    expect(body.errors).toEqual([{ message: 'Nothing was found here.', path: ['itinerary'], extensions: { code: 'NOT_FOUND' } }]);
  });

  it('a never-published itinerary has no published snapshot: NOT_FOUND; its draft is readable', async () => {
    const draftOnly = await studio('POST', '/v1/itineraries', { name: 'Sketch' });
    expect((await readItinerary(draftOnly.id)).errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await readItinerary(draftOnly.id, 'DRAFT')).data.itinerary).toMatchObject({ name: 'Sketch', segments: [], groups: [] });
  });

  it('an id that is not a uuid is a VALIDATION_FAILED entry at ["input","id"]', async () => {
    const body = await readItinerary('42');
    expect(body.errors[0].extensions).toEqual({ code: 'VALIDATION_FAILED', path: ['input', 'id'] });
    expect(body.errors[0].path).toEqual(['itinerary']);
  });
});

// ---- zones -------------------------------------------------------------------------------------------------

const ZONES = `query Z($input: ZonesInput) { zones(input: $input) { level mode zone { id name level mode privacy radiusM widthM geometry } } }`;

async function zoneNames(input: Record<string, unknown>, who: Caller = caller): Promise<string[]> {
  const r = await postGraphql(server, who, { query: ZONES, variables: { input } });
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.zones.map((z: Json) => z.zone.name);
}

describe('zones', () => {
  // Circle: 200 m around (1.56, 42.50). Corridor: an L of 100 m width. Polygon: a square with a square hole.
  const CIRCLE = {
    name: 'Rockfall',
    level: 'DANGER',
    mode: 'CIRCLE',
    geometry: { type: 'Point', coordinates: [1.56, 42.5] },
    radius_m: 200,
  };
  const CORRIDOR = {
    name: 'Ski run',
    level: 'WARNING',
    mode: 'CORRIDOR',
    geometry: {
      type: 'LineString',
      coordinates: [
        [1.52, 42.48],
        [1.53, 42.48],
        [1.53, 42.49],
      ],
    },
    width_m: 100,
  };
  const square = (w: number, s: number, e: number, n: number) => [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  const POLYGON = {
    name: 'Meadow',
    level: 'INFO',
    mode: 'POLYGON',
    geometry: { type: 'Polygon', coordinates: [square(1.54, 42.51, 1.55, 42.52), square(1.544, 42.514, 1.546, 42.516)] },
  };
  const PRIVATE = {
    name: 'Quarry',
    level: 'PROHIBITED',
    mode: 'CIRCLE',
    geometry: { type: 'Point', coordinates: [1.5601, 42.5001] },
    radius_m: 50,
  };

  beforeAll(async () => {
    for (const zone of [CIRCLE, CORRIDOR, POLYGON]) await studio('POST', '/v1/zones', { ...zone, privacy: 'public' });
    await studio('POST', '/v1/zones', { ...PRIVATE, privacy: 'private' });
    // Another organization's public zone on the same spot is never in this organization's search.
    await studio('POST', '/v1/zones', { ...CIRCLE, name: 'Elsewhere', privacy: 'public' }, other);
  });

  it('without a filter: every zone of the organization, private ones too, most severe first', async () => {
    expect(await zoneNames({})).toEqual(['Quarry', 'Rockfall', 'Ski run', 'Meadow']);
    const r = await postGraphql(server, caller, { query: '{ zones { level mode zone { name privacy } } }' });
    expect(r.body.data.zones[0]).toEqual({ level: 'PROHIBITED', mode: 'CIRCLE', zone: { name: 'Quarry', privacy: 'PRIVATE' } });
  });

  it('a circle contains a point by its radius, not by its bounding square', async () => {
    expect(await zoneNames({ point: [1.5601, 42.5001] })).toEqual(['Quarry', 'Rockfall']);
    // 0.0022° east and 0.0016° north: inside the circle's bounding square, about 253 m from its centre.
    expect(await zoneNames({ point: [1.5622, 42.5016] })).toEqual([]);
  });

  it('a corridor contains a point within half its width of its line, not anywhere in its bounding box', async () => {
    expect(await zoneNames({ point: [1.525, 42.4802] })).toEqual(['Ski run']); // 22 m from the line
    expect(await zoneNames({ point: [1.521, 42.489] })).toEqual([]); // inside the L's box, ~740 m from the line
  });

  it('a polygon contains a point inside its outer ring and outside its holes', async () => {
    expect(await zoneNames({ point: [1.541, 42.511] })).toEqual(['Meadow']);
    expect(await zoneNames({ point: [1.545, 42.515] })).toEqual([]);
  });

  it('a bounding box matches the shapes it meets', async () => {
    // Touches the circle's bounding square but not the circle (its nearest point is ~240 m from the centre).
    expect(await zoneNames({ bbox: [1.5621, 42.5015, 1.563, 42.503] })).toEqual([]);
    expect(await zoneNames({ bbox: [1.5615, 42.4995, 1.57, 42.5005] })).toEqual(['Rockfall']);
    // Inside the corridor's L box but away from its line; then across its vertical leg.
    expect(await zoneNames({ bbox: [1.5205, 42.4855, 1.5215, 42.4895] })).toEqual([]);
    expect(await zoneNames({ bbox: [1.529, 42.485, 1.531, 42.486] })).toEqual(['Ski run']);
    // Inside the polygon's hole; then across its outer edge.
    expect(await zoneNames({ bbox: [1.5445, 42.5145, 1.5455, 42.5155] })).toEqual([]);
    expect(await zoneNames({ bbox: [1.535, 42.515, 1.541, 42.516] })).toEqual(['Meadow']);
  });

  it('levels keep only those levels; point and box together must both match', async () => {
    expect(await zoneNames({ levels: ['WARNING', 'INFO'] })).toEqual(['Ski run', 'Meadow']);
    expect(await zoneNames({ point: [1.5601, 42.5001], levels: ['DANGER'] })).toEqual(['Rockfall']);
    expect(await zoneNames({ point: [1.5601, 42.5001], bbox: [1.52, 42.47, 1.535, 42.495] })).toEqual([]);
  });

  it('another organization sees only its own zones', async () => {
    expect(await zoneNames({ point: [1.5601, 42.5001] }, otherCaller)).toEqual(['Elsewhere']);
  });

  it('a bad box or point is a VALIDATION_FAILED entry at its input path', async () => {
    const r = await postGraphql(server, caller, { query: ZONES, variables: { input: { bbox: [1.6, 42.5, 1.5, 42.6], point: [1.5, 95] } } });
    expect(r.status).toBe(200);
    expect(r.body.errors.map((e: Json) => [e.path, e.extensions])).toEqual([
      [['zones'], { code: 'VALIDATION_FAILED', path: ['input', 'bbox'] }],
      [['zones'], { code: 'VALIDATION_FAILED', path: ['input', 'point', 1] }],
    ]);
  });
});
