// Request and response schemas of the itinerary chain operations (DESIGN §6, §16). Coordinates are
// [longitude, latitude] or [longitude, latitude, elevation] (degrees, metres); their ranges are checked by the
// `lonLat` keyword (one entry per coordinate out of range: server/http/schema-keywords.ts), since a JSON Schema
// tuple cannot leave the elevation optional here.

import { type TSchema, Type } from '@sinclair/typebox';
import { ACTIVITIES } from '../../../data/model/itinerary.js';
import type { ErrorEntry } from '../../errors.js';
import { ColorText, LineText, MultiLineText, NameText, StringEnum } from '../../http/schema-types.js';

const Uuid = Type.String({ format: 'uuid' });
const nullable = <T extends TSchema>(schema: T) => Type.Unsafe<T['static'] | null>({ ...schema, type: [schema.type as string, 'null'] });

export const Activity = StringEnum(ACTIVITIES);
export const Privacy = StringEnum(['public', 'private']);
export const Engine = StringEnum(['smart', 'freehand']);

export const Coordinate = Type.Array(Type.Number(), {
  minItems: 2,
  maxItems: 3,
  description: '[longitude, latitude] or [longitude, latitude, elevation] (degrees, degrees, metres)',
  lonLat: 'each',
});
/** Positions of one drawn line; a segment longer than this is several segments. */
export const MAX_LINE_POSITIONS = 10_000;
const Line = (minItems: number) => Type.Array(Coordinate, { minItems, maxItems: MAX_LINE_POSITIONS });
const Name = NameText();
const Text = MultiLineText({ maxLength: 5000 });
const Color = ColorText;
const Speed = Type.Number({ exclusiveMinimum: 0, maximum: 200, description: 'km/h' });
const strict = { additionalProperties: false } as const;

export const ItineraryParams = Type.Object({ itinerary_id: Uuid }, strict);
export const SegmentParams = Type.Object({ itinerary_id: Uuid, segment_id: Uuid }, strict);
export const GroupParams = Type.Object({ itinerary_id: Uuid, group_id: Uuid }, strict);
export const WaypointParams = Type.Object({ itinerary_id: Uuid, waypoint_id: Uuid }, strict);
export const ItineraryReadQuery = Type.Object({ version: Type.Optional(StringEnum(['draft', 'published'])) }, strict);

export const ItineraryCreateParams = Type.Object(
  {
    name: Name,
    description: Type.Optional(Text),
    activity: Type.Optional(Activity),
    privacy: Type.Optional(Privacy),
    collection_id: Type.Optional(Uuid),
    organization_id: Type.Optional(Uuid),
  },
  { ...strict, $id: 'ItineraryCreateParams' },
);
export const ItineraryPatchParams = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Text), activity: Type.Optional(Activity), privacy: Type.Optional(Privacy) },
  { ...strict, $id: 'ItineraryPatchParams' },
);
export const ItineraryDuplicateParams = Type.Object(
  {
    name: Type.Optional(Name),
    organization_id: Type.Optional(Uuid),
    segment_ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 10_000 })),
    waypoint_ids: Type.Optional(Type.Array(Uuid, { minItems: 2, maxItems: 10_000 })),
  },
  { ...strict, $id: 'ItineraryDuplicateParams' },
);

const LockPartType = StringEnum(['segment', 'waypoint', 'segment_group']);
export const LockPart = Type.Object({ type: LockPartType, id: Uuid }, strict);
export const ItineraryLockParams = Type.Object(
  { parts: Type.Union([Type.Array(LockPart, { minItems: 1, maxItems: 10_000 }), Type.Literal('all')]) },
  { ...strict, $id: 'ItineraryLockParams' },
);

export const SegmentCreateParams = Type.Object(
  {
    engine: Engine,
    to: Type.Optional(Coordinate),
    from: Type.Optional(Coordinate),
    coordinates: Type.Optional(Line(1)),
  },
  { ...strict, $id: 'SegmentCreateParams', description: 'smart: `to` (and `from` on an empty itinerary); freehand: `coordinates`' },
);
/**
 * The rule of SegmentCreateParams its schema cannot state: a smart append names `to` (and `from` on an empty
 * chain), a freehand one `coordinates`; never the other's fields. One entry per field at fault.
 */
