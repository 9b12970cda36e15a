// The Data API fields answered by the region over real HTTP: suggestions, isochrone and analyzeGeometry (the
// intelligence tier: a PAYMENT_REQUIRED entry without the product), places, place and ways, with their input
// errors at ["input", …].

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../helpers/server.js';
import { type Caller, callerOf, mintSession, postGraphql } from './data-api-client.js';

let server: RunningServer;
let org: Bootstrapped;
let caller: Caller;
let lean: Caller;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: '0' });
  org = bootstrap(server);
  admin(server, 'set', '--org', org.organization.id, 'quota.data=100000');
  caller = callerOf(org, await mintSession(server, org));
  const without = bootstrap(server);
  admin(server, 'set', '--org', without.organization.id, 'products=data,studio', 'quota.data=100000');
  lean = callerOf(without, await mintSession(server, without));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

type Json = any;

async function query(who: Caller, document: string, variables: Record<string, unknown> = {}): Promise<Json> {
  const r = await postGraphql(server, who, { query: document, variables });
  expect(r.status).toBe(200);
  return r.body;
}

/** The demo village, found through the places field itself. */
async function village(): Promise<[number, number]> {
  const out = await query(caller, '{ places(input: {text: "Vilanova de Cairn", limit: 1}) { coordinates } }');
  return out.data.places[0].coordinates;
}

describe('intelligence tier', () => {
  const fields = [
    ['suggestions', 'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s, distance: 3000}) { distance } }'],
    ['isochrone', 'query Q($s: [Float!]!) { isochrone(input: {activity: WALKING, center: $s, ranges: [600]}) { range } }'],
    [
      'analyzeGeometry',
      'query Q($s: [Float!]!) { analyzeGeometry(input: {activity: WALKING, geometry: {type: "LineString", coordinates: [$s, [1.56, 42.5]]}}) { distance } }',
    ],
  ] as const;

  it.each(fields)('%s without the intelligence product: 200 with a PAYMENT_REQUIRED entry and no data for it', async (field, document) => {
    const out = await query(lean, document, { s: await village() });
    expect(out.data).toBeNull();
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0].path).toEqual([field]);
    expect(out.errors[0].extensions.code).toBe('PAYMENT_REQUIRED');
    expect(out.errors[0].message).toMatch(/intelligence/);
  });
});

describe('suggestions', () => {
  it('loops near the target distance, back at the start, on no toll or restricted way', async () => {
    const start = await village();
    const out = await query(
      caller,
      `query Q($s: [Float!]!) { suggestions(input: {activity: HIKING_AND_TRAIL, start: $s, distance: 5000, limit: 2}) {
        kind via distance duration ascent descent geometry { type coordinates } advisories { kind } trailDifficultyInfo { difficulty } } }`,
      { s: start },
    );
    expect(out.errors).toBeUndefined();
    const ideas = out.data.suggestions;
    expect(ideas.length).toBeGreaterThanOrEqual(1);
    expect(ideas.length).toBeLessThanOrEqual(2);
    expect(Math.abs(ideas[0].distance - 5000) / 5000).toBeLessThan(0.2);
    for (const idea of ideas) {
      expect(idea.kind).toBe('LOOP');
      expect(idea.geometry.type).toBe('LineString');
      expect(idea.geometry.coordinates[0]).toEqual(idea.geometry.coordinates.at(-1));
      expect(idea.advisories.map((a: Json) => a.kind).filter((k: string) => k !== 'PERMISSIVE')).toEqual([]);
      expect(idea.via[0]).toEqual(start);
    }
  });

  it('a target given twice, or none, is an entry at input.distance', async () => {
    const out = await query(caller, 'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s}) { distance } }', {
      s: await village(),
    });
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'distance'] });
    expect(out.errors[0].message).toMatch(/exactly one target/);
  });

  it('a start that is not a position, or a limit out of range, is an entry saying what to send', async () => {
    const start = await query(caller, '{ suggestions(input: {activity: WALKING, start: [1.55], distance: 3000}) { distance } }');
    expect(start.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'start'] });
    expect(start.errors[0].message).toMatch(/\[longitude, latitude\]/);
    const limit = await query(
      caller,
      'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s, distance: 3000, limit: 9}) { distance } }',
      {
        s: await village(),
      },
    );
    expect(limit.errors[0].extensions).toMatchObject({ path: ['input', 'limit'] });
    expect(limit.errors[0].message).toMatch(/1 to 5/);
  });

  it('a target out of range or an end off the globe is refused before any routing', async () => {
    const s = await village();
    const short = await query(
      caller,
      'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s, distance: 10}) { distance } }',
      { s },
    );
    expect(short.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'distance'] });
    const end = await query(
      caller,
      'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s, end: [500, 1], distance: 3000}) { distance } }',
      { s },
    );
    expect(end.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'end'] });
    expect(end.errors[0].message).toMatch(/\[longitude, latitude\]/);
  });

  it('fails with a NOT_FOUND entry when no idea avoids the hazards (a start far from any way)', async () => {
    const out = await query(caller, '{ suggestions(input: {activity: WALKING, start: [-120, -45], distance: 3000}) { distance } }');
    expect(out.data).toBeNull();
    expect(out.errors[0]).toMatchObject({ path: ['suggestions'], extensions: { code: 'NOT_FOUND' } });
  });
});

