// The tile encoder writes, from geojson-vt's stored tiles, exactly the bytes vt-pbf writes from the same tiles: on
// every trail tile of the demo region at z10–z14 (the archive's zooms), and on features of every kind and value type.

import GeoJSONVT from 'geojson-vt';
import { describe, expect, it } from 'vitest';
import vtpbf from 'vt-pbf';
import { buildDemoRegion } from '../../data/region/demo-region.js';
import { encodeMvt } from '../../workers/mvt-encoder.js';
import { ARCHIVE_MAX_ZOOM } from '../../contracts/tiles.js';
import { INDEX_OPTIONS } from '../../workers/tile-cut.js';
import { TRAIL_LAYERS, trailLayerFeatures } from '../../workers/trail-features.js';
import { tileAt } from '../helpers/tiles.js';

const EXTENT = 4096;

/** vt-pbf over geojson-vt's nested tiles: the reference encoding. */
function reference(indexes: [string, GeoJSONVT][], z: number, x: number, y: number): Uint8Array {
  const layers: Record<string, unknown> = {};
  for (const [name, index] of indexes) {
    const tile = index.getTile(z, x, y);
    if (tile && tile.features.length > 0) layers[name] = tile;
  }
  return Object.keys(layers).length === 0 ? new Uint8Array(0) : vtpbf.fromGeojsonVt(layers as never, { version: 2, extent: EXTENT });
}

function encoded(indexes: [string, GeoJSONVT][], z: number, x: number, y: number): Uint8Array {
  return encodeMvt(
    indexes.map(([name, index]) => [name, index.getTileRaw(z, x, y)] as const),
    EXTENT,
  );
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('the MVT encoder', () => {
  it('writes vt-pbf’s bytes for every trail tile of the demo region, z10 to z14', () => {
    const region = buildDemoRegion();
    const features = trailLayerFeatures(region);
    const peer: [string, GeoJSONVT][] = TRAIL_LAYERS.flatMap((name) => {
      const list = features[name];
      return list
        ? [
            [
              name,
              new GeoJSONVT({ type: 'FeatureCollection', features: list.features } as never, {
                ...INDEX_OPTIONS,
                maxZoom: ARCHIVE_MAX_ZOOM,
              }),
            ] as [string, GeoJSONVT],
          ]
        : [];
    });
    const [west, south, east, north] = region.meta.bbox;
    let withContent = 0;
    for (let z = 10; z <= ARCHIVE_MAX_ZOOM; z++) {
      const from = tileAt(west, north, z);
      const to = tileAt(east, south, z);
      for (let x = from.x; x <= to.x; x++) {
        for (let y = from.y; y <= to.y; y++) {
          // The reference leaves contours out below z12, as the product does.
          const layers = peer.filter(([name]) => name !== 'contours' || z >= 12);
          const expected = reference(layers, z, x, y);
          const actual = encoded(layers, z, x, y);
          if (!same(actual, expected)) throw new Error(`tile ${z}/${x}/${y} differs from vt-pbf's`);
          if (actual.byteLength > 0) withContent++;
        }
      }
    }
    expect(withContent).toBeGreaterThan(25);
  });

  it('writes points, multi-points, lines, polygons with holes, ids and every value type as vt-pbf does', () => {
    const square = (x0: number, y0: number, d: number) => [
      [x0, y0],
      [x0 + d, y0],
      [x0 + d, y0 + d],
      [x0, y0 + d],
      [x0, y0],
    ];
    const data = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 7, geometry: { type: 'Point', coordinates: [1.5, 42.5] }, properties: { name: 'Cabane', ele: 2301 } },
        {
          type: 'Feature',
          geometry: {
            type: 'MultiPoint',
            coordinates: [
              [1.51, 42.51],
              [1.52, 42.49],
            ],
          },
          properties: { kind: 'spring', ok: true },
        },
        {
          type: 'Feature',
          id: 'not-a-number',
          geometry: {
            type: 'LineString',
            coordinates: [
              [1.49, 42.49],
              [1.5, 42.5],
              [1.51, 42.495],
            ],
          },
          properties: { name: 'Ridge', grade: -3, share: 0.25, missing: null, nested: { a: [1, 2] }, ele: 2301 },
        },
        {
          type: 'Feature',
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [1.49, 42.5],
                [1.5, 42.51],
              ],
              [
                [1.5, 42.49],
                [1.51, 42.5],
              ],
            ],
          },
          properties: { name: 'Cabane' },
        },
        {
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates: [square(1.48, 42.48, 0.04), square(1.49, 42.49, 0.01).reverse()] },
          properties: { level: 'CAUTION', ü: 'naïve ✓' },
        },
      ],
    };
    const index = new GeoJSONVT(data as never, { maxZoom: 16, indexMaxZoom: 4, extent: EXTENT, buffer: 64, tolerance: 3 });
    const indexes: [string, GeoJSONVT][] = [['things', index]];
    for (const z of [8, 12, 14]) {
      const { x, y } = tileAt(1.5, 42.5, z);
      const expected = reference(indexes, z, x, y);
      expect(expected.byteLength).toBeGreaterThan(0);
      expect(same(encoded(indexes, z, x, y), expected)).toBe(true);
    }
  });
});
