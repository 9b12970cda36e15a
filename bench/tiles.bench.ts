// Question: how fast are Cairn's trail tiles, cut once into the region's archive and served from it, against the
// bars of the Tile API issue and against cutting them at request time (what every worker did before the archive)?
// Datasets: Liechtenstein (no DEM) and Andorra (with its SRTM tile: contours too), built once in memory.
//
//   1. archive      each region's archive cut (data/region/cut-tile-archive.ts, on the machine's cores): time, size,
//                   tiles, the largest tile per zoom (uncompressed). Bar: no tile over 500 KB.
//   2. cold z14     every z14 tile of the region with content, each read once: from the archive (a fresh read-only
//                   connection: the point read and the gunzip the server does) against request-time cutting (one
//                   geojson-vt index per layer of the whole region, as each worker held, built untimed; each tile
//                   sliced from its nearest ancestor and encoded, then gzip-compressed as the server did), same
//                   process, same run. Per tile p50/p95.
//   3. cold HTTP    a server started on each region but Andorra (Liechtenstein, the extra one) with its archive:
//                   every z14 tile with content asked once over HTTP (its first request: the tile cache is cold), one
//                   at a time. Bar: p95 ≤ 20 ms.
//   4. HTTP         cached tiles with a key (access check, quota, ETag) against a bare uWebSockets.js route
//                   answering the same bytes; Cairn and the peer on core 0, wrk on core 1, 50 connections,
//                   interleaved rounds. Bars ≥ 0.8x and Cairn's p99 ≤ 2 ms.
//   5. cold flood   wrk asking z15–z16 tiles never made before (each cut from its z14 ancestor on the pool), while the
//                   event loop's delay is sampled (GET /_diagnostics/event-loop). Bar p99 < 10 ms.
// Results: bench/results/tiles.json. Without ../shared/data the bench says so and exits 0.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { type CutSummary, cutTileArchive, describeCut } from '../data/region/cut-tile-archive.js';
import { importRegion } from '../data/region/import-region.js';
import { writeRegion } from '../data/region/region-folder.js';
import type { Region } from '../data/region/region.js';
import { TileArchive } from '../data/region/tile-archive.js';
import { CONTOURS_MIN_ZOOM, TILE_BYTES_LIMIT } from '../contracts/tiles.js';
import { encodeMvt } from '../workers/mvt-encoder.js';
import { TRAIL_LAYERS, trailLayerFeatures } from '../workers/trail-features.js';
import { machineInfo, writeResults } from './lib/machine.js';
import { startCairn, startServer, type ServerProcess } from './lib/server-process.js';
import { median, percentile, ratio, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { canPin, hasWrk, runWrk } from './lib/wrk.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = SMOKE ? 1 : 3;
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_TILES_SECONDS ?? 3);
const CONNECTIONS = 50;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(root, '..', 'shared', 'data');
const REGIONS = [
  { name: 'liechtenstein', osm: join(DATA, 'liechtenstein-latest.osm.pbf'), dem: [] as string[] },
  { name: 'andorra', osm: join(DATA, 'andorra.osm.pbf'), dem: [join(DATA, 'N42E001.hgt.zip')] },
  // BENCH_TILES_PBF: one more extract measured in parts 1 and 2 (stitched copies of a region, for scale).
  ...(process.env.BENCH_TILES_PBF ? [{ name: 'extra', osm: process.env.BENCH_TILES_PBF, dem: [] as string[] }] : []),
];

interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

function tileRange([west, south, east, north]: [number, number, number, number], z: number): TileAddress[] {
  const n = 2 ** z;
  const x = (lon: number) => Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
  const y = (lat: number) => {
    const rad = (lat * Math.PI) / 180;
    return Math.min(n - 1, Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n));
  };
  const tiles: TileAddress[] = [];
  for (let tx = x(west); tx <= x(east); tx++) for (let ty = y(north); ty <= y(south); ty++) tiles.push({ z, x: tx, y: ty });
  return tiles;
}

/** Request-time cutting as each worker did before the archive: one whole-region index per layer (geojson-vt). */
function requestTimeIndexes(region: Region) {
  const features = trailLayerFeatures(region);
  const options = { maxZoom: 16, indexMaxZoom: 5, extent: 4096, buffer: 64, tolerance: 3 };
  return TRAIL_LAYERS.map((name) => {
    const list = features[name];
    return { name, index: list ? new GeoJSONVT({ type: 'FeatureCollection', features: list.features } as never, options) : null };
  });
}

function requestTimeTile(indexes: ReturnType<typeof requestTimeIndexes>, { z, x, y }: TileAddress): Uint8Array {
  return encodeMvt(
    indexes
      .filter(({ name }) => name !== 'contours' || z >= CONTOURS_MIN_ZOOM)
      .map(({ name, index }) => [name, index?.getTileRaw(z, x, y)] as const),
    4096,
  );
}

const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();
const p = (values: number[], q: number) => round(percentile(values, q), 2);

