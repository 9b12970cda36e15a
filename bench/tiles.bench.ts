// Question: how fast are Cairn's trail tiles, made and served, against the bars of the Tile API issue?
// Datasets: Liechtenstein (no DEM) and Andorra (with its SRTM tile: contours too), imported once into temp folders.
// Tile lists: every tile of the region's box at z10–z14 and a fixed sample at z15–z16 (all of them in smoke mode
// would be too many: SMOKE takes a handful). Before timing, every contender's tile bytes are compared.
//
//   1. one thread   Cairn's encoder (workers/trail-tiles.ts: buildIndexes + encodeTrailTile) against bare
//                   geojson-vt + vt-pbf over the same features, cold (a fresh index per round, built untimed,
//                   so every tile is sliced and encoded in the timed loop). Bar ≥ 1.0x (stretch 1.2x).
//      Then encoding alone (tiles already sliced): Cairn's encoder (workers/mvt-encoder.ts) against vt-pbf.
//   2. pool         the same tiles through a pool of 2 workers (trailTile tasks, all asked at once; each worker's
//                   index warmed untimed, then its garbage collected as the one thread's is) against the one thread.
//                   Bar ≥ 1.4x.
//   3. first tile   a server started on Liechtenstein: time from its listening line to the first tile's answer
//                   (the index is warmed at start). Bar ≤ 150 ms.
//   4. HTTP         cached tiles with a key (access check, quota, ETag) against a bare uWebSockets.js route
//                   answering the same bytes; Cairn and the peer on core 0, wrk on core 1, 50 connections,
//                   interleaved rounds. Bars ≥ 0.8x and Cairn's p99 ≤ 2 ms.
//   5. cold flood   wrk asking z15–z16 tiles never made before, while the event loop's delay is sampled
//                   (GET /_diagnostics/event-loop). Bar p99 < 10 ms.
// Results: bench/results/tiles.json. Without ../shared/data the bench says so and exits 0.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import { importRegion } from '../data/region/import-region.js';
import { loadRegion } from '../data/region/region-folder.js';
import type { Region } from '../data/region/region.js';
import { Piscina } from 'piscina';
import { createPool, taskFilesIn } from '../server/pool/pool.js';
import { buildIndexes, encodeTrailTile, TRAIL_INDEX_OPTIONS, TRAIL_LAYERS, trailLayerFeatures } from '../workers/trail-tiles.js';
import { CONTOURS_MIN_ZOOM, type TrailTileInput } from '../contracts/tiles.js';
import { machineInfo, writeResults } from './lib/machine.js';
import { startCairn, startServer, type ServerProcess } from './lib/server-process.js';
import { median, ratio, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { canPin, hasWrk, runWrk } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = SMOKE ? 1 : 3;
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_TILES_SECONDS ?? 3);
const CONNECTIONS = 50;
const SAMPLE_HIGH_ZOOM = SMOKE ? 4 : 120;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(root, '..', 'shared', 'data');
const REGIONS = [
  { name: 'liechtenstein', osm: join(DATA, 'liechtenstein-latest.osm.pbf'), dem: [] as string[] },
  { name: 'andorra', osm: join(DATA, 'andorra.osm.pbf'), dem: [join(DATA, 'N42E001.hgt.zip')] },
];

function tileRange([west, south, east, north]: [number, number, number, number], z: number) {
  const n = 2 ** z;
  const x = (lon: number) => Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
  const y = (lat: number) => {
    const rad = (lat * Math.PI) / 180;
    return Math.min(n - 1, Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n));
  };
  const tiles: TrailTileInput[] = [];
  for (let tx = x(west); tx <= x(east); tx++) for (let ty = y(north); ty <= y(south); ty++) tiles.push({ z, x: tx, y: ty });
  return tiles;
}

/** Every tile of z10–z14 over the box, and an even sample of z15–z16. */
function tileList(region: Region): TrailTileInput[] {
  const list: TrailTileInput[] = [];
  for (let z = 10; z <= 16; z++) {
    const all = tileRange(region.meta.bbox, z);
    const take = z <= 14 ? (SMOKE ? 2 : all.length) : SAMPLE_HIGH_ZOOM;
    const step = Math.max(1, Math.floor(all.length / take));
    for (let i = 0; i < all.length && list.filter((t) => t.z === z).length < take; i += step) list.push(all[i]!);
  }
  return list;
}

