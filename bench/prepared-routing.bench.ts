// Routing prepared at import: what it adds to the import and what it saves the server.
//
// Question: how long does the import's routing stage take and how big is routing.bin, and what does the first route
// of each activity after start cost with it (prepared) and without it (ROUTING_LAZY=1: each worker prepares an
// activity on its first request, as before)?
// Method, per source: the import (`node dist/data/region/import-cli.js`) under /usr/bin/time -v: wall time, peak RSS,
// the routing stage's own time (its last stderr line) and the files' sizes. Then, alternating ROUNDS times between
// lazy and prepared, a fresh server (2 workers) on the folder: ready = spawn to its listening line, the server's RSS
// (VmRSS) then, the first `directions` over /graphql of each activity in turn (the same waypoints: two nodes 1–5 km
// apart, fixed seed), 20 further routes (p50), and the RSS after.
// Run: npm run build && node --import tsx bench/prepared-routing.bench.ts [NAME=FILE.osm.pbf[,DEM.hgt.zip] ...]
// (default: andorra with N42E001, liechtenstein from ../shared/data; BENCH_SMOKE=1: andorra, one round). ROUNDS=N
// sets the rounds (default 2). Output: a table on stdout and bench/results/prepared-routing.json.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTIVITIES } from '../contracts/activity.js';
import { decodeGraphFile } from '../data/region/graph-file.js';
import { seededRandom } from '../data/seeded-random.js';
import { dataApiHeaders, rssMb, startCairn } from './lib/server-process.js';
import { percentile, round } from './lib/stats.js';
import { latOf, lonOf, outEdges } from '../data/region/region-graph.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(ROOT, '..', 'shared', 'data');
const WORK = join(tmpdir(), 'cairn-prepared-routing');
const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = SMOKE ? 1 : Number(process.env.ROUNDS ?? 2);
const SOURCES = (
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        `andorra=${join(DATA, 'andorra.osm.pbf')},${join(DATA, 'N42E001.hgt.zip')}`,
        ...(SMOKE ? [] : [`liechtenstein=${join(DATA, 'liechtenstein-latest.osm.pbf')}`]),
      ]
).map((arg) => {
  const [name, files] = arg.split('=') as [string, string];
  const [osm, ...dem] = files.split(',');
  return { name, osm: osm!, dem };
});

const mb = (bytes: number): number => round(bytes / 1e6, 1);

function importRegion(osm: string, dem: string[], out: string) {
  rmSync(out, { recursive: true, force: true });
  const args = [
    join(ROOT, 'dist', 'data', 'region', 'import-cli.js'),
    '--osm',
    osm,
    ...dem.flatMap((d) => ['--dem', d]),
    '--out',
    out,
    '--json',
  ];
  const t0 = performance.now();
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (run.status !== 0) throw new Error(`import of ${osm} failed: ${run.stderr}`);
  const summary = JSON.parse(run.stdout) as { stages: { stage: string; seconds: number; peakRssMB: number }[] };
  const stage = (name: string) => summary.stages.find((s) => s.stage === name)!;
  const routingStages = ['routing core', 'routing weights', 'hierarchies', 'routing file'].map(stage);
  const routingSeconds = round(
    routingStages.reduce((sum, s) => sum + s.seconds, 0),
    2,
  );
  const hierarchies = /import: (\d+) contraction hierarchies.*?(\d+) shortcuts, (\d+) threads?/.exec(run.stderr);
  const core = /import: routing core graph: (\d+) nodes, (\d+) edges/.exec(run.stderr);
  const size = (name: string) => statSync(join(out, name)).size;
  return {
    seconds: round(seconds, 2),
    peakRssMb: round(Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1]) / 1024, 0),
    routingSeconds,
    /** Peak RSS after building the graph (what the import needed before routing) and after the routing stages. */
    peakRssBeforeRoutingMb: stage('build').peakRssMB,
    peakRssAfterRoutingMb: stage('routing file').peakRssMB,
    coreNodes: Number(core?.[1]),
    coreEdges: Number(core?.[2]),
    hierarchies: Number(hierarchies?.[1]),
    shortcuts: Number(hierarchies?.[2]),
    threads: Number(hierarchies?.[3]),
    graphMb: mb(size('graph.bin')),
    routingMb: mb(size('routing.bin')),
    folderMb: mb(readdirSync(out).reduce((s, f) => s + size(f), 0)),
    stages: summary.stages,
  };
}

