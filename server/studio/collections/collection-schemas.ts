// Request and response schemas of the collection operations (DESIGN §6, §16).

import { Type } from '@sinclair/typebox';
import { MultiLineText, NameText, StringEnum } from '../../http/schema-types.js';
import { itemResponse, listResponse, Pagination, pageQuery } from './pagination.js';

export const Privacy = StringEnum(['public', 'private']);
export const CollectionScope = StringEnum(['organization', 'personal']);
const Uuid = Type.String({ format: 'uuid' });

export const CollectionCreateParams = Type.Object(
  {
    name: NameText(),
    description: Type.Optional(MultiLineText({ maxLength: 5000 })),
    privacy: Privacy,
    scope: Type.Optional(CollectionScope),
  },
  { additionalProperties: false, $id: 'CollectionCreateParams' },
);

/** PATCH: every field optional; omitted fields keep their value. Scope and owner never change. */
export const CollectionPatchParams = Type.Object(
  {
    name: Type.Optional(NameText()),
    description: Type.Optional(MultiLineText({ maxLength: 5000 })),
    privacy: Type.Optional(Privacy),
  },
  { additionalProperties: false, $id: 'CollectionPatchParams' },
);

/** POST /v1/collections query: the organization, for signed-in users belonging to several. */
export const CollectionCreateQuery = Type.Object({ organization_id: Type.Optional(Uuid) }, { additionalProperties: false });

export const CollectionIdParams = Type.Object({ collection_id: Uuid }, { additionalProperties: false });
export const OrganizationIdParams = Type.Object({ organization_id: Uuid }, { additionalProperties: false });
export const UserIdParams = Type.Object({ user_id: Uuid }, { additionalProperties: false });
export const ItineraryIdParams = Type.Object({ itinerary_id: Uuid }, { additionalProperties: false });
/** GET /v1/itineraries: a page of the caller's personal groups, or an organization's. */
export const ItineraryListQuery = pageQuery({ organization_id: Type.Optional(Uuid) });
export const CollectionItineraryParams = Type.Object({ collection_id: Uuid, itinerary_id: Uuid }, { additionalProperties: false });
export const CollectionZoneParams = Type.Object({ collection_id: Uuid, zone_id: Uuid }, { additionalProperties: false });

export const Role = StringEnum(['owner', 'admin', 'contributor', 'viewer']);

/** A collection as the API shows it; `role` is the caller's organization role (`viewer` with a key or a link). */
export const CollectionView = Type.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    name: Type.String(),
    description: Type.String(),
    privacy: Privacy,
    scope: CollectionScope,
    owner_user_id: Type.Union([Uuid, Type.Null()]),
    role: Role,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Collection' },
);

/** The compact itinerary row of collection and grouped listings. */
export const ItinerarySummary = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String(),
    activity: Type.String(),
    privacy: Privacy,
    /** Draft version, or the published one when read through a share link. */
    version: Type.Integer(),
    published_version: Type.Union([Type.Integer(), Type.Null()]),
    published_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ItinerarySummary' },
);

export const CollectionResponse = itemResponse(CollectionView);
export const CollectionListResponse = listResponse(CollectionView);
export const ItinerarySummaryListResponse = listResponse(ItinerarySummary);

/** GET /v1/itineraries: itineraries grouped by collection (`collection` null: in none of them). */
export const GroupedItinerariesResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      collection: Type.Union([Type.Object({ id: Uuid, name: Type.String(), privacy: Privacy }), Type.Null()]),
      itineraries: Type.Array(ItinerarySummary),
    }),
  ),
  count: Type.Integer(),
  limit: Type.Integer(),
  extensions: Type.Object({ metadata: Type.Object({ pagination: Pagination }) }),
});