/** The bare peer: one geojson-vt index per layer over the same features, tiles encoded with vt-pbf. */
function bareIndexes(region: Region) {
  const features = trailLayerFeatures(region);
  return TRAIL_LAYERS.map((name) => {
    const list = features[name];
    return { name, index: list ? new GeoJSONVT({ type: 'FeatureCollection', features: list } as never, TRAIL_INDEX_OPTIONS) : null };
  });
}
function bareTile(indexes: ReturnType<typeof bareIndexes>, { z, x, y }: TrailTileInput): Uint8Array {
  const layers: Record<string, unknown> = {};
  for (const { name, index } of indexes) {
    if (!index || (name === 'contours' && z < CONTOURS_MIN_ZOOM)) continue;
    const tile = index.getTile(z, x, y);
    if (tile && tile.features.length > 0) layers[name] = tile;
  }
  return Object.keys(layers).length === 0 ? new Uint8Array(0) : vtpbf.fromGeojsonVt(layers as never, { version: 2, extent: 4096 });
}

/** A full collection in the pool worker the task's lane names (bench/lib/collect-garbage-task.mjs). */
const COLLECT_GARBAGE_TASK = new URL('./lib/collect-garbage-task.mjs', import.meta.url).href;

/** The garbage of the last contender's set-up is collected before a timed loop, not inside the next one's. */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.from(a).equals(Buffer.from(b));

async function oneThreadAndPool(name: string, dir: string, region: Region, tiles: TrailTileInput[]) {
  // Equal bytes first.
  const built = performance.now();
  const check = buildIndexes(region);
  const indexMs = performance.now() - built;
  const peer = bareIndexes(region);
  for (const t of tiles) {
    if (!sameBytes(encodeTrailTile(check, t), bareTile(peer, t)))
      throw new Error(`${name} ${t.z}/${t.x}/${t.y}: Cairn and the bare peer differ`);
  }
  // Each contender first makes the z10–z14 tiles of a fresh index (untimed: the code warms up, as in a server
  // that has run a while), then the timed part: the z15–z16 tiles, which that index has never made (cold).
  const warmList = tiles.filter((t) => t.z <= 14);
  const timed = tiles.filter((t) => t.z > 14);
  const times: Record<'cairn' | 'bare' | 'pool', number[]> = { cairn: [], bare: [], pool: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['cairn', 'bare'] as const) : (['bare', 'cairn'] as const);
    for (const who of order) {
      if (who === 'cairn') {
        const indexes = buildIndexes(region);
        for (const t of warmList) encodeTrailTile(indexes, t);
        collectGarbage();
        const t0 = performance.now();
        for (const t of timed) encodeTrailTile(indexes, t);
        times.cairn.push(performance.now() - t0);
      } else {
        const indexes = bareIndexes(region);
        for (const t of warmList) bareTile(indexes, t);
        collectGarbage();
        const t0 = performance.now();
        for (const t of timed) bareTile(indexes, t);
        times.bare.push(performance.now() - t0);
      }
    }
    // The built task modules (dist/workers), as the server runs them; both workers index the region as they start.
    const pool = createPool({
      taskFile: taskFilesIn(join(root, 'dist', 'workers')),
      maxThreads: 2,
      minThreads: 2,
      env: { ...process.env, REGION_PATH: dir, TILES_WARM: '1' },
    });
    try {
      // Piscina does not say when a worker is ready: after a first answer, give the other twice an index's time.
      await Promise.all([pool.runTask('trailTileSource', undefined), pool.runTask('trailTileSource', undefined)]);
      await new Promise((resolve) => setTimeout(resolve, 2 * indexMs + 100));
      await Promise.all(warmList.map((t) => pool.runTask('trailTile', t)));
      // As before the one-thread loop: each worker collects its set-up garbage (start-up indexing, the warm tiles) now
      // rather than inside the timing (a 14–16 ms full collection landed there in most rounds).
      // One task per lane, so one on each worker (server/pool/pool.ts: a lane names a worker).
      const collected = await Promise.all(
        [0, 1].map((lane) => pool.piscina.run({ [Piscina.queueOptionsSymbol]: { lane } }, { filename: COLLECT_GARBAGE_TASK })),
      );
      if (collected.includes(null)) throw new Error('the pool workers cannot collect garbage: run the bench with --expose-gc');
      if (new Set(collected).size !== 2) throw new Error(`garbage was collected on threads ${collected.join(', ')}, not on each worker`);
      collectGarbage();
      const t0 = performance.now();
      const out = await Promise.all(timed.map((t) => pool.runTask('trailTile', t)));
      times.pool.push(performance.now() - t0);
      if (r === 0) {
        for (const [i, bytes] of out.entries()) {
          if (!(bytes instanceof Uint8Array) || !sameBytes(bytes, encodeTrailTile(check, timed[i]!)))
            throw new Error(
              `${name}: the pool's tile ${i} differs: ${bytes instanceof Uint8Array ? bytes.byteLength : JSON.stringify(bytes)}`,
            );
        }
      }
    } finally {
      await pool.close();
    }
  }
  // Encoding alone: every tile of the list is already sliced in `check` and `peer` (the byte comparison made them),
  // so this times only the step from a sliced tile to bytes (vt-pbf includes geojson-vt's nested copy it reads).
  const encodeOnly: Record<'cairn' | 'bare', number[]> = { cairn: [], bare: [] };
  for (let r = 0; r < ROUNDS + 2; r++) {
    for (const who of r % 2 === 0 ? (['cairn', 'bare'] as const) : (['bare', 'cairn'] as const)) {
      collectGarbage();
      const t0 = performance.now();
      for (const t of tiles) who === 'cairn' ? encodeTrailTile(check, t) : bareTile(peer, t);
      encodeOnly[who].push(performance.now() - t0);
    }
  }
  const ms = (k: keyof typeof times) => round(median(times[k]), 1);
  return {
    region: name,
    encodeOnly: { tiles: tiles.length, cairnMs: round(median(encodeOnly.cairn), 1), bareMs: round(median(encodeOnly.bare), 1) },
    tiles: timed.length,
    warmTiles: warmList.length,
    cairnMs: ms('cairn'),
    bareMs: ms('bare'),
    poolMs: ms('pool'),
    rounds: times,
  };
}