describe('isochrone', () => {
  it('one nested polygon per range with its reach factor and the snapped start', async () => {
    const center = await village();
    const out = await query(
      caller,
      'query Q($c: [Float!]!) { isochrone(input: {activity: WALKING, center: $c, ranges: [1200, 300]}) { range polygon { type coordinates } reachFactor area center } }',
      { c: center },
    );
    expect(out.errors).toBeUndefined();
    const [small, large] = out.data.isochrone;
    expect([small.range, large.range]).toEqual([300, 1200]);
    expect(small.polygon.type).toBe('Polygon');
    expect(small.area).toBeLessThan(large.area);
    for (const i of out.data.isochrone) {
      expect(i.reachFactor).toBeGreaterThan(0);
      expect(i.reachFactor).toBeLessThanOrEqual(1);
      const ring = i.polygon.coordinates[0];
      expect(ring[0]).toEqual(ring.at(-1));
      expect(Math.abs(i.center[0] - center[0])).toBeLessThan(0.01);
    }
  });

  it('a start that snaps nowhere: each range with an empty polygon and a null center; a bad range is an entry at its index', async () => {
    const far = await query(
      caller,
      '{ isochrone(input: {activity: WALKING, center: [-120, -45], ranges: [600]}) { range center area polygon { coordinates } } }',
    );
    expect(far).toEqual({ data: { isochrone: [{ range: 600, center: null, area: 0, polygon: { coordinates: [] } }] } });
    const bad = await query(caller, '{ isochrone(input: {activity: WALKING, center: [1.56, 42.5], ranges: [600, 0]}) { range } }');
    expect(bad.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'ranges', 1] });
  });
});

describe('analyzeGeometry', () => {
  it('measures a drawn line and gives its elevation profile point by point', async () => {
    const a = await village();
    const b: [number, number] = [a[0] + 0.004, a[1] + 0.002];
    const out = await query(
      caller,
      `query Q($line: [[Float!]!]!) { analyzeGeometry(input: {activity: WALKING, geometry: {type: "LineString", coordinates: $line}}) {
        distance duration matchedFraction ascent descent advisories { kind } trailDifficultyInfo { difficulty } elevationProfile { distance elevation } } }`,
      { line: [a, b] },
    );
    expect(out.errors).toBeUndefined();
    const r = out.data.analyzeGeometry;
    expect(r.distance).toBeGreaterThan(300);
    expect(r.duration).toBeGreaterThan(0);
    expect(r.elevationProfile).toHaveLength(2);
    expect(r.elevationProfile[0].distance).toBe(0);
    expect(r.elevationProfile[1].distance).toBeCloseTo(r.distance, 0);
    expect(r.elevationProfile[0].elevation).toBeGreaterThan(500);
  });

  it('a geometry that is not a LineString is an entry at input.geometry.type', async () => {
    const out = await query(
      caller,
      '{ analyzeGeometry(input: {activity: WALKING, geometry: {type: "Point", coordinates: [[1.5, 42.5]]}}) { distance } }',
    );
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'geometry', 'type'] });
  });
});

