// The tiles two regions hold at one address, merged: every feature of both, each layer once, tags kept.
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { describe, expect, it } from 'vitest';
import { fromGeojsonVt } from 'vt-pbf';
import GeoJSONVT from 'geojson-vt';
import { mergeTiles } from '../../workers/mvt-overzoom.js';

/** One tile (z0) with a `trails` layer of the given lines and a `peaks` layer of the given points. */
function tile(lines: { id: number; name: string; at: number }[], peaks: { name: string; at: number }[] = []): Uint8Array {
  const layer = (features: object[]) => new GeoJSONVT({ type: 'FeatureCollection', features } as never, { maxZoom: 0 }).getTile(0, 0, 0);
  const trails = layer(
    lines.map((l) => ({
      type: 'Feature',
      properties: { osm_id: l.id, name: l.name },
      geometry: {
        type: 'LineString',
        coordinates: [
          [l.at, 10],
          [l.at + 5, 15],
        ],
      },
    })),
  );
  const layers: Record<string, unknown> = { trails };
  if (peaks.length) {
    layers.peaks = layer(
      peaks.map((p) => ({ type: 'Feature', properties: { name: p.name }, geometry: { type: 'Point', coordinates: [p.at, 20] } })),
    );
  }
  return fromGeojsonVt(layers as never, { version: 2 });
}

const read = (bytes: Uint8Array) => new VectorTile(new Pbf(bytes));
const features = (bytes: Uint8Array, name: string) => {
  const layer = read(bytes).layers[name];
  return layer ? Array.from({ length: layer.length }, (_, i) => layer.feature(i)) : [];
};

describe('merging the tiles of regions that meet', () => {
  it('keeps every feature of both with its own tags, each layer once', () => {
    const a = tile([{ id: 1, name: 'Camí Ral', at: 0 }], [{ name: 'Pic', at: 1 }]);
    const b = tile([
      { id: 2, name: 'Camí Ral', at: 20 },
      { id: 3, name: 'GR 11', at: 30 },
    ]);
    const merged = mergeTiles([a, b]);
    expect(Object.keys(read(merged).layers).sort()).toEqual(['peaks', 'trails']);
    const trails = features(merged, 'trails');
    expect(trails.map((f) => f.properties)).toEqual([
      { osm_id: 1, name: 'Camí Ral' },
      { osm_id: 2, name: 'Camí Ral' },
      { osm_id: 3, name: 'GR 11' },
    ]);
    expect(trails[1]!.loadGeometry()).toEqual(features(b, 'trails')[0]!.loadGeometry());
    expect(features(merged, 'peaks').map((f) => f.properties)).toEqual([{ name: 'Pic' }]);
  });
});