async function main(): Promise<void> {
  if (REGIONS.some((r) => !existsSync(r.osm))) {
    console.log(`tiles bench skipped: ${DATA} is absent`);
    return;
  }
  if (!hasWrk()) {
    console.log('tiles bench skipped: wrk not installed');
    process.exit(SMOKE ? 0 : 1);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-tiles-bench-'));
  const pinned = canPin(2);
  const results: Record<string, unknown> = { bench: 'tiles', smoke: SMOKE, ...machineInfo(['server', 'workers', 'data']) };
  const servers: ServerProcess[] = [];
  try {
    // 1 and 2.
    const encoding = [];
    const dirs: Record<string, string> = {};
    for (const r of REGIONS) {
      const dir = join(tmp, r.name);
      dirs[r.name] = dir;
      await importRegion({ osm: r.osm, dem: r.dem, out: dir });
      const region = loadRegion(dir);
      const row = await oneThreadAndPool(r.name, dir, region, tileList(region));
      encoding.push(row);
      console.log(`${r.name}: ${row.tiles} cold tiles — Cairn ${row.cairnMs} ms, bare ${row.bareMs} ms, pool of 2 ${row.poolMs} ms`);
    }

    // 3. First tile after start.
    const li = loadRegion(dirs['liechtenstein']!);
    const liIndexes = buildIndexes(li);
    const withContent = (z: number) => tileRange(li.meta.bbox, z).filter((t) => encodeTrailTile(liIndexes, t).byteLength > 0);
    const firstTile = withContent(14)[0]!;
    const started = await startCairn(join(tmp, 'first'), undefined, { REGION_PATH: dirs['liechtenstein']! });
    servers.push(started.server);
    const t0 = performance.now();
    const first = await fetch(`${started.base}/v1/tiles/trails/${firstTile.z}/${firstTile.x}/${firstTile.y}.mvt`, {
      headers: { 'X-API-Key': started.boot.publishableKey.key },
    });
    await first.arrayBuffer();
    const firstTileMs = round(performance.now() - t0, 1);
    if (first.status !== 200) throw new Error(`first tile answered ${first.status}`);
    await started.server.stop();
    servers.pop();
    console.log(`first tile after the listening line: ${firstTileMs} ms`);

    // 4. Cached tiles over HTTP against bare uWS answering the same bytes.
    const { server, boot, base } = await startCairn(
      join(tmp, 'http'),
      pinned ? '0' : undefined,
      { REGION_PATH: dirs['liechtenstein']!, LOG_LEVEL: 'info' },
      { diagnostics: true },
    );
    servers.push(server);
    execFileSync(
      process.execPath,
      [join(root, 'dist', 'server', 'management', 'admin', 'admin.js'), 'set', '--org', boot.organization.id, 'quota.tiles=10000000'],
      {
        env: { ...process.env, DATABASE_PATH: join(tmp, 'http', 'platform.db') },
        stdio: 'ignore',
      },
    );
    const key = { 'X-API-Key': boot.publishableKey.key };
    const hot = withContent(13).slice(0, SMOKE ? 4 : 40);
    const routes = [];
    for (const t of hot) {
      const path = `/v1/tiles/trails/${t.z}/${t.x}/${t.y}.mvt`;
      const res = await fetch(base + path, { headers: { ...key, 'Accept-Encoding': 'identity' } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) continue;
      routes.push({
        path,
        headers: [
          ['Cache-Control', res.headers.get('cache-control') as string],
          ['ETag', res.headers.get('etag') as string],
          ['Vary', 'Accept-Encoding'],
          ['Content-Type', 'application/vnd.mapbox-vector-tile'],
        ],
        bodyBase64: body.toString('base64'),
      });
    }
    if (routes.length === 0) throw new Error('no z13 tile with content to serve');
    const fixture = join(tmp, 'fixture.json');
    writeFileSync(fixture, JSON.stringify({ routes }));
    const uws = await startServer({
      name: 'uws',
      command: process.execPath,
      args: [join(root, 'bench', 'lib', 'http-peer.mjs'), 'uws', fixture],
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      cpus: pinned ? '0' : undefined,
      stdoutPath: join(tmp, 'uws.out'),
      stderrPath: join(tmp, 'uws.err'),
    });
    servers.push(uws);
    for (const r of routes) {
      const peer = Buffer.from(await (await fetch(`http://127.0.0.1:${uws.port}${r.path}`)).arrayBuffer());
      if (!peer.equals(Buffer.from(r.bodyBase64, 'base64'))) throw new Error(`the peer's ${r.path} differs`);
    }
    const script = join(tmp, 'tiles.lua');
    writeFileSync(
      script,
      [
        ...Object.entries(key).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
        `local paths = { ${routes.map((r) => JSON.stringify(r.path)).join(', ')} }`,
        'local i = 0',
        'request = function() i = i + 1; return wrk.format(nil, paths[(i % #paths) + 1]) end',
      ].join('\n'),
    );
    const http: { who: string; round: number; reqPerSec: number; p50Ms: number; p99Ms: number }[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const [who, port] of [
        ['cairn', server.port],
        ['uws', uws.port],
      ] as const) {
        const run = await runWrk({
          url: `http://127.0.0.1:${port}/`,
          seconds: SECONDS,
          connections: CONNECTIONS,
          threads: 1,
          cpus: pinned ? '1' : undefined,
          script,
        });
        if (run.non2xx > 0 || run.socketErrors > 0) throw new Error(`${who}: ${run.non2xx} non-2xx, ${run.socketErrors} socket errors`);
        http.push({ who, round: r, reqPerSec: run.reqPerSec, p50Ms: run.p50Ms, p99Ms: run.p99Ms });
        console.log(`round ${r} ${who.padEnd(5)} ${Math.round(run.reqPerSec)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms`);
      }
    }
    await uws.stop();
    servers.pop();

    // 5. A flood of cold tiles (never made on this server), the event loop's delay sampled around it.
    if (pinned) execFileSync('taskset', ['-a', '-p', '-c', '0,1', String(server.pid)], { stdio: 'ignore' });
    const cold = [...tileRange(li.meta.bbox, 15), ...tileRange(li.meta.bbox, 16)].slice(0, SMOKE ? 50 : 5000);
    const coldScript = join(tmp, 'cold.lua');
    writeFileSync(
      coldScript,
      [
        ...Object.entries(key).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
        `local paths = { ${cold.map((t) => JSON.stringify(`/v1/tiles/trails/${t.z}/${t.x}/${t.y}.mvt`)).join(', ')} }`,
        'local i = 0',
        'request = function() i = i + 1; return wrk.format(nil, paths[(i % #paths) + 1]) end',
      ].join('\n'),
    );
    await fetch(`${base}/_diagnostics/event-loop`).then((r) => r.json()); // starts a window
    const flood = await runWrk({ url: `${base}/`, seconds: SECONDS, connections: CONNECTIONS, threads: 1, script: coldScript });
    const loop = (await (await fetch(`${base}/_diagnostics/event-loop`)).json()) as { p99Ms: number; maxMs: number };
    console.log(
      `cold flood: ${Math.round(flood.reqPerSec)} tiles/s p99 ${flood.p99Ms} ms, event loop p99 ${loop.p99Ms} ms (max ${loop.maxMs})`,
    );
    await server.stop();
    servers.pop();

    const rate = (who: string) => median(http.filter((h) => h.who === who).map((h) => h.reqPerSec));
    const cairnP99 = median(http.filter((h) => h.who === 'cairn').map((h) => h.p99Ms));
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW');
    const rows: (string | number)[][] = [];
    for (const e of encoding) {
      rows.push([
        `${e.region}: one thread vs bare (${e.tiles} tiles)`,
        `${e.cairnMs} ms`,
        `${e.bareMs} ms`,
        round(ratio(e.bareMs, e.cairnMs)),
        '≥ 1.0x',
        verdict(ratio(e.bareMs, e.cairnMs) >= 1),
      ]);
      rows.push([
        `${e.region}: encoding only, ${e.encodeOnly.tiles} sliced tiles`,
        `${e.encodeOnly.cairnMs} ms`,
        `${e.encodeOnly.bareMs} ms`,
        round(ratio(e.encodeOnly.bareMs, e.encodeOnly.cairnMs)),
        '(no bar)',
        '',
      ]);
      rows.push([
        `${e.region}: pool of 2 vs one thread`,
        `${e.poolMs} ms`,
        `${e.cairnMs} ms`,
        round(ratio(e.cairnMs, e.poolMs)),
        '≥ 1.4x',
        verdict(ratio(e.cairnMs, e.poolMs) >= 1.4),
      ]);
    }
    rows.push(['first tile after start', `${firstTileMs} ms`, '', '', '≤ 150 ms', verdict(firstTileMs <= 150)]);
    rows.push([
      'cached tiles over HTTP vs bare uWS',
      Math.round(rate('cairn')),
      Math.round(rate('uws')),
      round(ratio(rate('cairn'), rate('uws'))),
      '≥ 0.8x',
      verdict(ratio(rate('cairn'), rate('uws')) >= 0.8),
    ]);
    rows.push(['cached tiles p99 (50 connections)', `${cairnP99} ms`, '', '', '≤ 2 ms', verdict(cairnP99 <= 2)]);
    rows.push(['event-loop delay p99, cold flood', `${loop.p99Ms} ms`, '', '', '< 10 ms', verdict(loop.p99Ms < 10)]);
    printTable('tiles (medians)', ['measure', 'Cairn', 'peer', 'ratio', 'bar', 'verdict'], rows);
    Object.assign(results, {
      settings: { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, pinned },
      encoding,
      firstTileMs,
      http,
      coldFlood: { tilesPerSec: round(flood.reqPerSec, 0), p99Ms: flood.p99Ms, loopP99Ms: loop.p99Ms, loopMaxMs: loop.maxMs },
      table: rows,
    });
    console.log(`wrote ${writeResults(SMOKE ? 'tiles.smoke' : 'tiles', results)}`);
  } finally {
    for (const s of servers) await s.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
