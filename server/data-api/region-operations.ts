// The Data API operations answered by the region on the worker pool (DESIGN §7), transport-free: route
// suggestions, isochrones and line analysis (the intelligence tier), places and ways. Each checks the caller's
// tier, hands its input to a pool task and turns a task failure into an error at the input's own path
// (server/pool/task-error.ts); the resolvers add ["input", …].

import { LOOKUP_LIMITS, type PlaceKind, type PlaceResult, type WayResult } from '../../contracts/region-lookup.js';
import { type EncodedSuggestion, type IsochronePolygon, type LonLat, SUGGESTION_LIMITS } from '../../contracts/routing.js';
import type { WorkerPool } from '../pool/pool.js';
import type { Activity } from '../../contracts/activity.js';
import type { AnalyzeOutput } from '../../contracts/line-tasks.js';
import type { TaskFailure } from '../../contracts/task-failure.js';
import { aboutInput, taskError, taskInputPath } from '../pool/task-error.js';
import { defineOperation } from '../core/operation.js';
import { requireIntelligence } from '../core/policy.js';
import { ApiError } from '../errors.js';
import { AnalyzeInput, IsochroneInput, oneSuggestionTarget, PlaceInput, PlacesInput, SuggestionsInput, WaysInput } from './data-inputs.js';
import { DATA_REACH } from './directions-operation.js';
import type { ServedRegions } from '../regions/region-set.js';
import type { RegionListing } from '../../data/region/region-catalog.js';

export interface SuggestionsRequest {
  activity: Activity;
  start: LonLat;
  end?: LonLat | null;
  /** Target distance (m) … */
  distance?: number | null;
  /** … or duration (s): exactly one. */
  duration?: number | null;
  limit?: number | null;
}

export interface IsochroneRequest {
  activity: Activity;
  center: LonLat;
  ranges: number[];
}
export interface IsochroneResult {
  /** The snapped start; null when it snapped nowhere (then every polygon is empty). */
  center: LonLat | null;
  isochrones: IsochronePolygon[];
}

export interface AnalyzeRequest {
  activity: Activity;
  geometry: { type: string; coordinates: number[][] };
}

export interface PlacesRequest {
  text?: string | null;
  near?: LonLat | null;
  radius?: number | null;
  kinds?: PlaceKind[] | null;
  limit?: number | null;
}

export interface WaysRequest {
  bbox: [number, number, number, number];
  activity?: Activity | null;
}

type Deps = { pool: WorkerPool | undefined; regions?: ServedRegions };

function poolOf(deps: Deps): WorkerPool {
  if (!deps.pool) throw new ApiError('SERVICE_UNAVAILABLE');
  return deps.pool;
}

/** The sentence for a failing input field: its message key and parameters. */
type Sentence = { messageKey: string; messageParams?: Record<string, string | number> };

const POSITION: Sentence = { messageKey: 'VALIDATION_FAILED.position' };

/**
 * A task's failure as an entry at the request's own field (`rename` maps the task's input names onto the
 * request's), with the sentence `sentences` gives for that field; failures not about the input keep their code.
 */
function failed(failure: TaskFailure, sentences: Record<string, Sentence>, rename: Record<string, string> = {}): ApiError {
  if (!aboutInput(failure)) return taskError(failure);
  const [head, ...rest] = taskInputPath(failure);
  const field = typeof head === 'string' ? head : '';
  const path = head === undefined ? [] : [rename[field] ?? head, ...rest];
  // Points in regions that share no network are told so, whatever the field.
  const sentence =
    failure.kind === 'other_region' ? { messageKey: 'VALIDATION_FAILED.other_region', messageParams: failure.params } : sentences[field];
  return ApiError.validation([{ path, ...(sentence ?? {}) }]);
}

/** Drops null (GraphQL's absent) so the task sees only what was given. */
function given<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as never;
}

