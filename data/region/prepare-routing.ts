// The import's last stage: routing prepared for every activity (workers/routing-prep.ts) and encoded as the region
// folder's routing.bin, so no worker computes any of it at load or on a request. The core graph and each
// activity's weights are quick and made here; the contraction hierarchies (the heavy part, one per activity and
// distinct avoid mask) are spread over worker threads, one per core. Each step is a stage of the import's progress.
import { copyFileSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ACTIVITIES } from '../../contracts/activity.js';
import type { Hierarchy } from '../../geo-wasm/src/routing-ch.js';
import { coreSections, SectionWriter } from '../../geo-wasm/src/routing-file.js';
import { type CoreLinks, type CoreWeights, prepareCore, profileHierarchy } from '../../geo-wasm/src/routing-prepare.js';
import {
  activityMasks,
  type CorePlan,
  DEFAULT_CELL_DEG,
  hierarchyMasks,
  maskSetSections,
  PROFILES_SECTION,
  planActivity,
  ROUTING_FILE,
  weightSections,
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
  /**
   * Where routing.bin is written as it is made, before the folder it goes into exists (default: a new folder under
   * the system's temp folder). On the region folder's file system, placing it is a rename.
   */
  workFile?: string;
}

/** Core edges under which the hierarchies are built in this thread: starting threads would cost more than they save. */
const THREADS_FROM_CORE_EDGES = 20_000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Prepares routing for `graph` and returns the folder files to add: `routing.bin`, placed by writeRegion. The file
 * is written as it is made (the core graph, each activity's weights, then each activity's hierarchies once they are
 * built, in activity order), and each part is let go of once written: at country scale the file outweighs the graph.
 */
export async function prepareRoutingFiles(graph: RegionGraph, options: PrepareRoutingOptions = {}): Promise<Map<string, ExtraFile>> {
  const progress = options.progress ?? new ImportProgress({ enabled: false });
  const t0 = performance.now();
  const workDir = options.workFile === undefined ? mkdtempSync(join(tmpdir(), 'cairn-routing-')) : undefined;
  const file = options.workFile ?? join(workDir!, ROUTING_FILE);
  const writer = new SectionWriter(file);
  let shortcuts = 0;
  let threads = 1;
  let built = 0;
  const t1 = performance.now();
  try {
    const { links, plans } = writeCoreAndWeights(graph, writer, progress);
    writer.add(PROFILES_SECTION, Uint32Array.from(plans.map((plan) => plan.profileId)));
    const tasks = plans.flatMap((plan) => hierarchyMasks(plan).map((mask): HierarchyInput => ({ profile: plan.profile, mask })));
    const wanted = options.threads ?? (links.target.length < THREADS_FROM_CORE_EDGES ? 1 : availableParallelism());
    threads = Math.max(1, Math.min(wanted, tasks.length));
    progress.stage('hierarchies', tasks.length);
    const pool = threads > 1 ? buildInThreads(links, tasks, threads, () => progress.advance(1)) : undefined;
    try {
      for (const plan of plans) {
        const hierarchies = new Map<number, Hierarchy>();
        for (const mask of hierarchyMasks(plan)) {
          const task = built++;
          let h: Hierarchy;
          if (pool) h = await pool.hierarchy(task);
          else {
            h = profileHierarchy(links, plan.profile, mask);
            progress.advance(1);
          }
          shortcuts += h.shortcuts;
          hierarchies.set(mask, h);
        }
        const masks = activityMasks(links, plan, hierarchies);
        for (const [name, a] of maskSetSections({ profileId: plan.profileId, masks }, new Map())) writer.add(name, a);
      }
    } finally {
      await pool?.close();
    }
  } catch (e) {
    writer.abandon();
    rmSync(workDir ?? file, { recursive: true, force: true });
    throw e;
  }
  progress.note(
    `${built} contraction hierarchies (${ACTIVITIES.length} activities × their distinct avoid masks), ${shortcuts} shortcuts, ` +
      `${threads} thread${threads > 1 ? 's' : ''}, ${seconds(performance.now() - t1)}`,
  );
  progress.stage('routing file');
  const size = writer.finish();
  progress.note(`${ROUTING_FILE}: ${(size / 1e6).toFixed(1)} MB; routing prepared in ${seconds(performance.now() - t0)}`);
  return new Map([
    [
      ROUTING_FILE,
      (path: string) => {
        const size = placeFile(file, path);
        if (workDir) rmSync(workDir, { recursive: true, force: true });
        return size;
      },
    ],
  ]);
}

