// Trail tiles of the demo region, decoded as a map client would: the trails, hazards and places layers with
// their fields, nothing where the region has nothing, and refused coordinates.

import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import type { Region } from '../../data/region/region.js';
import { buildIndexes, checkTile, encodeTrailTile, type TrailIndexes } from '../../workers/trail-tiles.js';
import type { TrailTileInput } from '../../contracts/tiles.js';
import { tileAt } from '../helpers/tiles.js';

let region: Region;
let indexes: TrailIndexes;
beforeAll(() => {
  region = buildDemoRegion();
  indexes = buildIndexes(region);
});

/** The task's answer for a tile: a failure, or the bytes. */
const trailTile = (input: TrailTileInput) => checkTile(input) ?? encodeTrailTile(indexes, input);

function decode(bytes: Uint8Array) {
  return new VectorTile(new Pbf(bytes));
}

function features(tile: ReturnType<typeof decode>, layer: string) {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

const village = () => {
  const v = region.places.find((p) => p.name === 'Vilanova de Cairn');
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
    const v = village();
    const tile = decode(trailTile(tileAt(v.lon, v.lat, 8)) as Uint8Array); // the whole valley
    const kinds = new Set(features(tile, 'hazards').map((f) => f.properties.kind));
    expect(kinds).toEqual(new Set(['TOLLWAY', 'RESTRICTED_ACCESS']));
    const toll = features(tile, 'hazards').find((f) => f.properties.kind === 'TOLLWAY');
    expect(toll?.properties.name).toBe('Carretera del Coll');
  });

  it('a tile where the region has nothing is empty; coordinates out of range are refused at their field', () => {
    expect((trailTile({ z: 10, x: 0, y: 0 }) as Uint8Array).byteLength).toBe(0);
    expect(trailTile({ z: 17, x: 0, y: 0 })).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', path: ['input', 'z'] });
    expect(trailTile({ z: 2, x: 4, y: 0 })).toMatchObject({ ok: false, path: ['input', 'x'] });
    expect(trailTile({ z: 2, x: 1, y: -1 })).toMatchObject({ ok: false, path: ['input', 'y'] });
    expect(trailTile({ z: 2.5, x: 1, y: 1 })).toMatchObject({ ok: false, path: ['input', 'z'] });
  });
});
