// Question: how long after an edit commits does every member watching the itinerary hear of it?
// Setup: Cairn on the demo region; 1,000 WebSockets (one client process, the `ws` package) on one itinerary's live
// channel as its owner; the owner renames the itinerary (PATCH, a draft change) once per round. Each event carries
// `at`, the time the change was announced just after its commit; a socket's delivery time is when its client read
// the message (same host, same clock). Every socket must hear every edit. Bar (DESIGN §13): p99 commit → delivery
// ≤ 50 ms. The client's own parsing of 1,000 messages per edit is inside the number. Results: bench/results/live.json (smoke runs: live.smoke.json).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { machineInfo, writeResults } from './lib/machine.js';
import { startCairn } from './lib/server-process.js';
import { percentile, round } from './lib/stats.js';
import { printTable } from './lib/table.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SUBSCRIBERS = SMOKE ? 50 : Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? 1000);
const EDITS = SMOKE ? 3 : 30;
const BAR_P99_MS = 50;

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-live-bench-'));
  const results: Record<string, unknown> = { bench: 'live', smoke: SMOKE, ...machineInfo(['server']) };
  let stop: (() => Promise<void>) | undefined;
  const sockets: WebSocket[] = [];
  try {
    const { server, boot, base } = await startCairn(dir, undefined);
    stop = () => server.stop();
    const login = await fetch(`${base}/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: boot.owner.email, password: boot.owner.password }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const itinerary = (await call(base, token, 'POST', '/v1/itineraries', { name: 'Live bench', privacy: 'private' })).data.id as string;

    // version → delivery latencies (ms) heard for it, one per socket.
    const heard = new Map<number, number[]>();
    const url = `${base.replace('http', 'ws')}/studio/live?itinerary_id=${itinerary}&auth_token=${token}`;
    for (let opened = 0; opened < SUBSCRIBERS; opened += 100) {
      const batch = Array.from({ length: Math.min(100, SUBSCRIBERS - opened) }, async () => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        sockets.push(ws);
        ws.on('message', (data) => {
          const text = String(data);
          if (!text.startsWith('{"type":"itinerary.changed"')) return;
          const received = Date.now();
          const message = JSON.parse(text) as { version: number; at: string };
          let list = heard.get(message.version);
          if (!list) heard.set(message.version, (list = []));
          list.push(received - Date.parse(message.at));
        });
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
      });
      await Promise.all(batch);
    }

    const versions: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const edited = await call(base, token, 'PATCH', `/v1/itineraries/${itinerary}`, { name: `Live bench ${i}` });
      versions.push(edited.data.version as number);
      // Let every socket hear it before the next edit (so each edit's fan-out is measured alone).
      const until = Date.now() + 5000;
      while ((heard.get(edited.data.version)?.length ?? 0) < SUBSCRIBERS && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 20));
    }
    const missing = versions.map((v) => SUBSCRIBERS - (heard.get(v)?.length ?? 0)).reduce((a, b) => a + b, 0);
    if (missing > 0) throw new Error(`${missing} deliveries missing of ${versions.length * SUBSCRIBERS}`);
    const latencies = versions.flatMap((v) => heard.get(v) ?? []);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const max = Math.max(...latencies);
    results.subscribers = SUBSCRIBERS;
    results.edits = EDITS;
    results.deliveries = latencies.length;
    results.latencyMs = { p50: round(p50, 1), p99: round(p99, 1), max: round(max, 1) };
    results.bar = { p99Ms: BAR_P99_MS, met: p99 <= BAR_P99_MS };
    printTable(
      `live fan-out: ${SUBSCRIBERS} subscribers of one itinerary, ${EDITS} edits (commit → delivery, ms)`,
      ['deliveries', 'p50', 'p99', 'max', `bar p99 ≤ ${BAR_P99_MS}`],
      [[String(latencies.length), round(p50, 1), round(p99, 1), round(max, 1), p99 <= BAR_P99_MS ? 'met' : 'NOT met']],
    );
    console.log(`results: ${writeResults(SMOKE ? 'live.smoke' : 'live', results)}`);
  } finally {
    for (const ws of sockets) ws.terminate();
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
