// `npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR] [--bbox W,S,E,N] [--json] [--quiet]
// [--threads N]`: builds a region folder (of the part of the extract inside the box, with --bbox). Progress goes to stderr (redrawn on a terminal, a line now and then otherwise);
// --json prints one JSON summary on stdout instead of the one-line report.
//
// The import runs on a worker thread whose heap limit is this process's own (CAIRN_IMPORT_HEAP_MB
// changes it): running out of JS heap there ends the thread with ERR_WORKER_OUT_OF_MEMORY, which this
// thread reports as "out of memory while <stage>", where V8 would otherwise abort the whole process with
// a fatal error. Every line is printed from this thread.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ImportJob, WorkerMessage } from './import-job.js';
import { STAGE_DOING } from './import-progress.js';

const USAGE =
  'usage: npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR (default var/region)] ' +
  '[--bbox WEST,SOUTH,EAST,NORTH (degrees: only that part of the extract)] ' +
  '[--json] [--quiet] [--threads N (default: all cores for large files; env CAIRN_IMPORT_THREADS)]';

async function main(): Promise<number> {
  let values: {
    osm?: string;
    dem?: string[];
    out?: string;
    bbox?: string;
    help?: boolean;
    json?: boolean;
    quiet?: boolean;
    threads?: string;
  };
  try {
    ({ values } = parseArgs({
      options: {
        osm: { type: 'string' },
        dem: { type: 'string', multiple: true },
        out: { type: 'string', default: 'var/region' },
        bbox: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        threads: { type: 'string' },
      },
      allowPositionals: false,
    }));
  } catch (e) {
    console.error(`error: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.osm) {
    console.error(`error: --osm is required\n${USAGE}`);
    return 2;
  }
  const threadsArg = values.threads ?? process.env.CAIRN_IMPORT_THREADS;
  const threads = threadsArg === undefined || threadsArg === '' ? undefined : Number(threadsArg);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) {
    console.error(`error: --threads must be a whole number ≥ 0\n${USAGE}`);
    return 2;
  }
  const bbox = values.bbox === undefined ? undefined : parseBbox(values.bbox);
  if (bbox === null) {
    console.error(`error: --bbox is WEST,SOUTH,EAST,NORTH in degrees, west below east and south below north\n${USAGE}`);
    return 2;
  }
  const every = Number(process.env.CAIRN_IMPORT_PROGRESS_MS);
  const job: ImportJob = {
    osm: values.osm,
    dem: values.dem ?? [],
    out: values.out!,
    threads,
    bbox,
    json: values.json === true,
    progress: !values.quiet,
    tty: process.stderr.isTTY === true,
    lineEveryMs: Number.isFinite(every) && every >= 0 ? every : undefined,
  };
  const heapMB = Number(process.env.CAIRN_IMPORT_HEAP_MB) || Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
  const file = fileURLToPath(new URL(`./import-job${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
  const pool = new Piscina({ filename: file, minThreads: 1, maxThreads: 1, resourceLimits: { maxOldGenerationSizeMb: heapMB } });
  const { port1, port2 } = new MessageChannel();
  let stage = 'starting';
  let exited: (code: number) => void = () => undefined;
  const exit = new Promise<number>((resolve) => {
    exited = resolve;
  });
  port1.on('message', (m: WorkerMessage) => {
    if ('stage' in m) stage = m.stage;
    else if ('stdout' in m) process.stdout.write(m.stdout);
    else if ('stderr' in m) process.stderr.write(m.stderr);
    else if ('exit' in m) exited(m.exit);
  });
  try {
    await pool.run({ job, port: port2 }, { transferList: [port2] });
    // The job's last message is its exit code: every line it sent has been printed by then.
    return await exit;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (job.tty && job.progress) process.stderr.write('\n');
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      console.error(
        `error: out of memory while ${STAGE_DOING[stage] ?? stage}: the JS heap limit of ${heapMB} MB was reached ` +
          '(try a larger one with CAIRN_IMPORT_HEAP_MB or NODE_OPTIONS=--max-old-space-size=MB, a machine with more memory, or a smaller extract)',
      );
    } else {
      console.error(`error: ${err.message}`);
      if (process.env.CAIRN_DEBUG) console.error(err);
    }
    return 1;
  } finally {
    port1.close();
    await pool.destroy();
  }
}

/** `WEST,SOUTH,EAST,NORTH` as a box of degrees, or null when it is not one. */
function parseBbox(text: string): [number, number, number, number] | null {
  const parts = text.split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  if (!(west >= -180 && east <= 180 && south >= -90 && north <= 90 && west < east && south < north)) return null;
  return [west, south, east, north];
}

process.exitCode = await main();
