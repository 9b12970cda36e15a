// The MCP server's tools (DESIGN §10): each one calls the core's operations with the caller the access layer
// decided, so the rules are the REST and GraphQL ones. A tool's input schema is its operation's own (the Data API
// operations' inputs, server/data-api/data-inputs.ts; the Studio reads' `declaredInput`), or, where a tool shapes
// its arguments differently, built from the operation's pieces (the Studio request schemas). The arguments are
// checked once, as a request body is: a tool whose arguments are its operation's input calls `runValidated`; one
// that reshapes them calls `run`, which checks what it was given. Its result is structured content with a one-line
// summary (server/mcp/mcp-routes.ts adds it as JSON text); a refusal is a tool error carrying the spec's code, with
// failure paths rooted at the argument names.

import { type Static, type TObject, Type } from '@sinclair/typebox';
import type { LonLat } from '../../contracts/routing.js';
import type { Access } from '../auth/access.js';
import { declaredInput, type OperationContext } from '../core/operation.js';
import { organizationOf } from '../core/policy.js';
import {
  AnalyzeInput,
  DirectionsInput,
  IsochroneInput,
  LinePosition,
  PlacesInput,
  SuggestionsInput,
  ZonesInput,
} from '../data-api/data-inputs.js';
import type { DataOperations } from '../data-api/data-operations.js';
import { StringEnum } from '../http/schema-types.js';
import { compileInputValidator } from '../http/validation.js';
import { Coordinate, ItineraryCreateParams, ItineraryParams, SegmentCreateParams } from '../studio/itineraries/itinerary-schemas.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import type { McpToolName } from './tool-names.js';

const Uuid = ItineraryParams.properties.itinerary_id;
const Activity = AnalyzeInput.properties.activity;

export interface ToolResult {
  structured: Record<string, unknown>;
  summary: string;
}

export interface McpTool<S extends TObject = TObject> {
  name: McpToolName;
  description: string;
  input: S;
  /** The intelligence tier: reached with a key and its session (MCP), never by a signed-in member (the agent). */
  intelligence?: boolean;
  /** Changes the organization's content (acts as a member who may write); a read otherwise. */
  writes?: boolean;
  run(caller: Access, args: Static<S>, context: OperationContext): Promise<ToolResult>;
}

const tool = <S extends TObject>(t: McpTool<S>): McpTool => t as unknown as McpTool;

const km = (m: number) => `${(m / 1000).toFixed(1)} km`;

/** A place in a summary: its name, or its street and number (an address has no name), then its kind. */
/** Every place has a name (an address is named by its street and number by the region lookup). */
const placeLabel = (p: { name: string; kind: string }) => `${p.name || p.kind} (${p.kind})`;

