// The resolvers of Query: each maps its GraphQL arguments onto an operation's input, the operation's result
// onto the schema's types, and the operation's input-relative failure paths onto `["input",…]` (the way the
// REST adapter prefixes `["request","body",…]`). No rule lives here.

import type { Access } from '../auth/access.js';
import type { Operation, OperationContext } from '../core/operation.js';
import { ApiError } from '../errors.js';
import type { ItineraryView, SegmentView } from '../../contracts/itinerary-view.js';
import type { ZoneView } from '../studio/zones/zone-view.js';
import type { EncodedRoute } from '../../contracts/routing.js';
import { RawJson } from '../http/json-text.js';
import type { DataOperations } from './data-operations.js';
import type { DirectionsRequest } from './directions-operation.js';
import type { QueryResolvers } from './schema.js';
import type { AnalyzeRequest, IsochroneRequest, PlacesRequest, SuggestionsRequest, WaysRequest } from './region-operations.js';
import type { ZoneSearchRequest } from './zone-search-operation.js';
import type { PlaceKind, PlaceResult } from '../../contracts/region-lookup.js';

/** What every resolver receives as GraphQL's context: the caller and the operation context of the request. */
export interface DataContext {
  caller: Access;
  operation: OperationContext;
}

/** A resolver running `operation` on the input `toInput` builds, answering `toOutput` of its result. */
function bind<A, I, O>(operation: Operation<I, O>, toInput: (args: A) => I, toOutput: (result: O) => unknown) {
  return async (_root: unknown, args: A, context: DataContext): Promise<unknown> => {
    let result: O;
    try {
      result = await operation.run(context.caller, toInput(args), context.operation);
    } catch (error) {
      throw error instanceof ApiError ? error.withPaths((path) => ['input', ...path]) : error;
    }
    return toOutput(result);
  };
}

function place(p: PlaceResult) {
  return { ...p, kind: p.kind.toUpperCase() };
}

function route(r: EncodedRoute) {
  return {
    distance: r.distance,
    duration: r.duration,
    ascent: r.ascent,
    descent: r.descent,
    // The worker wrote the positions as JSON text; the reply splices it in (server/http/json-text.ts).
    geometry: { type: 'LineString', coordinates: new RawJson(r.coordinatesJson) },
    avoidance: r.avoidance,
    advisories: r.advisories,
    trailDifficultyInfo: r.trailDifficultyInfo,
    waypoints: r.snapped.map((s) => ({ coordinates: [s.lon, s.lat], distance: s.distance })),
  };
}

function segment(s: SegmentView) {
  return { ...s, engine: s.engine.toUpperCase() };
}

function itinerary(view: ItineraryView) {
  return {
    id: view.id,
    organizationId: view.organization_id,
    name: view.name,
    description: view.description,
    activity: view.activity,
    privacy: view.privacy.toUpperCase(),
    version: view.version,
    publishedVersion: view.published_version,
    publishedAt: view.published_at,
    distance: view.distance,
    duration: view.duration,
    ascent: view.ascent,
    descent: view.descent,
    segments: view.segments.map(segment),
    waypoints: view.waypoints,
    groups: view.groups,
    createdAt: view.created_at,
    updatedAt: view.updated_at,
  };
}

function zoneResult(z: ZoneView) {
  const zone = {
    id: z.id,
    organizationId: z.organization_id,
    name: z.name,
    description: z.description,
    level: z.level,
    mode: z.mode,
    geometry: z.geometry,
    radiusM: z.radius_m,
    widthM: z.width_m,
    privacy: z.privacy.toUpperCase(),
    createdAt: z.created_at,
    updatedAt: z.updated_at,
  };
  return { zone, level: z.level, mode: z.mode };
}

export function queryResolvers(operations: DataOperations): QueryResolvers {
  return {
    directions: bind(
      operations.directions,
      (args: { input: DirectionsRequest }) => args.input,
      (result) => ({ routes: result.routes.map(route) }),
    ),
    itinerary: bind(
      operations.itinerary,
      (args: { id: string; version: 'PUBLISHED' | 'DRAFT' }) => ({
        id: args.id,
        version: args.version === 'DRAFT' ? ('draft' as const) : ('published' as const),
      }),
      itinerary,
    ),
    zones: bind(
      operations.zones,
      (args: { input: ZoneSearchRequest | null }) => args.input ?? {},
      (zones) => zones.map(zoneResult),
    ),
    suggestions: bind(
      operations.suggestions,
      (args: { input: SuggestionsRequest }) => args.input,
      (ideas) =>
        ideas.map((idea) => ({
          kind: idea.kind,
          via: idea.via,
          distance: idea.distance,
          duration: idea.duration,
          ascent: idea.ascent,
          descent: idea.descent,
          geometry: { type: 'LineString', coordinates: new RawJson(idea.coordinatesJson) },
          advisories: idea.advisories,
          trailDifficultyInfo: idea.trailDifficultyInfo,
        })),
    ),
    analyzeGeometry: bind(
      operations.analyzeGeometry,
      (args: { input: AnalyzeRequest }) => args.input,
      (a) => ({
        distance: a.distance,
        duration: a.duration,
        matchedFraction: a.matchedFraction,
        ascent: a.ascent,
        descent: a.descent,
        advisories: a.advisories,
        trailDifficultyInfo: a.trailDifficultyInfo,
        elevationProfile: a.elevationProfile,
      }),
    ),
    places: bind(
      operations.places,
      (args: { input: PlacesRequest }) => ({ ...args.input, kinds: args.input.kinds?.map((k) => k.toLowerCase() as PlaceKind) }),
      (found) => found.map(place),
    ),
    place: bind(
      operations.place,
      (args: { id: string }) => ({ id: args.id }),
      (found) => found && place(found),
    ),
    isochrone: bind(
      operations.isochrone,
      (args: { input: IsochroneRequest }) => args.input,
      (result) =>
        result.isochrones.map((i) => ({
          range: i.range,
          polygon: i.polygon,
          reachFactor: i.reachFactor,
          area: i.area,
          center: result.center,
        })),
    ),
    ways: bind(
      operations.ways,
      (args: { input: WaysRequest }) => args.input,
      (found) => found,
    ),
    regions: bind(
      operations.regions,
      () => ({}),
      (regions) =>
        regions.map(({ name, bounds, builtAt, source, osmTimestamp, attribution }) => ({
          name,
          bounds,
          builtAt,
          source,
          osmTimestamp,
          attribution,
        })),
    ),
  };
}
