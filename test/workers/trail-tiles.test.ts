// Trail tiles of the demo region, from its tile archive, decoded as a map client would: the trails, hazards and
// places layers with their fields, nothing where the region has nothing; tiles deeper than the archive cut from their
// ancestor, and refused coordinates.

import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import { checkTile } from '../../workers/trail-tiles.js';
import { tileAt, type TileAddress } from '../helpers/tiles.js';
import { type ArchiveTiles, archiveTiles } from '../helpers/trail-archive.js';

let region: Region;
let tiles: ArchiveTiles;
beforeAll(() => {
  region = buildDemoRegion();
  tiles = archiveTiles(region);
});

const trailTile = ({ z, x, y }: TileAddress) => tiles.tile(z, x, y);

function decode(bytes: Uint8Array) {
  return new VectorTile(new Pbf(bytes));
}

function features(tile: ReturnType<typeof decode>, layer: string) {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

const village = () => {
  const v = [...region.places].find((p) => p.name === 'Vilanova de Cairn');
  if (!v) throw new Error('the demo village is missing');
  return v;
};

describe('trail tiles', () => {
  it('a tile over the village holds its trails with their OSM tags, and its places with elevation', () => {
    const v = village();
    const bytes = trailTile(tileAt(v.lon, v.lat, 14)) as Uint8Array;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.byteLength).toBeGreaterThan(100);
    const tile = decode(bytes);
    expect(Object.keys(tile.layers).sort()).toEqual(expect.arrayContaining(['places', 'trails']));
    const trails = features(tile, 'trails');
    expect(trails.length).toBeGreaterThan(5);
    for (const f of trails) {
      expect(f.type).toBe(2); // LineString
      expect(typeof f.properties.osm_id).toBe('number');
      expect(typeof f.properties.highway).toBe('string');
      expect([
        'yes',
        'permissive',
        'destination',
        'private',
        'customers',
        'delivery',
        'permit',
        'agricultural',
        'forestry',
        'no',
      ]).toContain(f.properties.foot);
    }
    expect(trails.some((f) => f.properties.name === 'Carrer Major')).toBe(true);
    expect(trails.some((f) => /^T[1-6]$/.test(String(f.properties.sac_scale)))).toBe(true);
    const places = features(tile, 'places');
    const here = places.find((f) => f.properties.name === 'Vilanova de Cairn');
    expect(here?.properties.kind).toBe('village');
    expect(here?.properties.ele).toBeGreaterThan(500);
  });

  it('the hazards layer holds the toll road and the private ways, with their kind', () => {
    const [west, south, east, north] = region.meta.bbox;
    const from = tileAt(west, north, 12);
    const to = tileAt(east, south, 12);
    const hazards = [];
    for (let x = from.x; x <= to.x; x++)
      for (let y = from.y; y <= to.y; y++) hazards.push(...features(decode(trailTile({ z: 12, x, y })), 'hazards'));
    expect(new Set(hazards.map((f) => f.properties.kind))).toEqual(new Set(['TOLLWAY', 'RESTRICTED_ACCESS']));
    expect(hazards.find((f) => f.properties.kind === 'TOLLWAY')?.properties.name).toBe('Carretera del Coll');
  });

  it('a tile where the region has nothing is empty', () => {
    expect(trailTile({ z: 10, x: 0, y: 0 }).byteLength).toBe(0);
    expect(trailTile({ z: 16, x: 0, y: 0 }).byteLength).toBe(0);
  });

  it('a tile deeper than the archive is its ancestor scaled up and clipped: the same ways, fewer of them', () => {
    const v = village();
    const at14 = tileAt(v.lon, v.lat, 14);
    const at16 = tileAt(v.lon, v.lat, 16);
    const parent = features(decode(trailTile(at14)), 'trails');
    const child = features(decode(trailTile(at16)), 'trails');
    expect(child.length).toBeGreaterThan(0);
    const ids = new Set(parent.map((f) => f.properties.osm_id));
    for (const f of child) expect(ids.has(f.properties.osm_id)).toBe(true);
    expect(new Set(child.map((f) => f.properties.osm_id)).size).toBeLessThanOrEqual(ids.size);
    // The village is where the ancestor puts it, four times as far from the child's corner.
    const place = (tile: ReturnType<typeof decode>) => features(tile, 'places').find((f) => f.properties.name === v.name);
    const p14 = place(decode(trailTile(at14)))!.loadGeometry()[0]![0]!;
    const p16 = place(decode(trailTile(at16)))!.loadGeometry()[0]![0]!;
    expect(p16.x).toBe(p14.x * 4 - (at16.x - at14.x * 4) * 4096);
    expect(p16.y).toBe(p14.y * 4 - (at16.y - at14.y * 4) * 4096);
  });

  it('the worker refuses a deep tile out of range at its field', () => {
    const ancestor = new Uint8Array(0);
    expect(checkTile({ z: 17, x: 0, y: 0, ancestor })).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'z'] });
    expect(checkTile({ z: 14, x: 0, y: 0, ancestor })).toMatchObject({ ok: false, path: ['input', 'z'] });
    expect(checkTile({ z: 15, x: 2 ** 15, y: 0, ancestor })).toMatchObject({ ok: false, path: ['input', 'x'] });
    expect(checkTile({ z: 15, x: 1, y: -1, ancestor })).toMatchObject({ ok: false, path: ['input', 'y'] });
    expect(checkTile({ z: 15.5, x: 1, y: 1, ancestor })).toMatchObject({ ok: false, path: ['input', 'z'] });
    expect(checkTile({ z: 16, x: 1, y: 1, ancestor })).toBeUndefined();
  });
});
