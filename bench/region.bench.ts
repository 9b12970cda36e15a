// Region import / load benchmark.
//
// Question: how long does `importRegion` take and how big is the region folder (Andorra with its
// SRTM tile, Liechtenstein without DEM); how fast does a Liechtenstein graph load and how much
// memory does it retain (DESIGN §13 bar: ≤ 0.2 s, ≤ 10 MB); and is an in-memory place index or
// SQLite FTS5 the better text search for a region's places (the in-memory index is now places.bin's, built once)?
// Datasets: ../shared/data/andorra.osm.pbf + N42E001.hgt.zip, ../shared/data/liechtenstein-latest.osm.pbf
// (skipped with a message when absent), and the built-in demo region.
// Method: each import runs ROUNDS times into a temp folder, median wall time reported, interleaved
// with the peer: a bare osm-pbf-parser-node pass over the same file (osmium is not installed here). Graph load =
// readFileSync(graph.bin) + zero-copy views, and full loadRegion (graph + places.bin views; hazards and routes lazy),
// each timed over LOAD_ROUNDS runs, median and max. Retained memory = heapUsed + external after
// global.gc() with the loaded object still referenced, minus the same before loading. Search: the
// same fixed-seed queries (prefixes of place names) against both indexes; both must return the
// target place before timing; build time once, query time median over all queries.
// Run: node --expose-gc --import tsx bench/region.bench.ts   (BENCH_SMOKE=1 for a quick run)
// Output: a table on stdout and bench/results/region.json (region.smoke.json with BENCH_SMOKE=1).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createOSMStream } from 'osm-pbf-parser-node';
import { buildDemoRegion } from '../data/region/demo-region.js';
import { decodeGraphFile } from '../data/region/graph-file.js';
import { importRegion } from '../data/region/import-region.js';
import { decodePlaceFile, normalizeWords, placeTable } from '../data/region/place-table.js';
import { loadRegion } from '../data/region/region-folder.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = SMOKE ? 1 : 5;
const LOAD_ROUNDS = SMOKE ? 3 : 30;
const DATA = new URL('../../shared/data/', import.meta.url).pathname;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('run with --expose-gc for memory numbers');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;
const mem = (): number => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const folderBytes = (dir: string): number => readdirSync(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);

const work = mkdtempSync(join(tmpdir(), 'cairn-region-bench-'));
const results: Record<string, unknown> = { smoke: SMOKE, node: process.version, date: new Date().toISOString() };

// 1. Imports
const datasets = [
  { name: 'andorra', osm: `${DATA}andorra.osm.pbf`, dem: [`${DATA}N42E001.hgt.zip`] },
  { name: 'liechtenstein', osm: `${DATA}liechtenstein-latest.osm.pbf`, dem: [] as string[] },
];
const imports: Record<string, unknown> = {};
for (const d of datasets) {
  if (![d.osm, ...d.dem].every(existsSync)) {
    console.warn(`skipping ${d.name}: input missing in ${DATA}`);
    continue;
  }
  const out = join(work, d.name);
  const times: number[] = [];
  const parseTimes: number[] = [];
  // Interleaved with the peer: a bare osm-pbf-parser-node pass over the same file (no osmium here).
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await importRegion({ osm: d.osm, dem: d.dem, out });
    times.push(performance.now() - t);
    t = performance.now();
    let items = 0;
    for await (const _ of createOSMStream(d.osm, { withTags: true, withInfo: false })) items++;
    parseTimes.push(performance.now() - t);
    if (items === 0) throw new Error(`no entities parsed from ${d.osm}`);
  }
  const meta = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as { counts: Record<string, number> };
  imports[d.name] = {
    importMsMedian: round(median(times)),
    bareParseMsMedian: round(median(parseTimes)),
    importOverParse: round(median(times) / median(parseTimes), 2),
    regionBytes: folderBytes(out),
    graphBytes: statSync(join(out, 'graph.bin')).size,
    pbfBytes: statSync(d.osm).size,
    counts: meta.counts,
  };
}
{
  const t = performance.now();
  buildDemoRegion();
  imports.demo = { buildMs: round(performance.now() - t) };
}
results.imports = imports;

