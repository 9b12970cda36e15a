// Piscina task module for line analysis: drawn lines matched to the network (advisories, difficulty,
// duration), freehand lines measured as drawn, a line split at the point nearest another, nearest points.
// The geometry runs through the WASM kernels (line-geometry.ts, and the engine's analysis).
import { failure, type TaskFailure } from '../contracts/task-failure.js';
import type {
  AnalyzeInput,
  AnalyzeOutput,
  MeasuredFreehand,
  MeasureLinesInput,
  MeasureLinesOutput,
  NearestPointsInput,
  NearestPointsOutput,
  SplitLineInput,
  SplitLineOutput,
} from '../contracts/line-tasks.js';
import type { LonLat } from '../contracts/routing.js';
import { measureOwn, nearestWithin, splitAt } from './line-geometry.js';
import { routingFor } from './region-source.js';

export function analyze(input: AnalyzeInput): AnalyzeOutput | TaskFailure {
  return routingFor(input.region).engine.analyze(input);
}

function hasEveryElevation(line: readonly number[]): boolean {
  for (let k = 2; k < line.length; k += 3) if (!Number.isFinite(line[k])) return false;
  return true;
}

const isFlatLine = (line: unknown): line is number[] => Array.isArray(line) && line.length >= 6 && line.length % 3 === 0;

export function measureLines(input: MeasureLinesInput): MeasureLinesOutput | TaskFailure {
  if (!Array.isArray(input.lines)) return failure('bad_input', 'lines must be an array', ['input', 'lines']);
  const engine = routingFor(input.region).engine;
  const measured: MeasuredFreehand[] = [];
  for (const [i, line] of input.lines.entries()) {
    if (!isFlatLine(line)) return failure('bad_input', 'a line needs at least 2 points of lon, lat, ele', ['input', 'lines', i]);
    const coordinates: LonLat[] = [];
    for (let k = 0; k < line.length; k += 3) coordinates.push([line[k] as number, line[k + 1] as number]);
    const out = engine.analyze({ activity: input.activity, coordinates });
    if (!out.ok) return out.path?.[1] === 'activity' ? out : { ...out, path: ['input', 'lines', i] };
    const { coordinates: analysed, distance, duration, ascent, descent } = out.analysis;
    if (input.elevation === 'recorded' && hasEveryElevation(line)) {
      // The line's own elevations, measured on themselves; the duration stays the analysis's (DEM slopes).
      measured.push({ coordinates: line, duration, ...measureOwn(Float64Array.from(line)) });
    } else {
      measured.push({ coordinates: analysed, distance, duration, ascent, descent });
    }
  }
  return { ok: true, lines: measured };
}

export function splitLine(input: SplitLineInput): SplitLineOutput | TaskFailure {
  if (!isFlatLine(input.coordinates))
    return failure('bad_input', 'a line needs at least 2 points of lon, lat, ele', ['input', 'coordinates']);
  const { at, head, tail } = splitAt(Float64Array.from(input.coordinates), input.point[0], input.point[1]);
  return { ok: true, at, head, tail, headMeasures: measureOwn(Float64Array.from(head)), tailMeasures: measureOwn(Float64Array.from(tail)) };
}

export function nearestPoints(input: NearestPointsInput): NearestPointsOutput | TaskFailure {
  for (const key of ['points', 'candidates'] as const) {
    const list = input[key];
    if (!Array.isArray(list)) return failure('bad_input', `${key} must be an array`, ['input', key]);
  }
  if (!(input.within >= 0)) return failure('bad_input', 'within must be a distance in metres', ['input', 'within']);
  return { ok: true, nearest: nearestWithin(input.points, input.candidates, input.within) };
}
