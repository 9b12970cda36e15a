// A tile deeper than the archive, cut from an ancestor's Mapbox Vector Tile bytes as a map client overzooms: every
// layer's points and lines scaled up by 2^(z − ancestor z), shifted to the child and clipped to its extent plus a
// buffer; a feature's tags, id and the layer's key and value tables are kept as they were (unused entries left out).
// The trail layers hold points and lines only; a polygon is kept whole when its box meets the tile. Also the merge of
// the tiles two regions hold at one address (their layers joined).

import Pbf from 'pbf';

const BUFFER = 64;

interface Layer {
  name: string;
  extent: number;
  keys: string[];
  /** Each value message's own bytes. */
  values: Uint8Array[];
  features: Feature[];
}

interface Feature {
  id: number | undefined;
  type: number;
  tags: number[];
  /** Points (type 1) or lines and rings (2, 3): x, y pairs. */
  parts: number[][];
}

function readLayer(pbf: Pbf, end: number): Layer {
  const layer: Layer = { name: '', extent: 4096, keys: [], values: [], features: [] };
  while (pbf.pos < end) {
    const tag = pbf.readVarint();
    const field = tag >> 3;
    if (field === 1) layer.name = pbf.readString();
    else if (field === 2) {
      const len = pbf.readVarint();
      layer.features.push(readFeature(pbf, pbf.pos + len));
    } else if (field === 3) layer.keys.push(pbf.readString());
    else if (field === 4) {
      const len = pbf.readVarint();
      layer.values.push(pbf.buf.subarray(pbf.pos, pbf.pos + len));
      pbf.pos += len;
    } else if (field === 5) layer.extent = pbf.readVarint();
    else pbf.skip(tag);
  }
  return layer;
}

function readFeature(pbf: Pbf, end: number): Feature {
  const feature: Feature = { id: undefined, type: 0, tags: [], parts: [] };
  while (pbf.pos < end) {
    const tag = pbf.readVarint();
    const field = tag >> 3;
    if (field === 1) feature.id = pbf.readVarint();
    else if (field === 2) {
      const end = pbf.readVarint() + pbf.pos;
      while (pbf.pos < end) feature.tags.push(pbf.readVarint());
    } else if (field === 3) feature.type = pbf.readVarint();
    else if (field === 4) feature.parts = readGeometry(pbf);
    else pbf.skip(tag);
  }
  return feature;
}

function readGeometry(pbf: Pbf): number[][] {
  const end = pbf.readVarint() + pbf.pos;
  const parts: number[][] = [];
  let x = 0;
  let y = 0;
  let part: number[] | undefined;
  while (pbf.pos < end) {
    const command = pbf.readVarint();
    const id = command & 0x7;
    const count = command >> 3;
    if (id === 7) {
      if (part && part.length >= 2) part.push(part[0]!, part[1]!);
      continue;
    }
    for (let i = 0; i < count; i++) {
      x += pbf.readSVarint();
      y += pbf.readSVarint();
      if (id === 1) parts.push((part = []));
      part!.push(x, y);
    }
  }
  return parts;
}