// 2. Loading Liechtenstein (or the demo region when the extract is absent)
const loadDir = existsSync(join(work, 'liechtenstein')) ? join(work, 'liechtenstein') : join(work, 'demo');
if (!existsSync(loadDir)) {
  const { writeDemoRegion } = await import('../data/region/demo-region.js');
  writeDemoRegion(loadDir);
}
const graphPath = join(loadDir, 'graph.bin');
const loadGraph = (): ReturnType<typeof decodeGraphFile> => decodeGraphFile(readFileSync(graphPath), graphPath);
loadGraph(); // warm the code path, not the data
const base = mem();
let kept: unknown = loadGraph();
const graphRetained = mem() - base;
kept = null;
const base2 = mem();
kept = loadRegion(loadDir);
const regionRetained = mem() - base2;
kept = null;
void kept;
const graphTimes: number[] = [];
const regionTimes: number[] = [];
for (let i = 0; i < LOAD_ROUNDS; i++) {
  let t = performance.now();
  loadGraph();
  graphTimes.push(performance.now() - t);
  t = performance.now();
  loadRegion(loadDir);
  regionTimes.push(performance.now() - t);
}
results.load = {
  region: loadDir.endsWith('liechtenstein') ? 'liechtenstein' : 'demo',
  graphLoadMsMedian: round(median(graphTimes), 2),
  graphLoadMsMax: round(Math.max(...graphTimes), 2),
  graphRetainedMB: round(graphRetained / 2 ** 20, 2),
  regionLoadMsMedian: round(median(regionTimes), 2),
  regionRetainedMB: round(regionRetained / 2 ** 20, 2),
};

// 3. Place search: in-memory index vs SQLite FTS5 (in :memory:, as it would be in the region folder)
const places = [...decodePlaceFile(readFileSync(join(loadDir, 'places.bin')))];
let seed = 42;
const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const named = places.filter((p) => normalizeWords(p.name).length > 0);
const queries = Array.from({ length: SMOKE ? 20 : 300 }, () => {
  const p = named[Math.floor(rand() * named.length)]!;
  const words = normalizeWords(p.name);
  // All words but the last one in full, the last one cut to a prefix: what a user types.
  const last = words[words.length - 1]!;
  return { id: p.id, q: [...words.slice(0, -1), last.slice(0, Math.max(2, Math.ceil(last.length * 0.6)))].join(' ') };
});
let t0 = performance.now();
const index = placeTable(places);
const memBuildMs = performance.now() - t0;
t0 = performance.now();
const db = new Database(':memory:');
db.exec("CREATE VIRTUAL TABLE fts USING fts5(name, street, housenumber, tokenize='unicode61 remove_diacritics 2')");
const ins = db.prepare('INSERT INTO fts(rowid, name, street, housenumber) VALUES (?, ?, ?, ?)');
db.transaction(() => {
  for (const p of places) ins.run(p.id, p.name, p.street ?? '', p.houseNumber ?? '');
})();
const ftsBuildMs = performance.now() - t0;
const sel = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT 50');
const ftsSearch = (q: string): number[] =>
  (
    sel.all(
      normalizeWords(q)
        .map((w) => `"${w}"*`)
        .join(' AND '),
    ) as { rowid: number }[]
  ).map((r) => r.rowid);
for (const { id, q } of queries) {
  if (!index.search(q, { limit: 50 }).some((p) => p.id === id)) throw new Error(`in-memory search misses ${q}`);
  if (!ftsSearch(q).includes(id)) throw new Error(`FTS5 search misses ${q}`);
}
const memTimes: number[] = [];
const ftsTimes: number[] = [];
for (let r = 0; r < (SMOKE ? 1 : 5); r++) {
  for (const { q } of queries) {
    let t = performance.now();
    index.search(q);
    memTimes.push(performance.now() - t);
    t = performance.now();
    ftsSearch(q);
    ftsTimes.push(performance.now() - t);
  }
}
results.search = {
  places: places.length,
  queries: queries.length,
  memoryBuildMs: round(memBuildMs, 2),
  memoryQueryUsMedian: round(median(memTimes) * 1000),
  fts5BuildMs: round(ftsBuildMs, 2),
  fts5QueryUsMedian: round(median(ftsTimes) * 1000),
};
db.close();

rmSync(work, { recursive: true, force: true });
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
// A smoke run never overwrites the recorded full run.
const resultFile = SMOKE ? './results/region.smoke.json' : './results/region.json';
writeFileSync(new URL(resultFile, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.table(imports);
console.table([results.load]);
console.table([results.search]);
