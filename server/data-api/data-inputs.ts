// The input schemas of the Data API operations (DESIGN §7): what GraphQL's own types cannot say (ranges,
// counts, positions in degrees), checked on every call of the operation, from GraphQL, MCP tools and the
// agent alike (server/core/operation.ts). Absent fields may come as null (GraphQL's absent). Each failure reads
// as the sentence the Data API documents for its field (`messageKey`, server/http/schema-keywords.ts).

import { type TSchema, Type } from '@sinclair/typebox';
import { ZONE_LEVELS } from '../../data/model/zone.js';
import { ACTIVITIES } from '../../contracts/activity.js';
import { LOOKUP_LIMITS, PLACE_KINDS } from '../../contracts/region-lookup.js';
import { MAX_ALTERNATIVES, MAX_ISOCHRONE_RANGES, MAX_ISOCHRONE_SECONDS, SUGGESTION_LIMITS } from '../../contracts/routing.js';
import type { ErrorEntry } from '../errors.js';
import type { LonLatCheck } from '../http/schema-keywords.js';
import { StringEnum } from '../http/schema-types.js';

const strict = { additionalProperties: false } as const;

/** `schema`, or null. */
const orNull = <T extends TSchema>(schema: T) =>
  Type.Optional(Type.Unsafe<T['static'] | null>({ ...schema, type: [schema.type as string, 'null'] }));

export const Activity = StringEnum(ACTIVITIES, { description: 'How the route is travelled' });

/** A [longitude, latitude] position in degrees (an elevation may follow where `maxItems` allows it). */
function Position(lonLat: LonLatCheck, messageKey: string, options: { maxItems?: number; description?: string } = {}) {
  return Type.Array(Type.Number(), {
    minItems: 2,
    description: '[longitude, latitude], degrees',
    ...options,
    lonLat,
    messageKey,
  });
}

const POSITION = 'VALIDATION_FAILED.position';
const WAYPOINT_COUNT = 'VALIDATION_FAILED.waypoint_count';
const SUGGESTION_TARGET = 'VALIDATION_FAILED.suggestion_target';
const ISOCHRONE_RANGES = 'VALIDATION_FAILED.isochrone_ranges';

export const DirectionsInput = Type.Object(
  {
    activity: Activity,
    waypoints: Type.Array(Position('each', WAYPOINT_COUNT, { maxItems: 2 }), { minItems: 2, maxItems: 50, messageKey: WAYPOINT_COUNT }),
    avoid: orNull(Type.Array(StringEnum(['TOLLWAY', 'RESTRICTED_ACCESS']))),
    alternatives: orNull(Type.Integer({ minimum: 0, maximum: MAX_ALTERNATIVES })),
  },
  strict,
);

export const SuggestionsInput = Type.Object(
  {
    activity: Activity,
    start: Position('whole', POSITION),
    end: orNull(Position('whole', POSITION)),
    distance: orNull(
      Type.Number({
        minimum: SUGGESTION_LIMITS.distance.min,
        maximum: SUGGESTION_LIMITS.distance.max,
        description: 'metres',
        messageKey: SUGGESTION_TARGET,
      }),
    ),
    duration: orNull(
      Type.Number({
        minimum: SUGGESTION_LIMITS.duration.min,
        maximum: SUGGESTION_LIMITS.duration.max,
        description: 'seconds',
        messageKey: SUGGESTION_TARGET,
      }),
    ),
    limit: orNull(Type.Integer({ minimum: 1, maximum: SUGGESTION_LIMITS.limit.max })),
  },
  strict,
);

/** Exactly one target, a distance or a duration (the one rule of a suggestion its schema cannot state). */
export function oneSuggestionTarget<T extends { distance?: number | null; duration?: number | null }>(
  input: T,
): Omit<ErrorEntry, 'code'>[] {
  const given = (input.distance ?? undefined) !== undefined;
  return given === ((input.duration ?? undefined) !== undefined) ? [{ path: ['distance'], messageKey: SUGGESTION_TARGET }] : [];
}

export const IsochroneInput = Type.Object(
  {
    activity: Activity,
    center: Position('whole', POSITION),
    ranges: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ISOCHRONE_SECONDS, description: 'seconds', messageKey: ISOCHRONE_RANGES }), {
      minItems: 1,
      maxItems: MAX_ISOCHRONE_RANGES,
      messageKey: ISOCHRONE_RANGES,
    }),
  },
  strict,
);

/** One position of a drawn line (the line's own length is the worker's to judge: it says too few at `geometry`). */
export const LinePosition = Position('whole', 'VALIDATION_FAILED.too_few_positions');

export const AnalyzeInput = Type.Object(
  {
    activity: Activity,
    geometry: Type.Object(
      {
        type: Type.Literal('LineString', { messageKey: 'VALIDATION_FAILED.line_string' }),
        coordinates: Type.Array(LinePosition, { description: 'the line, [longitude, latitude] positions' }),
      },
      strict,
    ),
  },
  strict,
);

export const PlacesInput = Type.Object(
  {
    text: orNull(Type.String()),
    near: orNull(Position('whole', POSITION)),
    /** Its range is the region lookup's (workers/region-lookup.ts), with its own sentence. */
    radius: orNull(Type.Number({ description: 'metres' })),
    kinds: orNull(Type.Array(StringEnum(PLACE_KINDS))),
    limit: orNull(Type.Integer({ minimum: 1, maximum: LOOKUP_LIMITS.places.max })),
  },
  strict,
);

/** [west, south, east, north] in degrees. */
const Bbox = (messageKey: string) =>
  Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[west, south, east, north]', lonLat: 'box', messageKey });

export const WaysInput = Type.Object({ bbox: Bbox('VALIDATION_FAILED.ways_bbox'), activity: orNull(Activity) }, strict);

export const ZonesInput = Type.Object(
  {
    bbox: orNull(Bbox('VALIDATION_FAILED.bbox')),
    point: orNull(Position('each', POSITION, { maxItems: 2 })),
    levels: orNull(Type.Array(StringEnum(ZONE_LEVELS))),
  },
  strict,
);

/** A place's id as `places` returns it. */
export const PlaceInput = Type.Object(
  { id: Type.String({ pattern: '^(node|way)/[0-9]{1,20}$', messageKey: 'VALIDATION_FAILED.place_id' }) },
  strict,
);

/** An itinerary's id: a uuid (anything else could never name one, and saying so helps more than a 404). */
export const ItineraryInput = Type.Object(
  {
    id: Type.String({
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      messageKey: 'VALIDATION_FAILED.format_uuid',
    }),
    version: StringEnum(['draft', 'published']),
  },
  strict,
);