/** The parts of a polyline inside [lo, hi]² (Liang–Barsky on each segment, joined where they stay inside). */
function clipLine(line: number[], lo: number, hi: number): number[][] {
  const out: number[][] = [];
  let current: number[] | undefined;
  for (let i = 0; i + 3 < line.length; i += 2) {
    const x0 = line[i]!;
    const y0 = line[i + 1]!;
    const dx = line[i + 2]! - x0;
    const dy = line[i + 3]! - y0;
    let t0 = 0;
    let t1 = 1;
    let inside = true;
    for (const [p, q] of [
      [-dx, x0 - lo],
      [dx, hi - x0],
      [-dy, y0 - lo],
      [dy, hi - y0],
    ] as const) {
      if (p === 0) {
        if (q < 0) inside = false;
        continue;
      }
      const r = q / p;
      if (p < 0) {
        if (r > t1) inside = false;
        else if (r > t0) t0 = r;
      } else if (r < t0) inside = false;
      else if (r < t1) t1 = r;
    }
    if (!inside) {
      current = undefined;
      continue;
    }
    const ax = Math.round(x0 + t0 * dx);
    const ay = Math.round(y0 + t0 * dy);
    const bx = Math.round(x0 + t1 * dx);
    const by = Math.round(y0 + t1 * dy);
    if (!current || t0 > 0) out.push((current = [ax, ay]));
    current.push(bx, by);
    if (t1 < 1) current = undefined;
  }
  // Consecutive equal points (a segment rounded to nothing) are dropped; a part of one point is no line.
  const parts: number[][] = [];
  for (const part of out) {
    const kept = [part[0]!, part[1]!];
    for (let k = 2; k < part.length; k += 2) {
      if (part[k] !== kept[kept.length - 2] || part[k + 1] !== kept[kept.length - 1]) kept.push(part[k]!, part[k + 1]!);
    }
    if (kept.length >= 4) parts.push(kept);
  }
  return parts;
}

function transform(feature: Feature, scale: number, dx: number, dy: number, lo: number, hi: number): Feature | undefined {
  const parts = feature.parts.map((part) => part.map((v, k) => v * scale - (k % 2 === 0 ? dx : dy)));
  let kept: number[][];
  if (feature.type === 1) {
    const points: number[] = [];
    for (const part of parts) {
      for (let k = 0; k < part.length; k += 2) {
        if (part[k]! >= lo && part[k]! <= hi && part[k + 1]! >= lo && part[k + 1]! <= hi) points.push(part[k]!, part[k + 1]!);
      }
    }
    kept = points.length > 0 ? [points] : [];
  } else if (feature.type === 2) {
    kept = parts.flatMap((part) => clipLine(part, lo, hi));
  } else {
    let meets = false;
    for (const part of parts) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let k = 0; k < part.length; k += 2) {
        x0 = Math.min(x0, part[k]!);
        x1 = Math.max(x1, part[k]!);
        y0 = Math.min(y0, part[k + 1]!);
        y1 = Math.max(y1, part[k + 1]!);
      }
      if (x1 >= lo && x0 <= hi && y1 >= lo && y0 <= hi) meets = true;
    }
    kept = meets ? parts : [];
  }
  return kept.length > 0 ? { ...feature, parts: kept } : undefined;
}

