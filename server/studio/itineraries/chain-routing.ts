// Lines for segments from the worker pool: smart segments routed on the network (snapLine, which joins
// the exact ends to the network with straight connectors), freehand lines measured as drawn (measureLines:
// speeds from the network, elevation from the region DEM or the line's own), a line split at the point
// nearest a requested one (splitLine). Nothing here measures on the main thread. Task failures become API
// errors (server/pool/task-error.ts) at the request field that caused them.

import type { Activity } from '../../../data/model/itinerary.js';
import type { WorkerPool } from '../../pool/pool.js';
import type { Activity as RoutingActivity } from '../../../contracts/activity.js';
import type { LineMeasures, MeasuredFreehand } from '../../../contracts/line-tasks.js';
import type { MeasuredLine } from '../../../contracts/routing.js';
import type { TaskFailure } from '../../../contracts/task-failure.js';
import { taskError, taskInputPath } from '../../pool/task-error.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Coord, type MeasuredGeometry, toCoord } from './chain.js';
import type { CancelSignal } from '../../../lib/cancel-signal.js';

export type FieldPath = (string | number)[];

/**
 * A task failure as the API error at a request field: an end of the line that is off the network is blamed
 * on the field that gave it (`startPath` for the start, when the caller named one); a line whose ends are
 * fine but that no route connects is blamed on `path`.
 */
export function failureToError(f: TaskFailure, path: FieldPath, startPath?: FieldPath): ApiError {
  // The worker names the point it could not place: ['coordinates', i] of the line it was given.
  const offNetworkIndex = f.kind === 'off_network' ? taskInputPath(f)[1] : undefined;
  let at = path;
  let messageKey = 'VALIDATION_FAILED.unroutable';
  if (offNetworkIndex === 0) {
    if (startPath) [at, messageKey] = [startPath, 'VALIDATION_FAILED.start_off_network'];
    else messageKey = 'VALIDATION_FAILED.chain_end_off_network';
  } else if (offNetworkIndex !== undefined) {
    messageKey = 'VALIDATION_FAILED.off_network';
  }
  return taskError(f, messageKey).withPaths(() => at);
}

/** A measured line as the chain keeps it; a routed line also brings the restrictions it crosses (toll, access). */
function fromMeasured(m: MeasuredLine | MeasuredFreehand): MeasuredGeometry {
  const hazards =
    'advisories' in m
      ? m.advisories
          .filter((a) => a.isRestriction && (a.kind === 'TOLLWAY' || a.kind === 'RESTRICTED_ACCESS'))
          .map((a) => ({
            kind: a.kind as 'TOLLWAY' | 'RESTRICTED_ACCESS',
            from: Math.round(a.fromDistance * 10) / 10,
            to: Math.round(a.toDistance * 10) / 10,
          }))
      : [];
  return { geometry: toCoords(m.coordinates), distance: m.distance, ascent: m.ascent, descent: m.descent, duration: m.duration, hazards };
}

/** Flat lon,lat,ele (degrees, metres) as chain coordinates. */
function toCoords(flat: readonly number[]): Coord[] {
  const coords: Coord[] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) coords.push(toCoord([flat[i]!, flat[i + 1]!, flat[i + 2]!]));
  return coords;
}

/** Points as flat lon,lat,ele, the workers' line format (NaN where a point has no elevation). */
function flatLine(points: readonly (readonly number[])[]): number[] {
  return points.flatMap((p) => toCoord(p));
}

const lonLat = (c: readonly number[]): [number, number] => [c[0]!, c[1]!];

export interface RouteContext {
  deps: StudioDeps;
  activity: Activity;
  signal?: CancelSignal;
}

