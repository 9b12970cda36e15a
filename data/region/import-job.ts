// The import command's work, run on the worker thread import-cli.ts starts (a one-thread Piscina pool):
// imports, sending every line it would print, and the stage it is in, to the main thread through `port`;
// its last message is the exit code.
import type { MessagePort } from 'node:worker_threads';
import { ImportProgress } from './import-progress.js';
import { type ImportReport, importRegion } from './import-region.js';
import { ImportResourceError, RegionInputError } from './region-error.js';

export interface ImportJob {
  osm: string;
  dem: string[];
  out: string;
  threads: number | undefined;
  /** --bbox: the extract cut to [west, south, east, north]. */
  bbox: [number, number, number, number] | undefined;
  json: boolean;
  progress: boolean;
  tty: boolean;
  lineEveryMs: number | undefined;
}

export type WorkerMessage = { stage: string } | { stdout: string } | { stderr: string } | { exit: number };

/** The import itself, on the worker thread; output goes to the main thread as messages. */
export default async function runImport({ job, port }: { job: ImportJob; port: MessagePort }): Promise<number> {
  const post = (m: WorkerMessage): void => port.postMessage(m);
  const log = (text: string): void => post({ stdout: `${text}\n` });
  const warn = (text: string): void => post({ stderr: `${text}\n` });
  const started = performance.now();
  const progress = new ImportProgress({
    enabled: job.progress,
    tty: job.tty,
    lineEveryMs: job.lineEveryMs,
    write: (text) => post({ stderr: text }),
    onStage: (stage) => post({ stage }),
  });
  const report: Partial<ImportReport> = {};
  let code: number;
  try {
    const region = await importRegion({
      osm: job.osm,
      dem: job.dem,
      out: job.out,
      threads: job.threads,
      ...(job.bbox ? { bbox: job.bbox } : {}),
      progress,
      report,
    });
    const c = region.meta.counts;
    if (job.dem.length > 0) {
      let missing = 0;
      for (const v of region.graph.nodeEle) if (Number.isNaN(v)) missing++;
      if (missing > 0) warn(`warning: ${missing} of ${c.nodes} nodes lie outside the DEM tiles (no elevation)`);
    }
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    if (job.json) {
      const files = report.files ?? {};
      const summary = {
        out: job.out,
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
      log(JSON.stringify(summary));
    } else {
      log(
        `region written to ${job.out}: ${c.nodes} nodes, ${c.edges} edges, ${c.ways} ways, ` +
          `${c.places} places, ${c.hazards} hazard ways, ${c.routes} hiking routes, ` +
          `DEM ${region.dem ? `${region.dem.cols}x${region.dem.rows}` : 'none'} (${secs} s)`,
      );
    }
    code = 0;
  } catch (e) {
    // Bad input is a RegionInputError, a lack of memory an ImportResourceError; anything else (a full
    // disk, a bug) is also reported on one line, with the stack only when CAIRN_DEBUG is set.
    warn(`error: ${(e as Error).message}`);
    if (!(e instanceof RegionInputError || e instanceof ImportResourceError) && process.env.CAIRN_DEBUG) warn(String((e as Error).stack));
    code = 1;
  }
  post({ exit: code });
  return code;
}
