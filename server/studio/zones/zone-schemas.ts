// Request and response schemas of the zone operations (DESIGN §6, §16). The schemas check the shape; the
// geometry rules that JSON Schema cannot say well (mode ↔ geometry type, closed rings, lon/lat ranges) are
// checked by ./zone-geometry.ts, one entry per bad field.

import { Type } from '@sinclair/typebox';
import { MultiLineText, NameText, StringEnum } from '../../http/schema-types.js';
import { Privacy } from '../collections/collection-schemas.js';
import { itemResponse, listResponse, pageQuery } from '../collections/pagination.js';

const Uuid = Type.String({ format: 'uuid' });
export const ZoneLevel = StringEnum(['INFO', 'WARNING', 'DANGER', 'PROHIBITED']);
export const ZoneMode = StringEnum(['POLYGON', 'CIRCLE', 'CORRIDOR']);

/** GeoJSON geometry in lon/lat degrees: Polygon (POLYGON), Point (CIRCLE) or LineString (CORRIDOR). */
const ZoneGeometry = Type.Object(
  {
    type: StringEnum(['Polygon', 'Point', 'LineString']),
    coordinates: Type.Array(Type.Unknown(), { maxItems: 10_000 }),
  },
  { additionalProperties: false },
);
const Metres = Type.Number({ exclusiveMinimum: 0 });

export const ZoneCreateParams = Type.Object(
  {
    name: NameText(),
    description: Type.Optional(MultiLineText({ maxLength: 5000 })),
    level: ZoneLevel,
    mode: ZoneMode,
    geometry: ZoneGeometry,
    /** Circle radius in metres (CIRCLE only). */
    radius_m: Type.Optional(Metres),
    /** Corridor width in metres (CORRIDOR only). */
    width_m: Type.Optional(Metres),
    privacy: Privacy,
  },
  { additionalProperties: false, $id: 'ZoneCreateParams' },
);

/** PATCH: every field optional; the resulting mode, geometry, radius and width are checked together. */
export const ZonePatchParams = Type.Object(
  {
    name: Type.Optional(NameText()),
    description: Type.Optional(MultiLineText({ maxLength: 5000 })),
    level: Type.Optional(ZoneLevel),
    mode: Type.Optional(ZoneMode),
    geometry: Type.Optional(ZoneGeometry),
    radius_m: Type.Optional(Metres),
    width_m: Type.Optional(Metres),
    privacy: Type.Optional(Privacy),
  },
  { additionalProperties: false, $id: 'ZonePatchParams' },
);

export const ZoneIdParams = Type.Object({ zone_id: Uuid }, { additionalProperties: false });
/** Listing and create query: the organization, for signed-in users belonging to several. */
export const ZoneListQuery = pageQuery({ organization_id: Type.Optional(Uuid) });
export const ZoneCreateQuery = Type.Object({ organization_id: Type.Optional(Uuid) }, { additionalProperties: false });

export const ZoneView = Type.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    name: Type.String(),
    description: Type.String(),
    level: ZoneLevel,
    mode: ZoneMode,
    geometry: ZoneGeometry,
    radius_m: Type.Union([Type.Number(), Type.Null()]),
    width_m: Type.Union([Type.Number(), Type.Null()]),
    privacy: Privacy,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Zone' },
);

export const ZoneResponse = itemResponse(ZoneView);
export const ZoneListResponse = listResponse(ZoneView);