const command = (id: number, count: number) => (count << 3) + (id & 0x7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

function writeGeometry(feature: Feature, into?: Pbf): void {
  const pbf = into as Pbf;
  let x = 0;
  let y = 0;
  if (feature.type === 1) {
    const points = feature.parts[0]!;
    pbf.writeVarint(command(1, points.length / 2));
    for (let k = 0; k < points.length; k += 2) {
      pbf.writeVarint(zigzag(points[k]! - x));
      pbf.writeVarint(zigzag(points[k + 1]! - y));
      x = points[k]!;
      y = points[k + 1]!;
    }
    return;
  }
  const polygon = feature.type === 3;
  for (const part of feature.parts) {
    const count = polygon ? part.length / 2 - 1 : part.length / 2;
    for (let p = 0; p < count; p++) {
      if (p === 0) pbf.writeVarint(command(1, 1));
      if (p === 1) pbf.writeVarint(command(2, count - 1));
      pbf.writeVarint(zigzag(part[2 * p]! - x));
      pbf.writeVarint(zigzag(part[2 * p + 1]! - y));
      x = part[2 * p]!;
      y = part[2 * p + 1]!;
    }
    if (polygon) pbf.writeVarint(command(7, 1));
  }
}

function writeLayer(layer: Layer, into?: Pbf): void {
  const pbf = into as Pbf;
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  pbf.writeVarintField(5, layer.extent);
  // Keys and values renumbered in first-use order: the ones no kept feature uses are left out.
  const keys = new Map<number, number>();
  const values = new Map<number, number>();
  for (const feature of layer.features) {
    pbf.writeMessage(
      2,
      (f: Feature, into?: Pbf) => {
        const out = into as Pbf;
        if (f.id !== undefined) out.writeVarintField(1, f.id);
        const tags: number[] = [];
        for (let k = 0; k + 1 < f.tags.length; k += 2) {
          let key = keys.get(f.tags[k]!);
          if (key === undefined) keys.set(f.tags[k]!, (key = keys.size));
          let value = values.get(f.tags[k + 1]!);
          if (value === undefined) values.set(f.tags[k + 1]!, (value = values.size));
          tags.push(key, value);
        }
        out.writePackedVarint(2, tags);
        out.writeVarintField(3, f.type);
        out.writeMessage(4, writeGeometry, f);
      },
      feature,
    );
  }
  for (const key of keys.keys()) pbf.writeStringField(3, layer.keys[key]!);
  for (const value of values.keys()) pbf.writeBytesField(4, layer.values[value]!);
}

/**
 * The tile (z, x, y) cut from the bytes of its ancestor at zoom `ancestorZ` (uncompressed MVT); empty when nothing is
 * left in it.
 */
export function overzoomTile(ancestor: Uint8Array, ancestorZ: number, z: number, x: number, y: number): Uint8Array {
  const layers = readLayers(ancestor);
  const scale = 2 ** (z - ancestorZ);
  const out = new Pbf();
  for (const layer of layers) {
    const dx = (x - (x >> (z - ancestorZ)) * scale) * layer.extent;
    const dy = (y - (y >> (z - ancestorZ)) * scale) * layer.extent;
    const buffer = (BUFFER * layer.extent) / 4096;
    const features = layer.features.flatMap((f) => transform(f, scale, dx, dy, -buffer, layer.extent + buffer) ?? []);
    if (features.length > 0) out.writeMessage(3, writeLayer, { ...layer, features });
  }
  return out.finish();
}

/** The layers of a tile's bytes (uncompressed MVT). */
function readLayers(bytes: Uint8Array): Layer[] {
  const pbf = new Pbf(bytes);
  const layers: Layer[] = [];
  while (pbf.pos < pbf.length) {
    const tag = pbf.readVarint();
    if (tag >> 3 === 3) {
      const len = pbf.readVarint();
      layers.push(readLayer(pbf, pbf.pos + len));
    } else pbf.skip(tag);
  }
  return layers;
}

/**
 * One tile holding every feature of `tiles` (uncompressed MVT of the same address: the tiles of regions that meet
 * there): layers of one name become one layer, their keys and values tables joined (each string and value once) and
 * their features' tags renumbered. Layers of one name must share an extent (every trail layer's is 4096).
 */
export function mergeTiles(tiles: readonly Uint8Array[]): Uint8Array {
  const byName = new Map<string, Layer>();
  const keyIndex = new Map<Layer, Map<string, number>>();
  const valueIndex = new Map<Layer, Map<string, number>>();
  for (const bytes of tiles) {
    for (const layer of readLayers(bytes)) {
      let merged = byName.get(layer.name);
      if (!merged) {
        merged = { name: layer.name, extent: layer.extent, keys: [], values: [], features: [] };
        byName.set(layer.name, merged);
        keyIndex.set(merged, new Map());
        valueIndex.set(merged, new Map());
      }
      const keys = keyIndex.get(merged)!;
      const values = valueIndex.get(merged)!;
      const keyOf = layer.keys.map((key) => {
        let at = keys.get(key);
        if (at === undefined) keys.set(key, (at = merged.keys.push(key) - 1));
        return at;
      });
      const valueAt = layer.values.map((value) => {
        const text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
        let at = values.get(text);
        if (at === undefined) values.set(text, (at = merged.values.push(value) - 1));
        return at;
      });
      for (const feature of layer.features) {
        const tags = feature.tags.map((t, k) => (k % 2 === 0 ? keyOf[t]! : valueAt[t]!));
        merged.features.push({ ...feature, tags });
      }
    }
  }
  const out = new Pbf();
  for (const layer of byName.values()) if (layer.features.length > 0) out.writeMessage(3, writeLayer, layer);
  return out.finish();
}