export function appendFieldsBroken(input: Record<string, unknown>): Omit<ErrorEntry, 'code'>[] {
  const smart = input.engine === 'smart';
  const missing = smart ? (input.to === undefined ? 'to' : undefined) : input.coordinates === undefined ? 'coordinates' : undefined;
  const extra = smart ? (input.coordinates !== undefined ? 'coordinates' : undefined) : ['to', 'from'].find((f) => input[f] !== undefined);
  return [missing, extra].filter((f): f is string => f !== undefined).map((f) => ({ path: [f] }));
}
export const SegmentInsertParams = Type.Object(
  { before_segment_id: Uuid, point: Coordinate, engine: Engine },
  { ...strict, $id: 'SegmentInsertParams' },
);
export const SegmentUpdateParams = Type.Object(
  {
    name: Type.Optional(nullable(Name)),
    description: Type.Optional(nullable(Text)),
    group_id: Type.Optional(nullable(Uuid)),
    coordinates: Type.Optional(Line(2)),
  },
  { ...strict, $id: 'SegmentUpdateParams' },
);
export const SegmentMergeParams = Type.Object({ with_segment_id: Uuid }, { ...strict, $id: 'SegmentMergeParams' });
export const SegmentSplitParams = Type.Object({ point: Coordinate }, { ...strict, $id: 'SegmentSplitParams' });
export const SegmentModeParams = Type.Object({ engine: Engine }, { ...strict, $id: 'SegmentModeParams' });

export const SegmentGroupCreateParams = Type.Object(
  { name: Name, color: Color, speed: Type.Optional(nullable(Speed)), segment_ids: Type.Array(Uuid, { minItems: 1, maxItems: 10_000 }) },
  { ...strict, $id: 'SegmentGroupCreateParams' },
);
export const SegmentGroupUpdateParams = Type.Object(
  { name: Type.Optional(Name), color: Type.Optional(Color), speed: Type.Optional(nullable(Speed)) },
  { ...strict, $id: 'SegmentGroupUpdateParams' },
);
export const WaypointUpdateParams = Type.Object(
  {
    name: Type.Optional(nullable(Name)),
    kind: Type.Optional(nullable(LineText({ minLength: 1, maxLength: 64 }))),
    description: Type.Optional(nullable(Text)),
    coordinates: Type.Optional(Coordinate),
  },
  { ...strict, $id: 'WaypointUpdateParams' },
);

// Responses.
const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 3 });
export const ItinerarySegmentGroup = Type.Object(
  { id: Uuid, name: Type.String(), color: Type.String(), speed: nullable(Type.Number()) },
  { $id: 'ItinerarySegmentGroup' },
);
export const ItinerarySegment = Type.Object(
  {
    id: Uuid,
    position: Type.Integer({ minimum: 0 }),
    engine: Engine,
    groupId: nullable(Uuid),
    name: nullable(Type.String()),
    description: nullable(Type.String()),
    distance: Type.Number({ description: 'm' }),
    ascent: Type.Number({ description: 'm' }),
    descent: Type.Number({ description: 'm' }),
    duration: Type.Number({ description: 's' }),
    geometry: Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }),
    hazards: Type.Array(
      Type.Object({
        kind: Type.Union([Type.Literal('TOLLWAY'), Type.Literal('RESTRICTED_ACCESS')]),
        from_distance: Type.Number({ description: 'm from the segment start' }),
        to_distance: Type.Number({ description: 'm from the segment start' }),
      }),
      {
        description:
          "Toll and access-restricted ways the segment's line crosses for the itinerary's activity (routed segments; a drawn one has none)",
      },
    ),
  },
  { $id: 'ItinerarySegment' },
);
export const ItineraryWaypoint = Type.Object(
  {
    id: Uuid,
    position: Type.Integer({ minimum: 0 }),
    name: nullable(Type.String()),
    kind: nullable(Type.String()),
    description: nullable(Type.String()),
    coordinates: Position,
  },
  { $id: 'ItineraryWaypoint' },
);
export const Itinerary = Type.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    name: Type.String(),
    description: Type.String(),
    activity: Activity,
    privacy: Privacy,
    version: Type.Integer({ minimum: 1 }),
    published_version: nullable(Type.Integer()),
    published_at: nullable(Type.String({ format: 'date-time' })),
    distance: Type.Number(),
    ascent: Type.Number(),
    descent: Type.Number(),
    duration: Type.Number(),
    segments: Type.Array(ItinerarySegment),
    waypoints: Type.Array(ItineraryWaypoint),
    groups: Type.Array(ItinerarySegmentGroup),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Itinerary' },
);
export const ItineraryLock = Type.Object(
  { type: LockPartType, id: Uuid, holder: Type.Object({ id: Uuid }), expires_at: Type.String({ format: 'date-time' }) },
  { $id: 'ItineraryLock' },
);

/** The Studio success envelope around `data`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, extensions: Type.Object({ metadata: Type.Object({}) }) });
