// Several regions behind one API (REGIONS_PATH): two demo valleys 0.1° of longitude apart, each a region folder as an
// import writes it. Every Data API field answers from the region its coordinates lie in; a route between the two is
// refused at the waypoint that changes region, naming both; searches span both; the trail tiles are the union.
// (Run scaled out, every node serves the same folder.)
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EAST_VALLEY } from '../../helpers/demo-valleys.js';
import { tileAt } from '../../helpers/tiles.js';
import { type RegionsServer, startOnValleys } from './regions-server.js';

let at: RegionsServer;

/** A demo route in the west valley, and the same route 0.1° east. */
const WEST = [
  [1.551, 42.4952],
  [1.5703, 42.5049],
];
const EAST = WEST.map(([lon, lat]) => [lon! + 0.1, lat!]);

beforeAll(async () => {
  at = await startOnValleys({ west: {}, east: EAST_VALLEY });
}, 120_000);
afterAll(() => at?.stop());

type Json = any;
const graphql = (query: string, variables: Record<string, unknown> = {}) => at.graphql(query, variables);
const data = (query: string, variables: Record<string, unknown> = {}) => at.data(query, variables);

const DIRECTIONS = 'query D($w: [[Float!]!]!) { directions(input: {activity: HIKING_AND_TRAIL, waypoints: $w}) { routes { distance } } }';

describe('several regions served from one folder', () => {
  it('lists every region with its bounds, build date, source and attribution', async () => {
    const { regions } = await data('{ regions { name bounds builtAt source osmTimestamp attribution } }');
    expect(regions.map((r: Json) => r.name)).toEqual(['east', 'west']);
    const [east, west] = regions;
    expect(west.bounds[0]).toBeLessThan(1.56);
    expect(east.bounds[0]).toBeGreaterThan(1.6);
    expect(west.bounds[2]).toBeLessThan(east.bounds[0]); // they do not overlap
    for (const r of regions) {
      expect(Date.parse(r.builtAt)).toBeGreaterThan(Date.now() - 3_600_000);
      expect(r).toMatchObject({ source: null, osmTimestamp: null, attribution: 'Cairn demo region (generated, fictional)' });
    }
  });

  it('routes in each region, the same valley giving the same route', async () => {
    const west = (await data(DIRECTIONS, { w: WEST })).directions.routes[0];
    const east = (await data(DIRECTIONS, { w: EAST })).directions.routes[0];
    expect(west.distance).toBeGreaterThan(1000);
    expect(Math.abs(east.distance - west.distance)).toBeLessThan(1);
  });

  it('refuses a route between regions that share no network, at the waypoint in the other, naming both', async () => {
    const body = await graphql(DIRECTIONS, { w: [WEST[0], WEST[1], EAST[0]] });
    expect(body.data).toBeNull();
    const [error] = body.errors;
    expect(error.extensions.code).toBe('VALIDATION_FAILED');
    expect(error.path).toEqual(['directions']);
    const [entry] = error.extensions.errors ?? [error.extensions];
    expect(JSON.stringify(error)).toContain('"input","waypoints",2');
    expect(error.message + JSON.stringify(entry)).toMatch(/east.*west|west.*east/);
  });

  it('finds places in both regions, or near a point in the one there', async () => {
    const both = (await data('{ places(input: {text: "Pic de Cairn", kinds: [PEAK]}) { id name coordinates } }')).places;
    expect(both.map((p: Json) => p.name)).toEqual(['Pic de Cairn', 'Pic de Cairn']);
    expect(new Set(both.map((p: Json) => Math.round(p.coordinates[0] * 10)))).toEqual(new Set([16, 17]));
    const near = (
      await data('query P($near: [Float!]!) { places(input: {text: "Pic de Cairn", near: $near}) { id coordinates } }', { near: EAST[0] })
    ).places;
    expect(near).toHaveLength(1);
    expect(near[0].coordinates[0]).toBeGreaterThan(1.6);
    const byId = (await data('query Q($id: ID!) { place(id: $id) { id name } }', { id: near[0].id })).place;
    expect(byId).toEqual({ id: near[0].id, name: 'Pic de Cairn' });
    expect(Number(near[0].id.split('/')[1])).toBeGreaterThan(EAST_VALLEY.idOffset);
  });

  it('lists the ways of a box in either region, and of a box over both once each, by id', async () => {
    const ways = async (bbox: number[]) => (await data('query W($b: [Float!]!) { ways(input: {bbox: $b}) { id } }', { b: bbox })).ways;
    const west = await ways([1.54, 42.49, 1.56, 42.51]);
    const east = await ways([1.64, 42.49, 1.66, 42.51]);
    expect(west.length).toBeGreaterThan(0);
    expect(east.map((w: Json) => Number(w.id))).toEqual(west.map((w: Json) => Number(w.id) + EAST_VALLEY.idOffset));
    const over = await ways([1.57, 42.49, 1.65, 42.51]);
    const ids = over.map((w: Json) => Number(w.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.some((id: number) => id < EAST_VALLEY.idOffset)).toBe(true);
    expect(ids.some((id: number) => id > EAST_VALLEY.idOffset)).toBe(true);
  });

  it('draws isochrones in the region of their center', async () => {
    const query = 'query I($c: [Float!]!) { isochrone(input: {activity: HIKING_AND_TRAIL, center: $c, ranges: [600]}) { area center } }';
    const west = (await data(query, { c: WEST[0] })).isochrone[0];
    const east = (await data(query, { c: EAST[0] })).isochrone[0];
    expect(west.area).toBeGreaterThan(0);
    expect(east.center[0]).toBeGreaterThan(1.6);
    expect(east.area / west.area).toBeCloseTo(1, 1);
  });

  it('describes the union in TileJSON and serves each region’s tiles, merged where both meet', async () => {
    const key = at.org.publishableKey.key;
    const tileJson = (await (await fetch(`${at.server.url}/v1/tiles/trails.json?publishable_key=${key}`)).json()) as Json;
    expect(tileJson.bounds[0]).toBeLessThan(1.56);
    expect(tileJson.bounds[2]).toBeGreaterThan(1.66);
    expect(tileJson.regions.map((r: Json) => r.name)).toEqual(['east', 'west']);
    const trailIds = async (z: number, [lon, lat]: number[]) => {
      const { x, y } = tileAt(lon!, lat!, z);
      const res = await fetch(`${at.server.url}/v1/tiles/trails/${z}/${x}/${y}.mvt?publishable_key=${key}`);
      expect(res.status).toBe(200);
      const layer = new VectorTile(new Pbf(new Uint8Array(await res.arrayBuffer()))).layers.trails!;
      return Array.from({ length: layer.length }, (_, i) => Number(layer.feature(i).properties.osm_id));
    };
    const west = await trailIds(14, WEST[0]!);
    const east = await trailIds(14, EAST[0]!);
    expect(west.every((id) => id < EAST_VALLEY.idOffset)).toBe(true);
    expect(east.every((id) => id > EAST_VALLEY.idOffset)).toBe(true);
    // One z9 tile holds both valleys: the trails of both, from two archives.
    expect(tileAt(WEST[0]![0]!, WEST[0]![1]!, 9)).toEqual(tileAt(EAST[0]![0]!, EAST[0]![1]!, 9));
    const both = await trailIds(9, WEST[0]!);
    expect(both.some((id) => id < EAST_VALLEY.idOffset)).toBe(true);
    expect(both.some((id) => id > EAST_VALLEY.idOffset)).toBe(true);
  });

  it('is ready, naming the regions it serves', async () => {
    const res = await fetch(`${at.server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', regions: ['east', 'west'], problems: [] });
  });
});