/**
 * The stages `routing core` and `routing weights`: the core graph and each activity's weights, each written once
 * made. Returns what the hierarchies still read: the core graph's links and each activity's core-graph weights (the
 * arrays per original edge, a few hundred MB at country scale, are no longer held).
 */
function writeCoreAndWeights(graph: RegionGraph, writer: SectionWriter, progress: ImportProgress): { links: CoreLinks; plans: CorePlan[] } {
  progress.stage('routing core');
  const core = prepareCore(graph, DEFAULT_CELL_DEG);
  progress.note(`routing core graph: ${graph.towerCount} nodes, ${core.target.length} edges`);
  for (const [name, a] of coreSections(core, graph.nodeCount, graph.edgeCount)) writer.add(name, a);
  progress.stage('routing weights', ACTIVITIES.length);
  const plans = ACTIVITIES.map((activity): CorePlan => {
    const plan = planActivity(graph, core, activity);
    for (const [name, a] of weightSections(plan, graph.edgeCount, new Map())) writer.add(name, a);
    progress.advance(1);
    const { coreCost, coreHazard, component } = plan.profile;
    return { ...plan, profile: { coreCost, coreHazard, component } };
  });
  return { links: { first: core.first, target: core.target, twin: core.twin }, plans };
}

/** Moves `from` to `to` (a copy when they are on different file systems); returns its size. */
function placeFile(from: string, to: string): number {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
  return statSync(to).size;
}

/** A hierarchy to build: an activity's core weights under an avoid mask. */
interface HierarchyInput {
  profile: CoreWeights;
  mask: number;
}

/** Starts a thread on the thread module: compiled .js next to this file, or the .ts source under tsx (tests). */
function startThread(core: CoreLinks): Worker {
  const workerData = { first: core.first, target: core.target };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./prepare-routing-thread.js', import.meta.url), { workerData });
  // Under tsx (tests): a script that registers tsx's hooks in the thread, then imports the source.
  const tsx = JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'));
  const source = JSON.stringify(new URL('./prepare-routing-thread.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${source}); })`, { eval: true, workerData });
}

/**
 * Builds the hierarchies of `tasks` on `threads` worker threads, handed out in task order; `hierarchy(i)` resolves
 * with task i's once it is built (and forgets it: each is asked for once). A failed thread fails every hierarchy
 * not yet built.
 */
function buildInThreads(
  core: CoreLinks,
  tasks: HierarchyInput[],
  threads: number,
  done: () => void,
): { hierarchy: (i: number) => Promise<Hierarchy>; close: () => Promise<void> } {
  const settle: { resolve: (h: Hierarchy) => void; reject: (e: unknown) => void }[] = [];
  let results: (Promise<Hierarchy> | undefined)[] = tasks.map(
    (_, i) =>
      new Promise<Hierarchy>((resolve, reject) => {
        settle[i] = { resolve, reject };
      }),
  );
  // A hierarchy that fails after the caller stopped asking must not be an unhandled rejection.
  for (const p of results) p?.catch(() => undefined);
  let next = 0;
  const workers = Array.from({ length: threads }, () => startThread(core));
  const failAll = (e: unknown): void => {
    for (const s of settle) s.reject(e);
  };
  for (const worker of workers) {
    const give = (): void => {
      if (next >= tasks.length) return;
      const id = next++;
      const { profile, mask } = tasks[id]!;
      const task: HierarchyTask = { id, cost: profile.coreCost, hazard: profile.coreHazard, mask };
      worker.postMessage(task);
    };
    worker.on('message', (m: { id: number; hierarchy: Hierarchy }) => {
      settle[m.id]!.resolve(m.hierarchy);
      done();
      give();
    });
    worker.on('error', failAll);
    worker.on('exit', (code) =>
      next < tasks.length || code !== 0 ? failAll(new Error(`routing preparation thread exited (${code})`)) : undefined,
    );
    give();
  }
  return {
    hierarchy(i: number): Promise<Hierarchy> {
      const p = results[i];
      if (!p) throw new TypeError(`routing: hierarchy ${i} was asked for twice`);
      results[i] = undefined;
      return p;
    },
    async close(): Promise<void> {
      results = [];
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