export function mcpTools(ops: { studio: StudioOperations; data: DataOperations }): McpTool[] {
  const { studio, data } = ops;
  return [
    tool({
      name: 'list_collections',
      description: "The organization's collections (with the connector's session: private ones too).",
      // The operation's input less the organization, which is the caller's.
      input: Type.Omit(declaredInput(studio.collections.getOrganizationCollections), ['organization_id']),
      async run(caller, args, context) {
        const page = await studio.collections.getOrganizationCollections.runValidated(
          caller,
          { organization_id: organizationOf(caller, undefined), limit: args.limit ?? 20, offset: args.offset ?? 0 },
          context,
        );
        return { structured: { collections: page.items, total: page.total }, summary: `${page.items.length} of ${page.total} collections` };
      },
    }),
    tool({
      name: 'get_collection',
      description: 'One collection, with a page of its itineraries.',
      input: declaredInput(studio.collections.getCollectionItineraries),
      async run(caller, args, context) {
        const collection = await studio.collections.getCollection.runValidated(caller, { collection_id: args.collection_id }, context);
        const page = await studio.collections.getCollectionItineraries.runValidated(
          caller,
          { collection_id: args.collection_id, limit: args.limit ?? 20, offset: args.offset ?? 0 },
          context,
        );
        return {
          structured: { collection, itineraries: page.items, total: page.total },
          summary: `${collection.name}: ${page.total} itineraries`,
        };
      },
    }),
    tool({
      name: 'list_itineraries',
      description: 'The itineraries of a collection (their summaries: name, activity, versions).',
      input: declaredInput(studio.collections.getCollectionItineraries),
      async run(caller, args, context) {
        const page = await studio.collections.getCollectionItineraries.runValidated(
          caller,
          { collection_id: args.collection_id, limit: args.limit ?? 20, offset: args.offset ?? 0 },
          context,
        );
        return { structured: { itineraries: page.items, total: page.total }, summary: `${page.items.length} of ${page.total} itineraries` };
      },
    }),
    tool({
      name: 'get_itinerary',
      description: 'One itinerary with its segments, waypoints and groups: the published snapshot unless version is "draft".',
      input: declaredInput(studio.itineraries.getItinerary),
      async run(caller, args, context) {
        const itinerary = await studio.itineraries.getItinerary.runValidated(
          caller,
          { itinerary_id: args.itinerary_id, version: args.version ?? 'published' },
          context,
        );
        return {
          structured: { itinerary },
          summary: `${itinerary.name}: ${km(itinerary.distance)}, ↑ ${Math.round(itinerary.ascent)} m, ${itinerary.segments.length} segments`,
        };
      },
    }),
    tool({
      name: 'plan_route',
      description: 'Routes through 2 to 50 waypoints on the trail network, optionally around toll and access-restricted ways.',
      input: DirectionsInput,
      async run(caller, args, context) {
        const result = await data.directions.runValidated(caller, args, context);
        const routes = result.routes.map(({ coordinatesJson, ...route }) => ({
          ...route,
          geometry: { type: 'LineString', coordinates: JSON.parse(coordinatesJson) as number[][] },
        }));
        const best = routes[0];
        return {
          structured: { routes },
          summary: best
            ? `${routes.length} route(s); best ${km(best.distance)}, ${Math.round(best.duration / 60)} min, ↑ ${Math.round(best.ascent)} m (${best.avoidance})`
            : 'no route',
        };
      },
    }),
    tool({
      name: 'create_itinerary_from_route',
      writes: true,
      description:
        'Creates an itinerary routed on the trails through the waypoints (one smart segment per leg), optionally filed in a collection and published. Acts as the member named in X-User-Id (with the key pair).',
      input: Type.Object(
        {
          // What POST /v1/itineraries and its appended segments take, checked the same way.
          name: ItineraryCreateParams.properties.name,
          activity: Activity,
          waypoints: Type.Array(Coordinate, { minItems: 2, maxItems: 50 }),
          description: ItineraryCreateParams.properties.description,
          privacy: ItineraryCreateParams.properties.privacy,
          collection_id: ItineraryCreateParams.properties.collection_id,
          publish: Type.Optional(Type.Boolean({ description: 'Publish it once planned (default false)' })),
        },
        { additionalProperties: false },
      ),
      async run(caller, args, context) {
        const ops = studio.itineraries;
        const created = await ops.postItinerary.run(
          caller,
          {
            name: args.name,
            activity: args.activity,
            ...(args.description !== undefined ? { description: args.description } : {}),
            ...(args.privacy !== undefined ? { privacy: args.privacy } : {}),
            ...(args.collection_id !== undefined ? { collection_id: args.collection_id } : {}),
          },
          context,
        );
        const [from, to, ...rest] = args.waypoints as [LonLat, LonLat, ...LonLat[]];
        const itinerary_id = created.id;
        let view = await ops.postItinerarySegment.run(caller, { itinerary_id, engine: 'smart', from, to }, context);
        for (const stop of rest) view = await ops.postItinerarySegment.run(caller, { itinerary_id, engine: 'smart', to: stop }, context);
        if (args.publish) view = await ops.postItineraryPublish.run(caller, { itinerary_id }, context);
        return {
          structured: { itinerary: view },
          summary: `${view.name}: ${km(view.distance)}, ↑ ${Math.round(view.ascent)} m, ${view.segments.length} segments${args.publish ? ', published' : ''}`,
        };
      },
    }),
    tool({
      name: 'add_segment',
      writes: true,
      description:
        "Appends a segment to the end of an itinerary's draft: smart (routed on the trails for the itinerary's activity) to the point `to`, or freehand through `coordinates`. On an empty itinerary a smart segment also needs `from`. Acts as the member; parts another member holds stay theirs (a CONFLICT names the holder).",
      input: Type.Object(
        {
          // What POST /v1/itineraries/{itinerary_id}/segments takes, the engine optional.
          itinerary_id: Uuid,
          engine: Type.Optional(StringEnum(['smart', 'freehand'], { description: 'smart (default): routed; freehand: as drawn' })),
          to: SegmentCreateParams.properties.to,
          from: SegmentCreateParams.properties.from,
          coordinates: SegmentCreateParams.properties.coordinates,
        },
        { additionalProperties: false },
      ),
      async run(caller, args, context) {
        const engine = args.engine ?? 'smart';
        const input =
          engine === 'smart'
            ? { itinerary_id: args.itinerary_id, engine, ...(args.to ? { to: args.to } : {}), ...(args.from ? { from: args.from } : {}) }
            : { itinerary_id: args.itinerary_id, engine, ...(args.coordinates ? { coordinates: args.coordinates } : {}) };
        const view = await studio.itineraries.postItinerarySegment.run(caller, input as never, context);
        const added = view.segments[view.segments.length - 1];
        return {
          structured: { itinerary: view },
          summary: `${view.name}: segment ${view.segments.length} added (${added ? km(added.distance) : '?'}); now ${km(view.distance)}, version ${view.version}`,
        };
      },
    }),
    tool({
      name: 'suggest_routes',
      intelligence: true,
      description:
        'Route ideas from a start (a loop, or to an end) for a target distance or duration, never through a toll or access-restricted way. Intelligence product.',
      input: SuggestionsInput,
      async run(caller, args, context) {
        const ideas = await data.suggestions.runValidated(
          caller,
          { ...args, start: args.start as LonLat, end: args.end as LonLat | undefined },
          context,
        );
        const suggestions = ideas.map(({ coordinatesJson, ...idea }) => ({
          ...idea,
          geometry: { type: 'LineString', coordinates: JSON.parse(coordinatesJson) as number[][] },
        }));
        return {
          structured: { suggestions },
          summary: suggestions.map((s) => `${s.kind.toLowerCase()} ${km(s.distance)} ↑ ${Math.round(s.ascent)} m`).join('; '),
        };
      },
    }),
    tool({
      name: 'analyze_geometry',
      intelligence: true,
      description:
        'Matches a drawn line to the trail network: advisories, difficulty, distance, climb, elevation profile. Intelligence product.',
      input: Type.Object(
        {
          activity: Activity,
          // The operation's geometry.coordinates, as one argument.
          coordinates: Type.Array(LinePosition, {
            minItems: 2,
            maxItems: 10_000,
            description: 'the line, [longitude, latitude] positions',
          }),
        },
        { additionalProperties: false },
      ),
      async run(caller, args, context) {
        const analysis = await data.analyzeGeometry.run(
          caller,
          { activity: args.activity, geometry: { type: 'LineString', coordinates: args.coordinates } },
          context,
        );
        return {
          structured: { analysis },
          summary: `${km(analysis.distance)}, ↑ ${Math.round(analysis.ascent)} m, ${analysis.advisories.length} advisories, ${Math.round(analysis.matchedFraction * 100)}% on the network`,
        };
      },
    }),
    tool({
      name: 'reachable_area',
      intelligence: true,
      description: 'The area reachable from a point within each time range (isochrones, nested). Intelligence product.',
      input: IsochroneInput,
      async run(caller, args, context) {
        const result = await data.isochrone.runValidated(caller, { ...args, center: args.center as LonLat }, context);
        return {
          structured: { ...result },
          summary: `${result.isochrones.length} area(s) around ${result.center ? result.center.join(', ') : 'nowhere'}`,
        };
      },
    }),
    tool({
      name: 'search_places',
      description: 'Places of the region (peaks, huts, villages, addresses), ranked by match, then distance.',
      input: PlacesInput,
      async run(caller, args, context) {
        const places = await data.places.runValidated(caller, { ...args, near: args.near as LonLat | undefined }, context);
        return {
          structured: { places },
          summary: places.length > 0 ? `${places.length} place(s): ${places.slice(0, 5).map(placeLabel).join('; ')}` : 'no place',
        };
      },
    }),
    tool({
      name: 'search_zones',
      description: "The organization's zones that meet a bounding box or contain a point, by their true shape.",
      input: ZonesInput,
      async run(caller, args, context) {
        const zones = await data.zones.runValidated(caller, args, context);
        return { structured: { zones }, summary: `${zones.length} zone(s)` };
      },
    }),
  ];
}

/**
 * Checks a tool's arguments as a request body is checked (server/http/validation.ts: one entry per failed field,
 * each with its sentence), the paths rooted at the argument names instead of `request.body`.
 */
export function argumentChecker(tools: McpTool[]): (tool: McpTool, args: unknown) => void {
  const validators = new Map(tools.map((t) => [t, compileInputValidator(t.input)]));
  return (t, args) => validators.get(t)?.(args ?? {});
}