/** 1 and 2: the archive cut, then every z14 tile with content read cold from it and cut at request time. */
async function archiveAndCold(name: string, region: Region, file: string) {
  const summary: CutSummary = await cutTileArchive(region, file);
  console.log(`${name}: ${describeCut(summary)}`);
  const archive = new TileArchive(file);
  const tiles = tileRange(region.meta.bbox, 14).filter((t) => archive.tile(t.z, t.x, t.y) !== undefined);
  const fromArchive: number[] = [];
  for (const t of tiles) {
    const t0 = performance.now();
    const packed = archive.tile(t.z, t.x, t.y)!;
    await gunzip(packed);
    fromArchive.push(performance.now() - t0);
  }
  archive.close();
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const built = performance.now();
  const indexes = requestTimeIndexes(region);
  const indexMs = performance.now() - built;
  const indexHeapMb = round((process.memoryUsage().heapUsed - heapBefore) / 1048576, 1);
  const atRequest: number[] = [];
  for (const t of tiles) {
    const t0 = performance.now();
    const raw = requestTimeTile(indexes, t);
    if (raw.byteLength > 0) await gzip(raw);
    atRequest.push(performance.now() - t0);
  }
  const largest = Math.max(...summary.zooms.map((z) => z.largest));
  return {
    region: name,
    cut: {
      ms: round(summary.ms, 0),
      tiles: summary.tiles,
      mb: round(summary.bytes / 1048576, 2),
      threads: summary.threads,
      thinned: summary.thinned,
    },
    largestPerZoomKb: summary.zooms.map((z) => round(z.largest / 1024, 1)),
    largestKb: round(largest / 1024, 1),
    z14Tiles: tiles.length,
    archive: { p50Ms: p(fromArchive, 50), p95Ms: p(fromArchive, 95) },
    requestTime: { p50Ms: p(atRequest, 50), p95Ms: p(atRequest, 95), indexMs: round(indexMs, 0), indexHeapMb },
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
    const archives = [];
    const dirs: Record<string, string> = {};
    for (const r of REGIONS) {
      const dir = join(tmp, r.name);
      dirs[r.name] = dir;
      const region = await importRegion({ osm: r.osm, dem: r.dem });
      writeRegion(dir, region);
      const row = await archiveAndCold(r.name, region, join(dir, 'tiles.mbtiles'));
      archives.push(row);
      console.log(
        `${r.name}: ${row.z14Tiles} cold z14 tiles — archive p50 ${row.archive.p50Ms} ms p95 ${row.archive.p95Ms} ms; ` +
          `request-time cutting p50 ${row.requestTime.p50Ms} ms p95 ${row.requestTime.p95Ms} ms ` +
          `(its index: ${row.requestTime.indexMs} ms, ${row.requestTime.indexHeapMb} MB of heap per worker)`,
      );
    }

    // 3. Cold z14 tiles over HTTP, one at a time, on a server just started on each region but Andorra.
    const liArchive = new TileArchive(join(dirs['liechtenstein']!, 'tiles.mbtiles'));
    const withContent = (z: number) => tileRange(liArchive.info.bbox, z).filter((t) => liArchive.tile(t.z, t.x, t.y) !== undefined);
    const coldHttp: { region: string; tiles: number; p50Ms: number; p95Ms: number }[] = [];
    for (const name of Object.keys(dirs).filter((n) => n !== 'andorra')) {
      const archive = new TileArchive(join(dirs[name]!, 'tiles.mbtiles'));
      const list = tileRange(archive.info.bbox, 14).filter((t) => archive.tile(t.z, t.x, t.y) !== undefined);
      archive.close();
      const started = await startCairn(join(tmp, `cold-${name}`), undefined, { REGION_PATH: dirs[name]! });
      servers.push(started.server);
      execFileSync(
        process.execPath,
        [
          join(root, 'dist', 'server', 'management', 'admin', 'admin.js'),
          'set',
          '--org',
          started.boot.organization.id,
          'quota.tiles=10000000',
        ],
        { env: { ...process.env, DATABASE_PATH: join(tmp, `cold-${name}`, 'platform.db') }, stdio: 'ignore' },
      );
      const times: number[] = [];
      for (const t of list) {
        const t0 = performance.now();
        const res = await fetch(`${started.base}/v1/tiles/trails/${t.z}/${t.x}/${t.y}.mvt`, {
          headers: { 'X-API-Key': started.boot.publishableKey.key, 'Accept-Encoding': 'gzip' },
        });
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`tile ${t.z}/${t.x}/${t.y} answered ${res.status}`);
      }
      await started.server.stop();
      servers.pop();
      coldHttp.push({ region: name, tiles: times.length, p50Ms: p(times, 50), p95Ms: p(times, 95) });
      console.log(`${name}: cold z14 tiles over HTTP (${times.length}, one at a time): p50 ${p(times, 50)} ms, p95 ${p(times, 95)} ms`);
    }

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
    const cold = [...tileRange(liArchive.info.bbox, 15), ...tileRange(liArchive.info.bbox, 16)].slice(0, SMOKE ? 50 : 5000);
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
    for (const e of archives) {
      rows.push([`${e.region}: archive cut (${e.cut.tiles} tiles, ${e.cut.mb} MB)`, `${e.cut.ms} ms`, '', '', '', '']);
      rows.push([
        `${e.region}: largest tile`,
        `${e.largestKb} KB`,
        '',
        '',
        `≤ ${TILE_BYTES_LIMIT / 1000} KB`,
        verdict(e.largestKb * 1024 <= TILE_BYTES_LIMIT),
      ]);
      rows.push([
        `${e.region}: cold z14 p95, archive vs request-time (${e.z14Tiles} tiles)`,
        `${e.archive.p95Ms} ms`,
        `${e.requestTime.p95Ms} ms`,
        round(ratio(e.requestTime.p95Ms, e.archive.p95Ms)),
        '',
        '',
      ]);
    }
    for (const c of coldHttp)
      rows.push([`${c.region}: cold z14 over HTTP p95 (${c.tiles} tiles)`, `${c.p95Ms} ms`, '', '', '≤ 20 ms', verdict(c.p95Ms <= 20)]);
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
      archives,
      coldHttp,
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
