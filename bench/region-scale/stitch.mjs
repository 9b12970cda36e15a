#!/usr/bin/env node
// Writes a large .osm.pbf made of N copies of one extract laid on a grid, joined into ONE road network,
// to measure the import at country scale without downloading a country.
//
//   node bench/region-scale/stitch.mjs --copies 64 --out /tmp/stitch-64.osm.pbf
//        [--src ../shared/data/liechtenstein-latest.osm.pbf] [--big-ids]
//
// Copy k sits at column k % c, row ⌊k / c⌋ (c = ⌈√N⌉), shifted by the source's node bbox width and height,
// so neighbouring copies touch. Every copy is joined to its east and north neighbours by one connecting
// way (highway=track, name "stitch"): from the easternmost (northernmost) node of the source's largest
// connected routable component in copy k to the westernmost (southernmost) one in the neighbour. Node,
// way and relation ids are renumbered densely per copy (copy k: k·count + rank + 1); with --big-ids they
// become 12,000,000,000 + k·10^d + the original id (10^d above the largest original id), so every id
// passes 2^32 like today's real node ids. Tags, hiking route relations and their members are kept (members
// point into their own copy). Positions are shifted in whole 1e-7° steps, so they stay exact.
// The writer is minimal but standard: an OSMHeader block, then OSMData blocks of 8,000 entities (dense
// nodes, then ways, then relations, sorted by id), zlib-compressed; osm-pbf-parser-node reads it.
import { closeSync, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { createOSMStream } from 'osm-pbf-parser-node';
import Pbf from 'pbf';

const ROUTABLE = new Set(
  'path footway track steps bridleway cycleway pedestrian living_street residential service unclassified tertiary secondary primary trunk motorway road'.split(
    ' ',
  ),
);
const isRoutable = (tags) => {
  if (!tags || tags.area === 'yes') return false;
  const hw = tags.highway?.replace(/_link$/, '');
  return hw !== undefined && ROUTABLE.has(hw);
};
const BLOCK = 8000;
const BIG_BASE = 12_000_000_000;

const { values } = parseArgs({
  options: {
    copies: { type: 'string', default: '4' },
    out: { type: 'string' },
    src: { type: 'string', default: fileURLToPath(new URL('../../../shared/data/liechtenstein-latest.osm.pbf', import.meta.url)) },
    'big-ids': { type: 'boolean', default: false },
  },
});
const copies = Number(values.copies);
if (!values.out || !(Number.isInteger(copies) && copies >= 1)) {
  console.error('usage: node bench/region-scale/stitch.mjs --copies N --out FILE.osm.pbf [--src FILE.osm.pbf] [--big-ids]');
  process.exit(2);
}

// ---- read the source (osm-pbf-parser-node) ----
const nodes = [];
const ways = [];
const rels = [];
let timestamp = 0;
for await (const item of createOSMStream(values.src, { withTags: true, withInfo: false })) {
  if (item.type === 'node') nodes.push({ id: item.id, lat: Math.round(item.lat * 1e7), lon: Math.round(item.lon * 1e7), tags: item.tags });
  else if (item.type === 'way') ways.push(item);
  else if (item.type === 'relation') rels.push(item);
  else if (item.osmosis_replication_timestamp) timestamp = item.osmosis_replication_timestamp;
}
const byId = (a, b) => a.id - b.id;
nodes.sort(byId);
ways.sort(byId);
rels.sort(byId);

// Dense ranks (default) or big offsets (--big-ids) per entity type.
function idMapper(list) {
  const rank = new Map(list.map((e, i) => [e.id, i]));
  const maxId = list.length ? list[list.length - 1].id : 0;
  const stride = 10 ** Math.ceil(Math.log10(maxId + 1));
  return {
    // ids of members missing from the source keep a unique id in the copy's range
    map: (id, k) => (values['big-ids'] ? BIG_BASE + k * stride + id : k * (list.length + 1) + (rank.get(id) ?? list.length) + 1),
    next: (k) => (values['big-ids'] ? BIG_BASE + k * stride : k * (list.length + 1) + 1),
  };
}
const nodeIds = idMapper(nodes);
const wayIds = idMapper(ways);
const relIds = idMapper(rels);

// ---- the grid and the joints ----
let minLat = Infinity;
let maxLat = -Infinity;
let minLon = Infinity;
let maxLon = -Infinity;
const pos = new Map();
for (const n of nodes) {
  pos.set(n.id, n);
  if (n.lat < minLat) minLat = n.lat;
  if (n.lat > maxLat) maxLat = n.lat;
  if (n.lon < minLon) minLon = n.lon;
  if (n.lon > maxLon) maxLon = n.lon;
}
const width = maxLon - minLon;
const height = maxLat - minLat;
const cols = Math.ceil(Math.sqrt(copies));

// Largest connected component of the routable ways (union-find over node ids).
const parent = new Map();
const findRoot = (x) => {
  while (parent.get(x) !== x) {
    parent.set(x, parent.get(parent.get(x)));
    x = parent.get(x);
  }
  return x;
};
for (const w of ways) {
  if (!isRoutable(w.tags)) continue;
  const present = w.refs.filter((r) => pos.has(r));
  for (const r of present) if (!parent.has(r)) parent.set(r, r);
  for (let i = 1; i < present.length; i++) parent.set(findRoot(present[i]), findRoot(present[0]));
}
const size = new Map();
for (const x of parent.keys()) size.set(findRoot(x), (size.get(findRoot(x)) ?? 0) + 1);
const main = [...size.entries()].sort((a, b) => b[1] - a[1])[0][0];
const joint = { east: null, west: null, north: null, south: null };
for (const x of parent.keys()) {
  if (findRoot(x) !== main) continue;
  const n = pos.get(x);
  if (!joint.east || n.lon > joint.east.lon) joint.east = n;
  if (!joint.west || n.lon < joint.west.lon) joint.west = n;
  if (!joint.north || n.lat > joint.north.lat) joint.north = n;
  if (!joint.south || n.lat < joint.south.lat) joint.south = n;
}
const joins = [];
for (let k = 0; k < copies; k++) {
  const i = k % cols;
  if (i + 1 < cols && k + 1 < copies) joins.push([nodeIds.map(joint.east.id, k), nodeIds.map(joint.west.id, k + 1)]);
  if (k + cols < copies) joins.push([nodeIds.map(joint.north.id, k), nodeIds.map(joint.south.id, k + cols)]);
}

// ---- the writer ----
const fd = openSync(values.out, 'w');
let bytes = 0;
function writeBlob(type, block) {
  const blob = new Pbf();
  blob.writeVarintField(2, block.length);
  blob.writeBytesField(3, deflateSync(block));
  const data = blob.finish();
  const head = new Pbf();
  head.writeStringField(1, type);
  head.writeVarintField(3, data.length);
  const h = head.finish();
  const len = Buffer.alloc(4);
  len.writeUInt32BE(h.length);
  for (const part of [len, h, data]) {
    writeSync(fd, part);
    bytes += part.length;
  }
}

const header = new Pbf();
header.writeMessage(1, (_, p) => {
  p.writeSVarintField(1, (minLon - width * 0) * 100);
  p.writeSVarintField(2, (minLon + width * cols) * 100);
  p.writeSVarintField(3, (minLat + height * Math.ceil(copies / cols)) * 100);
  p.writeSVarintField(4, minLat * 100);
});
header.writeStringField(4, 'OsmSchema-V0.6');
header.writeStringField(4, 'DenseNodes');
header.writeStringField(16, 'cairn bench/region-scale/stitch.mjs');
if (timestamp) header.writeVarintField(32, timestamp);
writeBlob('OSMHeader', header.finish());

/** Collects entities of one kind into blocks of BLOCK, with the block's string table. */
class BlockWriter {
  constructor(kind) {
    this.kind = kind;
    this.items = [];
  }
  add(item) {
    this.items.push(item);
    if (this.items.length === BLOCK) this.flush();
  }
  flush() {
    if (this.items.length === 0) return;
    const strings = [''];
    const index = new Map([['', 0]]);
    const sid = (s) => {
      let i = index.get(s);
      if (i === undefined) {
        i = strings.length;
        strings.push(s);
        index.set(s, i);
      }
      return i;
    };
    const group = new Pbf();
    if (this.kind === 'node') {
      const ids = [];
      const lats = [];
      const lons = [];
      const kv = [];
      let pid = 0;
      let plat = 0;
      let plon = 0;
      for (const n of this.items) {
        ids.push(n.id - pid);
        lats.push(n.lat - plat);
        lons.push(n.lon - plon);
        pid = n.id;
        plat = n.lat;
        plon = n.lon;
        for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(sid(k), sid(v));
        kv.push(0);
      }
      group.writeMessage(2, (_, p) => {
        p.writePackedSVarint(1, ids);
        p.writePackedSVarint(8, lats);
        p.writePackedSVarint(9, lons);
        p.writePackedVarint(10, kv);
      });
    } else if (this.kind === 'way') {
      for (const w of this.items) {
        group.writeMessage(3, (_, p) => {
          p.writeVarintField(1, w.id);
          const entries = Object.entries(w.tags ?? {});
          p.writePackedVarint(
            2,
            entries.map(([k]) => sid(k)),
          );
          p.writePackedVarint(
            3,
            entries.map(([, v]) => sid(v)),
          );
          let prev = 0;
          p.writePackedSVarint(
            8,
            w.refs.map((r) => {
              const d = r - prev;
              prev = r;
              return d;
            }),
          );
        });
      }
    } else {
      for (const r of this.items) {
        group.writeMessage(4, (_, p) => {
          p.writeVarintField(1, r.id);
          const entries = Object.entries(r.tags ?? {});
          p.writePackedVarint(
            2,
            entries.map(([k]) => sid(k)),
          );
          p.writePackedVarint(
            3,
            entries.map(([, v]) => sid(v)),
          );
          p.writePackedVarint(
            8,
            r.members.map((m) => sid(m.role ?? '')),
          );
          let prev = 0;
          p.writePackedSVarint(
            9,
            r.members.map((m) => {
              const d = m.ref - prev;
              prev = m.ref;
              return d;
            }),
          );
          p.writePackedVarint(
            10,
            r.members.map((m) => ({ node: 0, way: 1, relation: 2 })[m.type]),
          );
        });
      }
    }
    const block = new Pbf();
    block.writeMessage(1, (_, p) => {
      for (const s of strings) p.writeBytesField(1, Buffer.from(s, 'utf8'));
    });
    block.writeBytesField(2, group.finish());
    writeBlob('OSMData', block.finish());
    this.items = [];
  }
}

const started = performance.now();
const counts = { nodes: 0, ways: 0, relations: 0 };
const nw = new BlockWriter('node');
for (let k = 0; k < copies; k++) {
  const dLat = Math.floor(k / cols) * height;
  const dLon = (k % cols) * width;
  for (const n of nodes) nw.add({ id: nodeIds.map(n.id, k), lat: n.lat + dLat, lon: n.lon + dLon, tags: n.tags });
  counts.nodes += nodes.length;
}
nw.flush();
const ww = new BlockWriter('way');
for (let k = 0; k < copies; k++) {
  for (const w of ways) ww.add({ id: wayIds.map(w.id, k), refs: w.refs.map((r) => nodeIds.map(r, k)), tags: w.tags });
  counts.ways += ways.length;
}
let next = wayIds.next(copies);
for (const refs of joins) ww.add({ id: next++, refs, tags: { highway: 'track', name: 'stitch' } });
counts.ways += joins.length;
ww.flush();
const rw = new BlockWriter('relation');
const mapMember = { node: nodeIds, way: wayIds, relation: relIds };
for (let k = 0; k < copies; k++) {
  for (const r of rels) {
    rw.add({ id: relIds.map(r.id, k), tags: r.tags, members: r.members.map((m) => ({ ...m, ref: mapMember[m.type].map(m.ref, k) })) });
  }
  counts.relations += rels.length;
}
rw.flush();
closeSync(fd);
console.log(
  JSON.stringify({
    out: values.out,
    copies,
    grid: `${cols}x${Math.ceil(copies / cols)}`,
    bigIds: values['big-ids'],
    bytes,
    ...counts,
    joins: joins.length,
    seconds: Math.round(performance.now() - started) / 1000,
  }),
);