export function regionOperations(deps: Deps) {
  return {
    suggestions: defineOperation({
      id: 'suggestions',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: SuggestionsInput,
      refine: oneSuggestionTarget,
      async run(caller, input: SuggestionsRequest, { signal }): Promise<EncodedSuggestion[]> {
        requireIntelligence(caller);
        const { distance, duration, ...rest } = given(input);
        const out = await poolOf(deps).runTask(
          'suggestions',
          {
            ...rest,
            ...(distance === undefined ? {} : { targetDistance: distance }),
            ...(duration === undefined ? {} : { targetDuration: duration }),
          },
          { signal },
        );
        if (out.ok) return out.suggestions;
        // No hazard-free idea could be made: the field fails (spec), as a NOT_FOUND entry.
        if (out.kind === 'not_found') throw ApiError.withMessage('NOT_FOUND', 'NOT_FOUND.no_suggestion');
        const target = { messageKey: 'VALIDATION_FAILED.suggestion_target' };
        throw failed(
          out,
          {
            start: POSITION,
            end: POSITION,
            targetDistance: target,
            targetDuration: target,
            limit: { messageKey: 'VALIDATION_FAILED.integer_between', messageParams: { min: 1, max: SUGGESTION_LIMITS.limit.max } },
          },
          { targetDistance: 'distance', targetDuration: 'duration' },
        );
      },
    }),

    isochrone: defineOperation({
      id: 'isochrone',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: IsochroneInput,
      async run(caller, input: IsochroneRequest, { signal }): Promise<IsochroneResult> {
        requireIntelligence(caller);
        const out = await poolOf(deps).runTask('isochrone', input, { signal });
        if (!out.ok) throw failed(out, { center: POSITION, ranges: { messageKey: 'VALIDATION_FAILED.isochrone_ranges' } });
        return { center: out.center, isochrones: out.isochrones };
      },
    }),

    analyzeGeometry: defineOperation({
      id: 'analyzeGeometry',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: AnalyzeInput,
      async run(caller, input: AnalyzeRequest, { signal }): Promise<AnalyzeOutput['analysis']> {
        requireIntelligence(caller);
        const coordinates = input.geometry.coordinates.map((c) => [c[0], c[1]] as LonLat);
        const out = await poolOf(deps).runTask('analyze', { activity: input.activity, coordinates }, { signal });
        if (!out.ok) throw failed(out, { geometry: { messageKey: 'VALIDATION_FAILED.too_few_positions' } });
        return out.analysis;
      },
    }),

    places: defineOperation({
      id: 'places',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: PlacesInput,
      async run(_caller, input: PlacesRequest, { signal }): Promise<PlaceResult[]> {
        const out = await poolOf(deps).runTask('places', given(input), { signal });
        if (!out.ok) {
          throw failed(out, {
            text: { messageKey: 'VALIDATION_FAILED.places_query' },
            near: POSITION,
            radius: { messageKey: 'VALIDATION_FAILED.number_between', messageParams: { min: 1, max: LOOKUP_LIMITS.radius.max } },
            limit: { messageKey: 'VALIDATION_FAILED.integer_between', messageParams: { min: 1, max: LOOKUP_LIMITS.places.max } },
          });
        }
        return out.places;
      },
    }),

    place: defineOperation({
      id: 'place',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: PlaceInput,
      async run(_caller, input: { id: string }, { signal }): Promise<PlaceResult | null> {
        const out = await poolOf(deps).runTask('place', input, { signal });
        if (!out.ok) throw failed(out, { id: { messageKey: 'VALIDATION_FAILED.place_id' } });
        return out.place;
      },
    }),

    ways: defineOperation({
      id: 'ways',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      input: WaysInput,
      async run(_caller, input: WaysRequest, { signal }): Promise<WayResult[]> {
        const out = await poolOf(deps).runTask('ways', given(input), { signal });
        if (!out.ok) throw failed(out, { bbox: { messageKey: 'VALIDATION_FAILED.ways_bbox' } });
        return out.ways;
      },
    }),

    regions: defineOperation({
      id: 'regions',
      scope: 'data',
      writes: false,
      reach: DATA_REACH,
      async run(): Promise<RegionListing[]> {
        if (!deps.regions) throw new ApiError('SERVICE_UNAVAILABLE');
        return (await deps.regions()).map((r) => r.listing);
      },
    }),
  };
}