function poolOf(ctx: RouteContext): WorkerPool {
  if (!ctx.deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
  return ctx.deps.pool;
}

/**
 * A smart line through `points` (the first and last kept exactly; two points route the best way between
 * them, more points snap a drawn line). `path` names the request field blamed when it cannot be routed.
 */
export async function routeSmart(
  ctx: RouteContext,
  points: readonly (readonly number[])[],
  path: FieldPath,
  startPath?: FieldPath,
): Promise<MeasuredGeometry> {
  const input = { activity: ctx.activity as RoutingActivity, coordinates: points.map(lonLat) };
  const result = await poolOf(ctx).runTask('snapLine', input, { signal: ctx.signal });
  if (!result.ok) throw failureToError(result, path, startPath);
  const line = fromMeasured(result.route);
  return exactEnds(line, points[0]!, points[points.length - 1]!);
}

/** A freehand line kept as drawn and measured (elevation from the region DEM where it has one). */
export async function measureFreehand(
  ctx: RouteContext,
  points: readonly (readonly number[])[],
  path: FieldPath,
): Promise<MeasuredGeometry> {
  // A line that stays on one point has no length to measure.
  if (points.length < 2) {
    return { geometry: [toCoord(points[0]!), toCoord(points[0]!)], distance: 0, ascent: 0, descent: 0, duration: 0, hazards: [] };
  }
  const input = { activity: ctx.activity as RoutingActivity, lines: [flatLine(points)], elevation: 'dem' as const };
  const result = await poolOf(ctx).runTask('measureLines', input, { signal: ctx.signal });
  if (!result.ok) throw failureToError(result, path);
  return exactEnds(fromMeasured(result.lines[0]!), points[0]!, points[points.length - 1]!);
}

/**
 * Imported lines (flat lon,lat,ele each, NaN = no elevation), kept as recorded and measured in one task: a
 * line's own elevations when every point has one, else the region DEM's. A failure's path is the line's
 * within `lines` (['lines', i, …]).
 */
export async function measureRecordedLines(ctx: RouteContext, lines: number[][]): Promise<MeasuredGeometry[]> {
  const input = { activity: ctx.activity as RoutingActivity, lines, elevation: 'recorded' as const };
  const result = await poolOf(ctx).runTask('measureLines', input, { signal: ctx.signal });
  if (!result.ok) throw taskError(result, 'VALIDATION_FAILED.unroutable');
  return result.lines.map((m, i) => exactEnds(fromMeasured(m), lines[i]!.slice(0, 2), lines[i]!.slice(-3)));
}

/** For each point, the index of the nearest candidate within `within` metres, or -1. */
export async function nearestPoints(
  ctx: RouteContext,
  points: readonly (readonly number[])[],
  candidates: readonly (readonly number[])[],
  within: number,
): Promise<number[]> {
  const input = { points: points.map(lonLat), candidates: candidates.map(lonLat), within };
  const result = await poolOf(ctx).runTask('nearestPoints', input, { signal: ctx.signal });
  if (!result.ok) throw taskError(result);
  return result.nearest;
}

export interface LineSplit {
  /** Where the parts meet: the line's point nearest the requested one (a vertex exactly when it is one). */
  at: Coord;
  head: Coord[];
  tail: Coord[];
  /** Each part's measures from its own vertices (to share the segment's measures between them). */
  headMeasures: LineMeasures;
  tailMeasures: LineMeasures;
}

/** Splits `line` at its point nearest `point`; `path` names the request field of the point. */
export async function splitLineAt(
  ctx: RouteContext,
  line: readonly Coord[],
  point: readonly number[],
  path: FieldPath,
): Promise<LineSplit> {
  const input = { coordinates: flatLine(line), point: lonLat(point) };
  const result = await poolOf(ctx).runTask('splitLine', input, { signal: ctx.signal });
  if (!result.ok) throw taskError(result).withPaths(() => path);
  const { at, head, tail, headMeasures, tailMeasures } = result;
  return { at: toCoord(at), head: toCoords(head), tail: toCoords(tail), headMeasures, tailMeasures };
}

/** Guarantees the line starts and ends at exactly the requested longitude and latitude. */
function exactEnds(line: MeasuredGeometry, first: readonly number[], last: readonly number[]): MeasuredGeometry {
  const g = line.geometry;
  if (g.length === 0) g.push(toCoord(first));
  if (g[0]![0] !== first[0] || g[0]![1] !== first[1]) g.unshift([first[0]!, first[1]!, g[0]![2]]);
  const end = g[g.length - 1]!;
  if (g.length === 1 || end[0] !== last[0] || end[1] !== last[1]) g.push([last[0]!, last[1]!, end[2]]);
  return line;
}