/** Two network nodes 1–5 km apart (fixed seed), as [lon, lat] waypoints, and 20 more pairs. */
function waypoints(dir: string): [number, number][][] {
  const g = decodeGraphFile(readFileSync(join(dir, 'graph.bin')), 'graph.bin');
  const random = seededRandom(7);
  const node = () => {
    for (;;) {
      const v = Math.floor(random() * g.nodeCount);
      if (outEdges(g, v).length >= 3) return v;
    }
  };
  const at = (v: number): [number, number] => [lonOf(g, v), latOf(g, v)];
  const pairs: [number, number][][] = [];
  while (pairs.length < 21) {
    const a = node();
    const b = node();
    const kx = 111_320 * Math.cos((latOf(g, a) * Math.PI) / 180);
    const d = Math.hypot((lonOf(g, a) - lonOf(g, b)) * kx, (latOf(g, a) - latOf(g, b)) * 110_574);
    if (d >= 1000 && d <= 5000) pairs.push([at(a), at(b)]);
  }
  return pairs;
}

async function serve(dir: string, lazy: boolean, pairs: [number, number][][]) {
  const data = join(WORK, 'server');
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const t0 = performance.now();
  const { server, boot, base } = await startCairn(data, undefined, {
    REGION_PATH: dir,
    WORKER_THREADS: '2',
    ...(lazy ? { ROUTING_LAZY: '1' } : {}),
  });
  const readySeconds = (performance.now() - t0) / 1000;
  try {
    const rssStart = rssMb(server.pid);
    const headers = await dataApiHeaders(base, boot);
    const route = async (activity: string, w: [number, number][]) => {
      const query = `query D($w: [[Float!]!]!) { directions(input: {activity: ${activity}, waypoints: $w}) { routes { distance } } }`;
      const t = performance.now();
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: { w } }) });
      await res.json();
      return performance.now() - t;
    };
    const first: Record<string, number> = {};
    for (const activity of ACTIVITIES) first[activity] = round(await route(activity, pairs[0]!), 1);
    const later: number[] = [];
    for (const w of pairs.slice(1)) later.push(await route('HIKING_AND_TRAIL', w));
    return {
      readySeconds: round(readySeconds, 2),
      rssStartMb: round(rssStart, 0),
      first,
      laterP50: round(percentile(later, 50), 1),
      rssAfterMb: round(rssMb(server.pid), 0),
    };
  } finally {
    await server.stop();
  }
}

const results = [];
for (const src of SOURCES) {
  const dir = join(WORK, src.name);
  mkdirSync(WORK, { recursive: true });
  const imported = importRegion(src.osm, src.dem, dir);
  const pairs = waypoints(dir);
  const runs: Record<'lazy' | 'prepared', Awaited<ReturnType<typeof serve>>[]> = { lazy: [], prepared: [] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.lazy.push(await serve(dir, true, pairs));
    runs.prepared.push(await serve(dir, false, pairs));
  }
  results.push({ name: src.name, imported, runs });
  console.log(
    `\n${src.name}: import ${imported.seconds} s (routing stages ${imported.routingSeconds} s, ${imported.threads} threads), ` +
      `peak RSS ${imported.peakRssMb} MB (${imported.peakRssBeforeRoutingMb} MB before the routing stages)`,
  );
  console.log(
    `  core ${imported.coreNodes} nodes / ${imported.coreEdges} edges; ${imported.hierarchies} hierarchies, ${imported.shortcuts} shortcuts`,
  );
  console.log(`  graph.bin ${imported.graphMb} MB, routing.bin ${imported.routingMb} MB, folder ${imported.folderMb} MB`);
  console.log(
    `  mode     | ready s | RSS start MB | first route per activity ms (${ACTIVITIES.map((a) => a.slice(0, 5)).join(' ')}) | later p50 ms | RSS after MB`,
  );
  for (const mode of ['lazy', 'prepared'] as const) {
    for (const run of runs[mode]) {
      console.log(
        `  ${mode.padEnd(8)} | ${run.readySeconds} | ${run.rssStartMb} | ${Object.values(run.first).join(' / ')} | ${run.laterP50} | ${run.rssAfterMb}`,
      );
    }
  }
}
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', SMOKE ? 'prepared-routing.smoke.json' : 'prepared-routing.json'),
  `${JSON.stringify({ date: new Date().toISOString(), results }, null, 2)}\n`,
);
