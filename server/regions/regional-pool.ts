// The worker pool as the operations see it when several regions are served: a task that answers from a region goes to
// the region its coordinates lie in (region-choice.ts) and carries that region's reference; a search over places or
// ways goes to every region it may find something in and their answers are merged. The operations call it as they
// call the pool, so none of them knows how many regions there are. A task on its way holds its region: a region
// replaced meanwhile finishes it before it is dropped.
import type { PlaceResult, PlacesInput, PlacesOutput, WayResult, WaysInput, WaysOutput } from '../../contracts/region-lookup.js';
import type { OnRegion } from '../../contracts/region-ref.js';
import type { LonLat } from '../../contracts/routing.js';
import { failure, type TaskFailure } from '../../contracts/task-failure.js';
import type { TaskInput, TaskName, TaskOutput } from '../../contracts/task-map.js';
import { LOOKUP_LIMITS } from '../../contracts/region-lookup.js';
import type { RunOptions, WorkerPool } from '../pool/pool.js';
import { chooseRegion, regionsInBox, regionsNear } from './region-choice.js';
import type { RegionSet, ServedRegion } from './region-set.js';

/** The points a task is placed by, and the input path of the i-th (where a refusal points). */
type Placement = { points: LonLat[]; pathOf: (i: number) => (string | number)[] };

const along = (field: string, points: LonLat[]): Placement => ({ points, pathOf: (i) => ['input', field, i] });
const at = (field: string, point: LonLat): Placement => ({ points: [point], pathOf: () => ['input', field] });

/** Where each task that answers from one region is placed; inputs are still unchecked (the worker checks them). */
const PLACEMENTS: { [N in TaskName]?: (input: TaskInput<N>) => Placement } = {
  directions: (i) => along('waypoints', i.waypoints),
  snapLine: (i) => along('coordinates', i.coordinates),
  analyze: (i) => along('coordinates', i.coordinates),
  snap: (i) => at('point', i.point),
  reachable: (i) => at('center', i.center),
  isochrone: (i) => at('center', i.center),
  suggestions: (i) => ({ points: i.end ? [i.start, i.end] : [i.start], pathOf: (k) => ['input', k === 0 ? 'start' : 'end'] }),
  // Each line is placed by its first point: a line's points lie together.
  measureLines: (i) => ({
    points: (Array.isArray(i.lines) ? i.lines : []).map((line) => [line?.[0], line?.[1]] as LonLat),
    pathOf: (k) => ['input', 'lines', k],
  }),
};

/** Only points of finite numbers place a task (a bad one is the worker's to refuse, at its own path). */
function usable(points: readonly LonLat[]): LonLat[] {
  return points.map((p) => (Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1]) ? p : [Number.NaN, Number.NaN]));
}

const isFailure = (out: unknown): out is TaskFailure =>
  typeof out === 'object' && out !== null && (out as { ok?: unknown }).ok === false && 'kind' in out;

