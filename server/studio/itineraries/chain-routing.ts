// Lines for segments from the worker pool: smart segments routed on the network (snapLine, which joins
// the exact ends to the network with straight connectors), freehand lines measured as drawn (analyze,
// elevation from the region DEM). Task failures become API errors at the request field that caused them.

import type { Activity } from '../../../data/stores/itinerary-store.js';
import type { Activity as RoutingActivity, MeasuredLine, TaskFailure } from '../../../workers/protocol.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';
import { type Coord, type MeasuredGeometry, toCoord } from './chain.js';
import { measuredLocally } from './chain-geometry.js';

export type FieldPath = (string | number)[];

/**
 * Maps a task failure onto the spec's codes: input problems are a VALIDATION_FAILED entry. An end of the line
 * that is off the network is blamed on the field that gave it (`startPath` for the start, when the caller
 * named one); a line whose ends are fine but that no route connects is blamed on `path`.
 */
export function failureToError(f: TaskFailure, path: FieldPath, startPath?: FieldPath): ApiError {
  switch (f.code) {
    case 'VALIDATION_FAILED':
    case 'NOT_FOUND': {
      const offNetworkIndex = f.reason.includes('near') ? f.path?.[2] : undefined;
      if (offNetworkIndex === 0) {
        return ApiError.validation([
          startPath
            ? { path: startPath, messageKey: 'VALIDATION_FAILED.start_off_network' }
            : { path, messageKey: 'VALIDATION_FAILED.chain_end_off_network' },
        ]);
      }
      if (offNetworkIndex !== undefined) return ApiError.validation([{ path, messageKey: 'VALIDATION_FAILED.off_network' }]);
      return ApiError.validation([{ path, messageKey: 'VALIDATION_FAILED.unroutable' }]);
    }
    case 'SERVICE_UNAVAILABLE':
      return new ApiError('SERVICE_UNAVAILABLE');
    case 'GATEWAY_TIMEOUT':
      return new ApiError('GATEWAY_TIMEOUT');
    default:
      return new ApiError('INTERNAL_ERROR');
  }
}

function fromMeasured(m: MeasuredLine): MeasuredGeometry {
  const geometry: Coord[] = [];
  for (let i = 0; i + 2 < m.coordinates.length; i += 3) {
    geometry.push(toCoord([m.coordinates[i]!, m.coordinates[i + 1]!, m.coordinates[i + 2]!]));
  }
  return { geometry, distance: m.distance, ascent: m.ascent, descent: m.descent, duration: m.duration };
}

const lonLat = (c: readonly number[]): [number, number] => [c[0]!, c[1]!];

export interface RouteContext {
  deps: StudioDeps;
  activity: Activity;
  signal?: AbortSignal;
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
  const pool = ctx.deps.pool;
  if (!pool) throw new ApiError('SERVICE_UNAVAILABLE');
  const result = await pool.runTask('snapLine', { activity: ctx.activity as RoutingActivity, coordinates: points.map(lonLat) }, { signal: ctx.signal });
  if (!result.ok) throw failureToError(result, path, startPath);
  const line = fromMeasured(result.route);
  return exactEnds(line, points[0]!, points[points.length - 1]!);
}

/** A freehand line kept as drawn and measured (elevation from the region DEM where it has one). */
export async function measureFreehand(ctx: RouteContext, points: readonly (readonly number[])[], path: FieldPath): Promise<MeasuredGeometry> {
  const pool = ctx.deps.pool;
  if (points.length < 2) return measuredLocally([toCoord(points[0]!), toCoord(points[0]!)]);
  if (!pool) return measuredLocally(points.map(toCoord));
  const result = await pool.runTask('analyze', { activity: ctx.activity as RoutingActivity, coordinates: points.map(lonLat) }, { signal: ctx.signal });
  if (!result.ok) throw failureToError(result, path);
  return exactEnds(fromMeasured(result.analysis), points[0]!, points[points.length - 1]!);
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
