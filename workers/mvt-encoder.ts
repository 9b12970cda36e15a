// Mapbox Vector Tile encoding straight from geojson-vt's stored tiles (`getTileRaw`: flat typed coordinate arrays,
// zero copy). vt-pbf encodes `getTile`'s nested [x, y] pairs through wrapper objects and one Point per coordinate;
// this writes the same protobuf, byte for byte (the same field order, key and value tables in first-seen order,
// command and zigzag geometry), with no object per coordinate. The tile tests and the tiles benchmark compare the
// two encoders' bytes.

import type { RawFeature, RawTile } from 'geojson-vt';
import Pbf from 'pbf';

const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;
const command = (id: number, count: number) => (count << 3) + (id & 0x7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/**
 * One buffer for every tile of the thread (the writers below write into it): it grows to the largest tile once, and
 * each tile is copied out.
 */
const out = new Pbf();

/**
 * Encodes the layers, in the order given, as one tile in a buffer of its own. A layer with no tile or no feature is left
 * out; a tile with no layer left is empty (0 bytes: the server answers 204).
 */
export function encodeMvt(layers: readonly (readonly [name: string, tile: RawTile | null | undefined])[], extent: number): Uint8Array {
  out.pos = 0;
  for (const [name, tile] of layers) if (tile && tile.features.length > 0) out.writeMessage(3, writeLayer, { name, tile, extent });
  return out.buf.slice(0, out.pos);
}

interface LayerContext {
  name: string;
  tile: RawTile;
  extent: number;
}

interface FeatureContext {
  feature: RawFeature;
  keys: string[];
  values: unknown[];
  keyIndex: Map<string, number>;
  valueIndex: Map<string, number>;
}

function writeLayer({ name, tile, extent }: LayerContext): void {
  out.writeVarintField(15, 2);
  out.writeStringField(1, name);
  out.writeVarintField(5, extent);
  const context: FeatureContext = {
    feature: undefined as unknown as RawFeature,
    keys: [],
    values: [],
    keyIndex: new Map(),
    valueIndex: new Map(),
  };
  for (const feature of tile.features) {
    context.feature = feature;
    out.writeMessage(2, writeFeature, context);
  }
  for (const key of context.keys) out.writeStringField(3, key);
  for (const value of context.values) out.writeMessage(4, writeValue, value);
}

function writeFeature(context: FeatureContext): void {
  const feature = context.feature;
  if (typeof feature.id === 'number') out.writeVarintField(1, feature.id);
  out.writeMessage(2, writeTags, context);
  out.writeVarintField(3, feature.type === 4 ? 1 : feature.type);
  out.writeMessage(4, writeGeometry, feature);
}

/** Key and value indexes, in the tags' own order; null values are left out (as vt-pbf does). */
function writeTags(context: FeatureContext): void {
  const tags = context.feature.tags;
  for (const key in tags) {
    let value = tags[key];
    if (value === null) continue;
    let k = context.keyIndex.get(key);
    if (k === undefined) {
      k = context.keys.push(key) - 1;
      context.keyIndex.set(key, k);
    }
    out.writeVarint(k);
    const type = typeof value;
    if (type !== 'string' && type !== 'boolean' && type !== 'number') value = JSON.stringify(value);
    const valueKey = `${type}:${value}`;
    let v = context.valueIndex.get(valueKey);
    if (v === undefined) {
      v = context.values.push(value) - 1;
      context.valueIndex.set(valueKey, v);
    }
    out.writeVarint(v);
  }
}

function writeGeometry(feature: RawFeature): void {
  if (feature.type === 4) {
    out.writeVarint(command(MOVE_TO, 1));
    out.writeVarint(zigzag(feature.x));
    out.writeVarint(zigzag(feature.y));
    return;
  }
  if (feature.type === 1) {
    const ring = feature.geometry;
    out.writeVarint(command(MOVE_TO, ring.length / 2));
    let x = 0;
    let y = 0;
    for (let i = 0; i < ring.length; i += 2) {
      out.writeVarint(zigzag((ring[i] as number) - x));
      out.writeVarint(zigzag((ring[i + 1] as number) - y));
      x = ring[i] as number;
      y = ring[i + 1] as number;
    }
    return;
  }
  // Lines and polygons: a cursor kept across rings; a polygon's closing point is not written (ClosePath is).
  const polygon = feature.type === 3;
  let x = 0;
  let y = 0;
  for (const ring of feature.geometry) {
    const points = polygon ? ring.length / 2 - 1 : ring.length / 2;
    out.writeVarint(command(MOVE_TO, 1));
    for (let p = 0; p < points; p++) {
      if (p === 1) out.writeVarint(command(LINE_TO, points - 1));
      const px = ring[2 * p] as number;
      const py = ring[2 * p + 1] as number;
      out.writeVarint(zigzag(px - x));
      out.writeVarint(zigzag(py - y));
      x = px;
      y = py;
    }
    if (polygon) out.writeVarint(command(CLOSE_PATH, 1));
  }
}

function writeValue(value: unknown): void {
  if (typeof value === 'string') out.writeStringField(1, value);
  else if (typeof value === 'boolean') out.writeBooleanField(7, value);
  else if (typeof value === 'number') {
    if (value % 1 !== 0) out.writeDoubleField(3, value);
    else if (value < 0) out.writeSVarintField(6, value);
    else out.writeVarintField(5, value);
  }
}