export function regionalPool(pool: WorkerPool, regions: RegionSet): WorkerPool {
  /** Runs a task on `region`, holding it until the answer is in. */
  const runOn = async <N extends TaskName>(
    region: ServedRegion,
    name: N,
    input: TaskInput<N>,
    opts?: RunOptions,
  ): Promise<TaskOutput<N>> => {
    const release = regions.acquire(region);
    try {
      const { ref } = region;
      if (!ref) return await pool.runTask(name, input, opts);
      // By key (every worker was handed the region); whole to a worker that does not hold it (one started since).
      const out = await pool.runTask(name, { ...(input as object), region: { key: ref.key } } as TaskInput<N>, opts);
      if (isFailure(out) && out.kind === 'region_not_held')
        return await pool.runTask(name, { ...(input as object), region: ref } as TaskInput<N>, opts);
      return out;
    } finally {
      release();
    }
  };

  const places = async (input: PlacesInput, opts?: RunOptions): Promise<PlacesOutput | TaskFailure> => {
    const served = regions.regions;
    const near = input.near;
    const targets =
      Array.isArray(near) && Number.isFinite(near[0]) && Number.isFinite(near[1])
        ? regionsNear(served, near, Math.min(Number(input.radius) || LOOKUP_LIMITS.radius.default, LOOKUP_LIMITS.radius.max))
        : served;
    const answers = await Promise.all((targets.length ? targets : served.slice(0, 1)).map((r) => runOn(r, 'places', input, opts)));
    const bad = answers.find((a): a is TaskFailure => !a.ok);
    if (bad) return bad;
    if (answers.length === 1) return answers[0]!;
    // Merged as each region ranked its own: by match, then distance; a place two overlapping regions hold, once.
    const all: { place: PlaceResult; match: number; order: number }[] = [];
    for (const [r, answer] of answers.entries()) {
      const out = answer as PlacesOutput;
      for (const [i, place] of out.places.entries()) all.push({ place, match: out.matches[i]!, order: r });
    }
    all.sort((a, b) => a.match - b.match || (a.place.distance ?? 0) - (b.place.distance ?? 0) || a.order - b.order);
    const seen = new Set<string>();
    const merged = all.filter(({ place }) => !seen.has(place.id) && seen.add(place.id));
    const limit = input.limit ?? LOOKUP_LIMITS.places.default;
    const best = merged.slice(0, limit);
    return { ok: true, places: best.map((m) => m.place), matches: best.map((m) => m.match) };
  };

  const ways = async (input: WaysInput, opts?: RunOptions): Promise<WaysOutput | TaskFailure> => {
    const served = regions.regions;
    const box = Array.isArray(input.bbox) && input.bbox.length === 4 ? input.bbox : undefined;
    const targets = box ? regionsInBox(served, box) : [];
    const answers = await Promise.all((targets.length ? targets : served.slice(0, 1)).map((r) => runOn(r, 'ways', input, opts)));
    const bad = answers.find((a): a is TaskFailure => !a.ok);
    if (bad) return bad;
    if (answers.length === 1) return answers[0]!;
    // By OpenStreetMap id, as one region answers; a border way two regions hold, once.
    const byId = new Map<number, WayResult>();
    let truncated = false;
    for (const answer of answers as WaysOutput[]) {
      truncated ||= answer.truncated;
      for (const way of answer.ways) if (!byId.has(way.id)) byId.set(way.id, way);
    }
    const all = [...byId.values()].sort((a, b) => a.id - b.id);
    return { ok: true, ways: all.slice(0, LOOKUP_LIMITS.ways), truncated: truncated || all.length > LOOKUP_LIMITS.ways };
  };

  const place = async (input: TaskInput<'place'>, opts?: RunOptions): Promise<TaskOutput<'place'>> => {
    let last: TaskOutput<'place'> | undefined;
    for (const region of regions.regions) {
      last = await runOn(region, 'place', input, opts);
      if (!last.ok || last.place) return last;
    }
    return last ?? { ok: true, place: null };
  };

  return {
    get piscina() {
      return pool.piscina;
    },
    started: (timeoutMs) => pool.started(timeoutMs),
    everyWorker: (name, input, timeoutMs) => pool.everyWorker(name, input, timeoutMs),
    close: () => pool.close(),
    async runTask<N extends TaskName>(name: N, input: TaskInput<N>, opts?: RunOptions): Promise<TaskOutput<N>> {
      if ((input as OnRegion | undefined)?.region) return pool.runTask(name, input, opts); // placed by the caller
      if (name === 'places') return places(input as PlacesInput, opts) as Promise<TaskOutput<N>>;
      if (name === 'ways') return ways(input as WaysInput, opts) as Promise<TaskOutput<N>>;
      if (name === 'place') return place(input as TaskInput<'place'>, opts) as Promise<TaskOutput<N>>;
      const placement = (PLACEMENTS[name] as ((input: TaskInput<N>) => Placement) | undefined)?.(input);
      if (!placement) return pool.runTask(name, input, opts);
      const served = regions.regions;
      if (served.length === 0) return failure('queue_full', 'no region is loaded') as TaskOutput<N>;
      const choice = chooseRegion(served, usable(placement.points));
      if (!choice.ok) {
        return failure(
          'other_region',
          `this point is in region ${choice.there.name}, the points before it in ${choice.here.name}`,
          placement.pathOf(choice.index),
          {
            here: choice.here.name,
            there: choice.there.name,
          },
        ) as TaskOutput<N>;
      }
      return runOn(choice.region, name, input, opts);
    },
  };
}
