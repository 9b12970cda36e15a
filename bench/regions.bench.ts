// Several regions in one deployment: what each region served costs the server in memory, how long a region added or
// replaced takes to be served, and whether memory returns to one copy once a replaced region drains.
//
// Question: with REGIONS_PATH, does RSS grow by one copy of a region per region (not per worker), and does it come back
// down after replacements (no generation left behind in a worker or the main thread)?
// Data: Liechtenstein stitched 16 times (bench/region-scale/stitch.mjs, ~20 MB of PBF), imported once; each region
// of the deployment is a copy of that folder (BENCH_SMOKE=1: the demo valley, 2 regions, 1 replacement).
// Method: the server (2 workers) starts on one region; regions are added one at a time with `admin region-add`, each
// timed from the command to the `regions` Data API field listing it, RSS read after each; then the first region is
// replaced REPLACEMENTS times with `admin region-replace` while one client routes in it, RSS read once the server
// logged the old one dropped (and a second later). No peer: the comparison is the server with one region.
// Run: npm run build && node --expose-gc --import tsx bench/regions.bench.ts
// Output: a table on stdout and bench/results/regions.json (regions.smoke.json with BENCH_SMOKE=1).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemoRegion } from '../data/region/demo-region.js';
import { writeResults } from './lib/machine.js';
import { dataApiHeaders, rssMb, startCairn } from './lib/server-process.js';
import { round } from './lib/stats.js';
import { printTable } from './lib/table.js';
import { REPO_ROOT } from './lib/machine.js';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SOURCE = join(REPO_ROOT, '..', 'shared', 'data', 'liechtenstein-latest.osm.pbf');
const WORK = join(tmpdir(), 'cairn-region-scale');
const COPIES = 16;
const REGIONS = SMOKE ? 2 : 4;
const REPLACEMENTS = SMOKE ? 1 : 3;
const ADMIN = join(REPO_ROOT, 'dist', 'server', 'management', 'admin', 'admin.js');

/** The region folder every region of the deployment is a copy of: 16 stitched Liechtensteins, or the demo valley. */
function sourceRegion(): { dir: string; what: string } {
  if (SMOKE || !existsSync(SOURCE)) {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-regions-bench-demo-'));
    writeDemoRegion(join(dir, 'region'));
    return { dir: join(dir, 'region'), what: 'the demo valley' };
  }
  mkdirSync(WORK, { recursive: true });
  const pbf = join(WORK, `stitch-${COPIES}.osm.pbf`);
  if (!existsSync(pbf)) {
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'bench', 'region-scale', 'stitch.mjs'), '--copies', String(COPIES), '--out', pbf, '--src', SOURCE],
      {
        stdio: 'inherit',
      },
    );
  }
  const dir = join(WORK, `region-${COPIES}`);
  if (!existsSync(join(dir, 'meta.json'))) {
    execFileSync(process.execPath, [join(REPO_ROOT, 'dist', 'data', 'region', 'import-cli.js'), '--osm', pbf, '--out', dir, '--quiet'], {
      stdio: 'inherit',
    });
  }
  return { dir, what: `${COPIES} stitched copies of Liechtenstein` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const source = sourceRegion();
  const work = mkdtempSync(join(tmpdir(), 'cairn-regions-bench-'));
  const root = join(work, 'regions');
  mkdirSync(root);
  const admin = (...args: string[]) => execFileSync(process.execPath, [ADMIN, ...args, '--path', root, '--json'], { encoding: 'utf8' });
  admin('region-add', '--name', 'r1', '--from', source.dir);
  const meta = JSON.parse(readFileSync(join(source.dir, 'meta.json'), 'utf8')) as { bbox: number[] };
  const [west, south, east, north] = meta.bbox as [number, number, number, number];
  const { server, boot, base } = await startCairn(work, undefined, { REGIONS_PATH: root, REGIONS_POLL_MS: '500', WORKER_THREADS: '2' });
  const log = () => readFileSync(join(work, 'server.log'), 'utf8');
  try {
    execFileSync(process.execPath, [ADMIN, 'set', '--org', boot.organization.id, 'quota.data=100000000'], {
      env: { ...process.env, DATABASE_PATH: join(work, 'platform.db') },
      stdio: 'ignore',
    });
    const headers = await dataApiHeaders(base, boot);
    const graphql = async (query: string) => {
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
      return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
    };
    const served = async () => ((await graphql('{ regions { name } }')).data?.regions ?? []).map((r: { name: string }) => r.name);
    const waitFor = async (check: () => Promise<boolean> | boolean) => {
      const t0 = performance.now();
      while (!(await check())) {
        if (performance.now() - t0 > 300_000) throw new Error('timed out');
        await sleep(20);
      }
      return (performance.now() - t0) / 1000;
    };
    const settledRss = async () => {
      await sleep(1000);
      return round(rssMb(server.pid), 0);
    };
    const rows: { step: string; regions: number; seconds: number | null; rssMb: number }[] = [];
    rows.push({ step: 'start', regions: 1, seconds: null, rssMb: await settledRss() });
    for (let n = 2; n <= REGIONS; n++) {
      const t0 = performance.now();
      admin('region-add', '--name', `r${n}`, '--from', source.dir);
      await waitFor(async () => (await served()).length === n);
      rows.push({ step: `add r${n}`, regions: n, seconds: round((performance.now() - t0) / 1000, 2), rssMb: await settledRss() });
    }
    // Replacements while one client routes corner to corner in r1 (every region holds the same network: any serves).
    let stop = false;
    let routed = 0;
    let failed = 0;
    const query = `{ directions(input: {activity: HIKING_AND_TRAIL, waypoints: [[${west + (east - west) * 0.3}, ${south + (north - south) * 0.3}], [${west + (east - west) * 0.6}, ${south + (north - south) * 0.6}]]}) { routes { distance } } }`;
    const client = (async () => {
      while (!stop) {
        const out = await graphql(query);
        // A point of the box off the network is the route's answer, not a failure of the server.
        if (out.errors && !JSON.stringify(out.errors).includes('VALIDATION_FAILED')) {
          failed++;
          if (failed === 1) console.log(`first failure: ${JSON.stringify(out.errors)}`);
        } else routed++;
      }
    })();
    for (let k = 1; k <= REPLACEMENTS; k++) {
      const dropped = (log().match(/"msg":"region dropped"/g) ?? []).length;
      const t0 = performance.now();
      admin('region-replace', '--name', 'r1', '--from', source.dir);
      await waitFor(() => (log().match(/"msg":"region dropped"/g) ?? []).length > dropped);
      rows.push({
        step: `replace r1 (#${k})`,
        regions: REGIONS,
        seconds: round((performance.now() - t0) / 1000, 2),
        rssMb: await settledRss(),
      });
    }
    stop = true;
    await client;
    const perRegion = rows.length > 1 ? round((rows[REGIONS - 1]!.rssMb - rows[0]!.rssMb) / (REGIONS - 1), 0) : 0;
    printTable(
      `regions: ${source.what} per region, 2 workers (seconds: from the admin command to served, or to the old one dropped)`,
      ['step', 'regions', 'seconds', 'RSS MB'],
      rows.map((r) => [r.step, r.regions, r.seconds ?? '', r.rssMb]),
    );
    console.log(`RSS per region added: ${perRegion} MB; routes during replacements: ${routed} answered, ${failed} failed`);
    const path = writeResults(SMOKE ? 'regions.smoke' : 'regions', { region: source.what, rows, perRegionMb: perRegion, routed, failed });
    console.log(`results: ${path}`);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
