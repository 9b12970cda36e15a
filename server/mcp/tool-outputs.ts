// What each MCP tool answers, declared as the `outputSchema` of `tools/list`: the REST response schemas where a
// tool answers what REST does (collections, itinerary summaries, itineraries, zones), the fields a client can
// count on elsewhere. Clients check every structuredContent against it, refusals included, so the refusal's
// `{error}` is declared beside the result.

import { type TSchema, Type } from '@sinclair/typebox';
import { CollectionView, ItinerarySummary } from '../studio/collections/collection-schemas.js';
import { Itinerary } from '../studio/itineraries/itinerary-schemas.js';
import { ZoneView } from '../studio/zones/zone-schemas.js';
import type { McpToolName } from './tool-names.js';

const Total = Type.Integer({ minimum: 0, description: 'Items in the whole listing (page with limit and offset)' });
const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 3, description: '[longitude, latitude(, elevation)]' });
const Line = Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) });
const Metres = Type.Number({ description: 'm' });

const OUTPUTS: Record<McpToolName, Record<string, TSchema>> = {
  list_collections: { collections: Type.Array(CollectionView), total: Total },
  get_collection: { collection: CollectionView, itineraries: Type.Array(ItinerarySummary), total: Total },
  list_itineraries: { itineraries: Type.Array(ItinerarySummary), total: Total },
  get_itinerary: { itinerary: Itinerary },
  create_itinerary_from_route: { itinerary: Itinerary },
  add_segment: { itinerary: Itinerary },
  plan_route: {
    routes: Type.Array(Type.Object({ distance: Metres, duration: Type.Number({ description: 's' }), ascent: Metres, geometry: Line })),
  },
  suggest_routes: { suggestions: Type.Array(Type.Object({ kind: Type.String(), distance: Metres, ascent: Metres, geometry: Line })) },
  analyze_geometry: {
    analysis: Type.Object({ distance: Metres, ascent: Metres, advisories: Type.Array(Type.Unknown()), matchedFraction: Type.Number() }),
  },
  reachable_area: {
    center: Type.Union([Position, Type.Null()], { description: 'The snapped start; null when nothing is near' }),
    isochrones: Type.Array(
      Type.Object({ range: Type.Number({ description: 's' }), polygon: Type.Object({ type: Type.Literal('Polygon') }) }),
    ),
  },
  search_places: {
    places: Type.Array(
      Type.Object({
        id: Type.String({ description: 'node/<id> or way/<id>' }),
        name: Type.String(),
        kind: Type.String(),
        coordinates: Position,
      }),
    ),
  },
  search_zones: { zones: Type.Array(ZoneView) },
};

/** The structured content of a refusal (isError): the spec's code and the envelope's entries. */
const Refusal = Type.Object(
  {
    code: Type.String(),
    errors: Type.Array(
      Type.Object({ message: Type.String(), path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))) }),
    ),
  },
  { description: 'Present instead of the result when the call was refused (isError: true)' },
);

/** Plain JSON Schema without `$id`s: a client compiles every tool's schema into one validator, where an id may appear once. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, v]) => (key === '$id' ? [] : [[key, plain(v)]])));
}

/** The `outputSchema` of a tool: its result, or a refusal. */
export function outputSchema(name: McpToolName): { type: 'object'; [key: string]: unknown } {
  const result = OUTPUTS[name];
  return plain({
    type: 'object',
    properties: { ...result, error: Refusal },
    anyOf: [{ required: Object.keys(result) }, { required: ['error'] }],
  }) as { type: 'object' };
}