describe('places and place', () => {
  it('ranked by match then distance, with houseNumber and no score; a place by its id', async () => {
    const [lon, lat] = await village();
    const out = await query(
      caller,
      'query Q($n: [Float!]!) { places(input: {text: "mirador", near: $n, radius: 20000}) { id name kind coordinates elevation houseNumber street distance } }',
      { n: [lon, lat] },
    );
    expect(out.errors).toBeUndefined();
    const found = out.data.places;
    expect(found.length).toBeGreaterThanOrEqual(2);
    expect(found.every((p: Json) => p.kind === 'VIEWPOINT')).toBe(true);
    expect(found.map((p: Json) => p.distance)).toEqual([...found.map((p: Json) => p.distance)].sort((x: number, y: number) => x - y));
    const one = await query(caller, 'query Q($id: ID!) { place(id: $id) { id name } }', { id: found[0].id });
    expect(one.data.place).toEqual({ id: found[0].id, name: found[0].name });
    const score = await postGraphql(server, caller, { query: '{ places(input: {text: "x"}) { score } }' });
    expect(score.status).toBe(400);
    const address = await query(
      caller,
      'query Q($n: [Float!]!) { places(input: {near: $n, kinds: [ADDRESS], limit: 1}) { houseNumber street } }',
      {
        n: [lon, lat],
      },
    );
    expect(address.data.places[0].houseNumber).toBeTruthy();
  });

  it('with only near, every place has a name: an address is named by its street and house number', async () => {
    const [lon, lat] = await village();
    const out = await query(caller, 'query Q($n: [Float!]!) { places(input: {near: $n, limit: 50}) { name kind houseNumber street } }', {
      n: [lon, lat],
    });
    const addresses = out.data.places.filter((p: Json) => p.kind === 'ADDRESS');
    expect(addresses.length).toBeGreaterThan(0);
    for (const p of out.data.places) expect(p.name, JSON.stringify(p)).not.toBe('');
    for (const a of addresses.filter((p: Json) => p.street && p.houseNumber)) expect(a.name).toBe(`${a.street} ${a.houseNumber}`);
  });

  it('neither text nor near is an entry at input.text; an unknown id is null', async () => {
    const out = await query(caller, '{ places(input: {}) { id } }');
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'text'] });
    expect((await query(caller, '{ place(id: "node/1") { id } }')).data.place).toBeNull();
  });

  it('a place id not of the form places returns is an entry at input.id saying what to send', async () => {
    const out = await query(caller, '{ place(id: "relation/1") { id } }');
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'id'] });
    expect(out.errors[0].message).toMatch(/node\/<number> or way\/<number>/);
  });

  it('a centre off the globe is an entry at input.near saying what to send', async () => {
    const out = await query(caller, '{ places(input: {near: [1, 200]}) { id } }');
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'near'] });
    expect(out.errors[0].message).toMatch(/latitude/i);
  });
});

describe('ways', () => {
  it('unfiltered: every activity that accepts a way; filtered: only that activity, on ways it may use', async () => {
    const [lon, lat] = await village();
    const bbox = [lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01];
    const all = (
      await query(caller, 'query Q($b: [Float!]!) { ways(input: {bbox: $b}) { id name highway surface sacScale activityCompatible } }', {
        b: bbox,
      })
    ).data.ways;
    expect(all.length).toBeGreaterThan(3);
    expect(all.some((w: Json) => w.activityCompatible.length > 1)).toBe(true);
    const cycling = (
      await query(caller, 'query Q($b: [Float!]!) { ways(input: {bbox: $b, activity: ROAD_CYCLING}) { id activityCompatible } }', {
        b: bbox,
      })
    ).data.ways;
    expect(cycling.length).toBeGreaterThan(0);
    for (const w of cycling) expect(w.activityCompatible).toEqual(['ROAD_CYCLING']);
    const accepting = all.filter((w: Json) => w.activityCompatible.includes('ROAD_CYCLING')).map((w: Json) => w.id);
    expect(cycling.map((w: Json) => w.id).sort()).toEqual(accepting.sort());
  });

  it('a box too large is an entry at input.bbox', async () => {
    const out = await query(caller, '{ ways(input: {bbox: [1, 42, 2, 43]}) { id } }');
    expect(out.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', path: ['input', 'bbox'] });
    expect(out.errors[0].message).toMatch(/0\.1/);
  });
});
