// Question: does Cairn stay healthy under minutes of mixed traffic: no errors, steady latency, and memory
// that comes back down instead of growing?
//
// Method: the real server (dist/server/main.js, demo region, a fresh database, LOG_LEVEL=info so the
// request log is part of the load), pinned to core 0 when two cores exist. A plain-Node load generator
// (fetch with keep-alive) runs CLIENTS concurrent clients for SOAK_SECONDS (default 180), each picking a
// request kind by fixed weights from a seeded PRNG:
//   read     GET /v1/itineraries/{id} (a 20-segment itinerary)         30 %
//   list     GET /v1/itineraries?limit=20, GET /v1/zones               20 %
//   append   POST …/segments (freehand, through the worker pool)       15 %
//   edit     PATCH /v1/itineraries/{id} {description}                  15 %
//   create   POST /v1/itineraries, then DELETE it                      10 %
//   session  POST /v1/sessions (secret key; spread over client IPs)     8 %
//   import   POST /v1/itineraries/import (a 200-point GPX), then DELETE 2 %
// Every answer is checked for its expected status; anything else counts as an error by kind and status.
// The server's RSS is read from /proc/<pid>/status every 500 ms (start, each tenth of the run, peak, end
// after a 5 s idle).
// Read: the table gives requests, errors and p50/p99 per kind; the RSS line should end near where it
// started (no leak). Results: bench/results/soak.json. BENCH_SMOKE=1: 3 seconds, 4 clients.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { networkPoints } from '../test/server/studio/itineraries/chain-helpers.js';
import { machineInfo, writeResults } from './lib/machine.js';
import { rssMb, startCairn } from './lib/server-process.js';
import { percentile, round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { canPin } from './lib/wrk.js';
import { seededRandom } from '../data/seeded-random.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = SMOKE ? 3 : Number(process.env.SOAK_SECONDS ?? 180);
const CLIENTS = SMOKE ? 4 : Number(process.env.SOAK_CLIENTS ?? 16);

type Kind = 'read' | 'list' | 'append' | 'edit' | 'create' | 'session' | 'import';
const WEIGHTS: [Kind, number][] = [
  ['read', 30],
  ['list', 20],
  ['append', 15],
  ['edit', 15],
  ['create', 10],
  ['session', 8],
  ['import', 2],
];

function gpx(points: [number, number][]): string {
  const pts = points.map(([lon, lat]) => `<trkpt lat="${lat}" lon="${lon}"></trkpt>`).join('');
  return `<?xml version="1.0"?><gpx version="1.1" creator="soak"><trk><name>Soak</name><trkseg>${pts}</trkseg></trk></gpx>`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-soak-'));
  // TRUST_PROXY: each session request names its own client address, so the per-IP limit is not what is measured.
  const { server, boot, base } = await startCairn(dir, canPin(2) ? '0' : undefined, { TRUST_PROXY: '1' });
  const writer = { 'X-API-Key': boot.publishableKey.key, 'X-User-Id': boot.owner.id, 'Content-Type': 'application/json' };
  const points = networkPoints();
  const track = gpx(Array.from({ length: 200 }, (_, i) => [1.5 + i * 1e-4, 42.5 + i * 5e-5]));

  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = writer) => {
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    return { status: res.status, json: text?.startsWith('{') ? JSON.parse(text) : undefined };
  };
  // A 20-segment itinerary to read, and one per client to append to and edit.
  const shared = (await call('POST', '/v1/itineraries', JSON.stringify({ name: 'Soak read' }))).json.data.id as string;
  for (let i = 0; i < 20; i++) {
    await call(
      'POST',
      `/v1/itineraries/${shared}/segments`,
      JSON.stringify({ engine: 'freehand', coordinates: [points[i], points[i + 1]] }),
    );
  }

  const latencies = new Map<Kind, number[]>(WEIGHTS.map(([k]) => [k, []]));
  const errors = new Map<string, number>();
  let requests = 0;
  const rss = { start: rssMb(server.pid), peak: 0, end: 0 };
  // RSS at each tenth of the run: a plateau is a warmed-up heap and page cache, a steady climb a leak.
  const timeline: number[] = [];
  const began = performance.now();
  const sampler = setInterval(() => {
    const now = rssMb(server.pid);
    rss.peak = Math.max(rss.peak, now);
    if (performance.now() - began >= ((timeline.length + 1) * SECONDS * 1000) / 10) timeline.push(round(now, 1));
  }, 500);
  const until = began + SECONDS * 1000;

  const client = async (c: number) => {
    const random = seededRandom(1000 + c);
    const ownItinerary = async (n: number) =>
      (await call('POST', '/v1/itineraries', JSON.stringify({ name: `Soak client ${c}.${n}` }))).json.data.id as string;
    let own = await ownItinerary(0);
    let owned = 1;
    let segments = 0;
    while (performance.now() < until) {
      let roll = random() * 100;
      const kind = (WEIGHTS.find(([, w]) => (roll -= w) < 0) ?? WEIGHTS[0])![0];
      const started = performance.now();
      const expect = (got: number, want: number) => {
        if (got !== want) errors.set(`${kind} ${got}`, (errors.get(`${kind} ${got}`) ?? 0) + 1);
      };
      if (kind === 'read')
        expect((await call('GET', `/v1/itineraries/${shared}`, undefined, { 'X-API-Key': boot.publishableKey.key })).status, 200);
      else if (kind === 'list')
        expect(
          (
            await call('GET', random() < 0.5 ? '/v1/itineraries?limit=20' : '/v1/zones', undefined, {
              'X-API-Key': boot.publishableKey.key,
            })
          ).status,
          200,
        );
      else if (kind === 'append') {
        if (segments >= 100) {
          // Keep each client's itinerary the size a hiker's would be: start a new one.
          own = await ownItinerary(owned++);
          segments = 0;
        }
        const a = points[Math.floor(random() * points.length)]!;
        expect(
          (
            await call(
              'POST',
              `/v1/itineraries/${own}/segments`,
              JSON.stringify({ engine: 'freehand', coordinates: [a, [a[0] + 0.001, a[1] + 0.001]] }),
            )
          ).status,
          201,
        );
        segments++;
      } else if (kind === 'edit')
        expect((await call('PATCH', `/v1/itineraries/${own}`, JSON.stringify({ description: `edit ${requests}` }))).status, 200);
      else if (kind === 'create') {
        const r = await call('POST', '/v1/itineraries', JSON.stringify({ name: `t-${c}-${requests}-${random()}` }));
        expect(r.status, 201);
        if (r.status === 201) expect((await call('DELETE', `/v1/itineraries/${r.json.data.id}`)).status, 204);
      } else if (kind === 'session') {
        const headers = {
          'X-API-Key': boot.secretKey.key,
          'Content-Type': 'application/json',
          'X-Forwarded-For': `10.${c}.${Math.floor(random() * 250)}.${Math.floor(random() * 250)}`,
        };
        expect((await call('POST', '/v1/sessions', JSON.stringify({ publishable_key: boot.publishableKey.key }), headers)).status, 201);
      } else {
        const r = await call('POST', `/v1/itineraries/import?name=${encodeURIComponent(`imp-${c}-${requests}`)}`, track, {
          ...writer,
          'Content-Type': 'application/gpx+xml',
        });
        expect(r.status, 201);
        if (r.status === 201) expect((await call('DELETE', `/v1/itineraries/${r.json.data.id}`)).status, 204);
      }
      latencies.get(kind)!.push(performance.now() - started);
      requests++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, SMOKE ? 500 : 5000));
  rss.end = rssMb(server.pid);
  rss.peak = Math.max(rss.peak, rss.end);
  await server.stop();
  const serverErrors = readFileSync(join(dir, 'server.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"level":"error"')).length;
  rmSync(dir, { recursive: true, force: true });

  const rows = WEIGHTS.map(([kind]) => {
    const l = latencies.get(kind)!;
    const failed = [...errors].filter(([k]) => k.startsWith(`${kind} `)).reduce((n, [, v]) => n + v, 0);
    return [kind, l.length, failed, round(percentile(l, 50), 2), round(percentile(l, 99), 2)];
  });
  console.log(`\nsoak: ${SECONDS} s, ${CLIENTS} clients, ${requests} requests (${round(requests / SECONDS, 0)}/s)`);
  printTable('soak', ['kind', 'requests', 'errors', 'p50 ms', 'p99 ms'], rows);
  console.log(
    `server RSS MB: start ${round(rss.start, 1)}, peak ${round(rss.peak, 1)}, end ${round(rss.end, 1)}; each tenth of the run: ${timeline.join(' ')}; error log lines: ${serverErrors}`,
  );
  if (errors.size) console.log(`errors by kind and status: ${JSON.stringify(Object.fromEntries(errors))}`);
  writeResults(SMOKE ? 'soak.smoke' : 'soak', {
    bench: 'soak',
    smoke: SMOKE,
    ...machineInfo(['server', 'data', 'workers']),
    seconds: SECONDS,
    clients: CLIENTS,
    requests,
    errors: Object.fromEntries(errors),
    serverErrorLogLines: serverErrors,
    byKind: Object.fromEntries(rows.map(([k, n, e, p50, p99]) => [k, { requests: n, errors: e, p50Ms: p50, p99Ms: p99 }])),
    rssMb: { start: round(rss.start, 1), peak: round(rss.peak, 1), end: round(rss.end, 1), timeline },
  });
  // A soak that saw errors fails (unlike timings, errors are never noise).
  if (errors.size > 0 || serverErrors > 0) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
