// `npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR] [--json] [--quiet] [--threads N]`:
// builds a region folder. Progress goes to stderr (redrawn on a terminal, a line now and then otherwise);
// --json prints one JSON summary on stdout instead of the one-line report.
import { parseArgs } from 'node:util';
import { ImportProgress } from './import-progress.js';
import { type ImportReport, importRegion } from './import-region.js';
import { ImportResourceError, RegionInputError } from './region-error.js';

const USAGE =
  'usage: npm run import -- --osm FILE.osm.pbf [--dem FILE.hgt[.zip] ...] [--out DIR (default var/region)] ' +
  '[--json] [--quiet] [--threads N (default: all cores for large files; env CAIRN_IMPORT_THREADS)]';

async function main(): Promise<number> {
  let values: { osm?: string; dem?: string[]; out?: string; help?: boolean; json?: boolean; quiet?: boolean; threads?: string };
  try {
    ({ values } = parseArgs({
      options: {
        osm: { type: 'string' },
        dem: { type: 'string', multiple: true },
        out: { type: 'string', default: 'var/region' },
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
  const started = performance.now();
  const every = Number(process.env.CAIRN_IMPORT_PROGRESS_MS);
  const progress = new ImportProgress({
    enabled: !values.quiet,
    tty: process.stderr.isTTY === true,
    lineEveryMs: Number.isFinite(every) && every >= 0 ? every : undefined,
  });
  const report: Partial<ImportReport> = {};
  try {
    const region = await importRegion({ osm: values.osm, dem: values.dem ?? [], out: values.out, threads, progress, report });
    const c = region.meta.counts;
    if ((values.dem ?? []).length > 0) {
      let missing = 0;
      for (const v of region.graph.nodeEle) if (Number.isNaN(v)) missing++;
      if (missing > 0) console.warn(`warning: ${missing} of ${c.nodes} nodes lie outside the DEM tiles (no elevation)`);
    }
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    if (values.json) {
      const files = report.files ?? {};
      const summary = {
        out: values.out,
        pbf: report.pbf,
        graph: { nodes: c.nodes, edges: c.edges, ways: c.ways },
        places: c.places,
        hazards: c.hazards,
        routes: c.routes,
        dem: region.dem ? { cols: region.dem.cols, rows: region.dem.rows } : null,
        folderBytes: Object.values(files).reduce((a, b) => a + b, 0),
        files,
        stages: report.stages,
        seconds: Number(secs),
        peakRssMB: report.peakRssMB,
      };
      console.log(JSON.stringify(summary));
      return 0;
    }
    console.log(
      `region written to ${values.out}: ${c.nodes} nodes, ${c.edges} edges, ${c.ways} ways, ` +
        `${c.places} places, ${c.hazards} hazard ways, ${c.routes} hiking routes, ` +
        `DEM ${region.dem ? `${region.dem.cols}x${region.dem.rows}` : 'none'} (${secs} s)`,
    );
    return 0;
  } catch (e) {
    // Bad input is a RegionInputError; anything else (a full disk, a bug) is also reported on one
    // line, with the stack only when CAIRN_DEBUG is set.
    console.error(`error: ${(e as Error).message}`);
    if (!(e instanceof RegionInputError || e instanceof ImportResourceError) && process.env.CAIRN_DEBUG) console.error(e);
    return 1;
  }
}

process.exitCode = await main();
