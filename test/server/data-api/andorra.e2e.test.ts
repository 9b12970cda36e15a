// Every Data API field on real OpenStreetMap data: the server runs on an Andorra import (with its SRTM tile),
// and each field answers from it. Skipped, saying why, when ../shared/data is absent (a failure in CI).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRegion } from '../../../data/region/import-region.js';
import { ANDORRA_HGT, ANDORRA_PBF, haveData } from '../../data/region/shared-data.js';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../helpers/server.js';
import { type Caller, callerOf, mintSession, postGraphql } from './data-api-client.js';

const OSM = ANDORRA_PBF;
const DEM = ANDORRA_HGT;
const present = haveData(OSM, DEM);

let regionDir = '';
let server: RunningServer;
let org: Bootstrapped;
let caller: Caller;

beforeAll(async () => {
  if (!present) return;
  regionDir = mkdtempSync(join(tmpdir(), 'cairn-data-andorra-'));
  await importRegion({ osm: OSM, dem: [DEM], out: regionDir });
  server = await startServer({ SEED_DEMO: '0', REGION_PATH: regionDir });
  org = bootstrap(server);
  admin(server, 'set', '--org', org.organization.id, 'quota.data=100000');
  caller = callerOf(org, await mintSession(server, org));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (regionDir) rmSync(regionDir, { recursive: true, force: true });
});

type Json = any;

async function query(document: string, variables: Record<string, unknown> = {}): Promise<Json> {
  const r = await postGraphql(server, caller, { query: document, variables });
  expect(r.status).toBe(200);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

async function placeNamed(text: string, kinds: string): Promise<Json> {
  const found = (await query(`{ places(input: {text: "${text}", kinds: [${kinds}], limit: 5}) { id name kind coordinates elevation } }`))
    .places;
  expect(found.length, `no ${text}`).toBeGreaterThan(0);
  return found[0];
}

describe.skipIf(!present)('the Data API on Andorra', () => {
  it('places and place: the capital and the highest peak, with their elevation from the DEM', async () => {
    const capital = await placeNamed('Andorra la Vella', 'TOWN');
    expect(capital.name).toBe('Andorra la Vella');
    const peak = await placeNamed('Comapedrosa', 'PEAK');
    expect(peak.elevation).toBeGreaterThan(2700);
    expect((await query('query Q($id: ID!) { place(id: $id) { id name } }', { id: peak.id })).place).toEqual({
      id: peak.id,
      name: peak.name,
    });
  });

  it('directions between two towns, with alternatives, and the line analysed back onto the same ways', async () => {
    const a = (await placeNamed('Andorra la Vella', 'TOWN')).coordinates;
    const b = (await placeNamed('Encamp', 'TOWN')).coordinates;
    const d = await query(
      'query Q($w: [[Float!]!]!) { directions(input: {activity: WALKING, waypoints: $w, alternatives: 2}) { routes { distance duration ascent avoidance geometry { coordinates } } } }',
      { w: [a, b] },
    );
    const best = d.directions.routes[0];
    expect(best.distance).toBeGreaterThan(3000);
    expect(best.ascent).toBeGreaterThan(50);
    const line = best.geometry.coordinates
      .filter((_: Json, i: number, all: Json[]) => i % 5 === 0 || i === all.length - 1)
      .map((c: number[]) => [c[0], c[1]]);
    const analysis = (
      await query(
        'query Q($l: [[Float!]!]!) { analyzeGeometry(input: {activity: WALKING, geometry: {type: "LineString", coordinates: $l}}) { distance matchedFraction elevationProfile { elevation } } }',
        { l: line },
      )
    ).analyzeGeometry;
    expect(analysis.matchedFraction).toBeGreaterThan(0.8);
    expect(Math.abs(analysis.distance - best.distance) / best.distance).toBeLessThan(0.1);
    expect(analysis.elevationProfile.every((p: Json) => p.elevation > 900)).toBe(true);
  });

  it('suggestions: walking loops from the capital near 6 km, on no toll or restricted way', async () => {
    const start = (await placeNamed('Andorra la Vella', 'TOWN')).coordinates;
    const ideas = (
      await query(
        'query Q($s: [Float!]!) { suggestions(input: {activity: WALKING, start: $s, distance: 6000}) { kind distance advisories { kind } } }',
        {
          s: start,
        },
      )
    ).suggestions;
    expect(ideas.length).toBeGreaterThanOrEqual(1);
    expect(Math.abs(ideas[0].distance - 6000) / 6000).toBeLessThan(0.25);
    for (const idea of ideas) expect(idea.advisories.filter((x: Json) => x.kind !== 'PERMISSIVE')).toEqual([]);
  });

  it('isochrone: nested areas around the capital', async () => {
    const center = (await placeNamed('Andorra la Vella', 'TOWN')).coordinates;
    const iso = (
      await query(
        'query Q($c: [Float!]!) { isochrone(input: {activity: WALKING, center: $c, ranges: [600, 1800]}) { range area reachFactor center } }',
        {
          c: center,
        },
      )
    ).isochrone;
    expect(iso.map((i: Json) => i.range)).toEqual([600, 1800]);
    expect(iso[0].area).toBeLessThan(iso[1].area);
    expect(iso[1].area).toBeGreaterThan(500_000);
    expect(iso[0].center).not.toBeNull();
  });

  it('ways around the capital: OSM ids, highway values, and activities per the filter', async () => {
    const [lon, lat] = (await placeNamed('Andorra la Vella', 'TOWN')).coordinates;
    const bbox = [lon - 0.005, lat - 0.005, lon + 0.005, lat + 0.005];
    const all = (await query('query Q($b: [Float!]!) { ways(input: {bbox: $b}) { id highway activityCompatible } }', { b: bbox })).ways;
    expect(all.length).toBeGreaterThan(20);
    expect(all.every((w: Json) => /^\d+$/.test(w.id))).toBe(true);
    const bikes = (
      await query('query Q($b: [Float!]!) { ways(input: {bbox: $b, activity: ROAD_CYCLING}) { activityCompatible } }', { b: bbox })
    ).ways;
    expect(bikes.length).toBeLessThan(all.length);
    expect(bikes.every((w: Json) => w.activityCompatible.join() === 'ROAD_CYCLING')).toBe(true);
  });

  it('itinerary: planned on the Studio API over Andorra, published, read through the Data API', async () => {
    const a = (await placeNamed('Andorra la Vella', 'TOWN')).coordinates;
    const b = (await placeNamed('Escaldes', 'TOWN')).coordinates;
    const headers = { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id, 'Content-Type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
      return (await res.json()) as Json;
    };
    const id = (await call('POST', '/v1/itineraries', { name: 'Vella to Escaldes', activity: 'WALKING' })).data.id;
    await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: a, to: b });
    await call('POST', `/v1/itineraries/${id}/publish`);
    const it = (
      await query(
        'query Q($id: ID!) { itinerary(id: $id) { name distance groups { id } segments { engine groupId distance geometry { coordinates } } } }',
        { id },
      )
    ).itinerary;
    expect(it.name).toBe('Vella to Escaldes');
    expect(it.groups).toEqual([]);
    expect(it.segments).toHaveLength(1);
    expect(it.segments[0]).toMatchObject({ engine: 'SMART', groupId: null });
    expect(it.segments[0].distance).toBeGreaterThan(500);
  });
});
