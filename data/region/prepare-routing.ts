// The import's last stage: routing prepared for every activity (workers/routing-prep.ts) and encoded as the region
// folder's routing.bin, so no worker computes any of it at load or on a request. The core graph and each
// activity's weights are quick and made here; the contraction hierarchies (the heavy part, one per activity and
// distinct avoid mask) are spread over worker threads, one per core. Each step is a stage of the import's progress.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ACTIVITIES, type Activity } from '../../contracts/activity.js';
import type { Hierarchy } from '../../geo-wasm/src/routing-ch.js';
import { encodedSize, writeSections } from '../../geo-wasm/src/routing-file.js';
import { type PreparedCore, prepareCore, profileHierarchy } from '../../geo-wasm/src/routing-prepare.js';
import {
  type ActivityPlan,
  DEFAULT_CELL_DEG,
  preparedSections,
  finishActivity,
  hierarchyMasks,
  planActivity,
  type PreparedRouting,
  ROUTING_FILE,
} from '../../workers/routing-prep.js';
import { ImportProgress } from './import-progress.js';
import type { HierarchyTask } from './prepare-routing-thread.js';
import type { ExtraFile } from './region-folder.js';
import type { RegionGraph } from './region-graph.js';

export interface PrepareRoutingOptions {
  /** Worker threads for the hierarchies (default: one per core; 1 = all in this thread). */
  threads?: number;
  /** The import's progress: one stage per step (their times go into the import's report), and a note per step. */
  progress?: ImportProgress;
}

/** Core edges under which the hierarchies are built in this thread: starting threads would cost more than they save. */
const THREADS_FROM_CORE_EDGES = 20_000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Prepares routing for `graph` and returns the folder files to add: `routing.bin`, written by writeRegion. */
export async function prepareRoutingFiles(graph: RegionGraph, options: PrepareRoutingOptions = {}): Promise<Map<string, ExtraFile>> {
  const progress = options.progress ?? new ImportProgress({ enabled: false });
  const t0 = performance.now();
  progress.stage('routing core');
  const core = prepareCore(graph, DEFAULT_CELL_DEG);
  progress.note(`routing core graph: ${core.coreNode.length} nodes, ${core.target.length} edges`);
  progress.stage('routing weights', ACTIVITIES.length);
  const plans = ACTIVITIES.map((a) => {
    const plan = planActivity(graph, core, a);
    progress.advance(1);
    return plan;
  });
  const tasks = plans.flatMap((plan) => hierarchyMasks(plan).map((mask) => ({ plan, mask })));
  const wanted = options.threads ?? (core.target.length < THREADS_FROM_CORE_EDGES ? 1 : availableParallelism());
  const threads = Math.max(1, Math.min(wanted, tasks.length));
  progress.stage('hierarchies', tasks.length);
  const t1 = performance.now();
  const built =
    threads > 1
      ? await buildInThreads(core, tasks, threads, () => progress.advance(1))
      : tasks.map(({ plan, mask }) => {
          const h = profileHierarchy(core, plan.profile, mask);
          progress.advance(1);
          return h;
        });
  let shortcuts = 0;
  for (const h of built) shortcuts += h.shortcuts;
  progress.note(
    `${built.length} contraction hierarchies (${plans.length} activities × their distinct avoid masks), ${shortcuts} shortcuts, ` +
      `${threads} thread${threads > 1 ? 's' : ''}, ${seconds(performance.now() - t1)}`,
  );
  progress.stage('routing file');
  const byActivity = new Map<Activity, Map<number, Hierarchy>>();
  tasks.forEach(({ plan, mask }, i) => {
    const m = byActivity.get(plan.activity) ?? new Map<number, Hierarchy>();
    m.set(mask, built[i]!);
    byActivity.set(plan.activity, m);
  });
  const prepared: PreparedRouting = {
    core,
    activities: new Map(plans.map((plan) => [plan.activity, finishActivity(core, plan, byActivity.get(plan.activity)!)])),
  };
  const sections = preparedSections(graph, prepared);
  const size = encodedSize(sections);
  progress.note(`${ROUTING_FILE}: ${(size / 1e6).toFixed(1)} MB; routing prepared in ${seconds(performance.now() - t0)}`);
  // Written with the folder, section by section: the file is never whole in memory beside the arrays it holds.
  return new Map([[ROUTING_FILE, (path: string) => writeSections(path, sections)]]);
}

/** Starts a thread on the thread module: compiled .js next to this file, or the .ts source under tsx (tests). */
function startThread(core: PreparedCore): Worker {
  const workerData = { first: core.first, target: core.target };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./prepare-routing-thread.js', import.meta.url), { workerData });
  // Under tsx (tests): a script that registers tsx's hooks in the thread, then imports the source.
  const tsx = JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'));
  const source = JSON.stringify(new URL('./prepare-routing-thread.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${source}); })`, { eval: true, workerData });
}

/** Builds the hierarchies of `tasks` on `threads` worker threads, in task order. */
async function buildInThreads(
  core: PreparedCore,
  tasks: { plan: ActivityPlan; mask: number }[],
  threads: number,
  done: () => void,
): Promise<Hierarchy[]> {
  const out = new Array<Hierarchy>(tasks.length);
  let next = 0;
  const workers = Array.from({ length: threads }, () => startThread(core));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const give = (): void => {
              if (next >= tasks.length) {
                resolve();
                return;
              }
              const id = next++;
              const { plan, mask } = tasks[id]!;
              const task: HierarchyTask = { id, cost: plan.profile.coreCost, hazard: plan.profile.coreHazard, mask };
              worker.postMessage(task);
            };
            worker.on('message', (m: { id: number; hierarchy: Hierarchy }) => {
              out[m.id] = m.hierarchy;
              done();
              give();
            });
            worker.on('error', reject);
            worker.on('exit', (code) =>
              next < tasks.length || code !== 0 ? reject(new Error(`routing preparation thread exited (${code})`)) : undefined,
            );
            give();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}
