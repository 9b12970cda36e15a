// Route definitions of the collection operations (DESIGN §6: 2–13, 17, 26). The rules live in the services;
// handlers only unpack the request and shape the answer.

import type { Access } from '../../auth/access.js';
import type { RequestContext, RouteDef } from '../../http/route.js';
import { declaredWrites } from '../operations.js';
import type { StudioDeps } from '../studio-deps.js';
import { collectionItemRoutes } from './collection-item-routes.js';
import {
  CollectionCreateParams,
  CollectionCreateQuery,
  CollectionIdParams,
  CollectionListResponse,
  CollectionPatchParams,
  CollectionResponse,
  OrganizationIdParams,
  UserIdParams,
} from './collection-schemas.js';
import { createCollectionService, type CollectionCreateBody, type CollectionPatchBody } from './collection-service.js';
import { pageMetadata, pageOf, PageQuery } from './pagination.js';

const accessOf = (ctx: RequestContext) => ctx.access as Access;
const base = { scope: 'resources' as const, public: true };
/** Until these become operation objects, the operation table (../operations.ts) says whether each writes. */
const declared = (op: string) => ({ op, writes: declaredWrites(op) });

export function collectionRoutes(deps: StudioDeps): RouteDef[] {
  const service = createCollectionService(deps);
  const one = (data: unknown) => ({ json: { data, extensions: { metadata: {} } } });

  return [
    {
      ...base,
      ...declared('getOrganizationCollections'),
      summary: "List an organization's collections",
      method: 'GET',
      path: '/v1/organizations/{organization_id}/collections',
      description:
        "Lists the organization's collections (organization scope). A bare publishable key lists the public ones of " +
        'its own organization, each with role viewer; a session token lists the private ones too; another ' +
        'organization is 403.',
      params: OrganizationIdParams,
      query: PageQuery,
      response: CollectionListResponse,
      handler: async (ctx: RequestContext<{ organization_id: string }, { limit?: number; offset?: number }>) => {
        const page = pageOf(ctx.query);
        const { items, total } = await service.listOrganization(accessOf(ctx), ctx.params.organization_id, page);
        return { json: { data: items, extensions: { metadata: pageMetadata(page, total) } } };
      },
    },
    {
      ...base,
      ...declared('getUserCollections'),
      summary: "List a user's personal collections",
      method: 'GET',
      path: '/v1/users/{user_id}/collections',
      description:
        'Lists personal collections only. The signed-in user themself sees all theirs; a bare publishable key of an ' +
        "organization the user belongs to sees the user's public ones there (role viewer); any other caller, a " +
        'session token included, gets 403.',
      params: UserIdParams,
      query: PageQuery,
      response: CollectionListResponse,
      handler: async (ctx: RequestContext<{ user_id: string }, { limit?: number; offset?: number }>) => {
        const page = pageOf(ctx.query);
        const { items, total } = await service.listUser(accessOf(ctx), ctx.params.user_id, page);
        return { json: { data: items, extensions: { metadata: pageMetadata(page, total) } } };
      },
    },
    {
      ...base,
      ...declared('postCollection'),
      summary: 'Create a collection',
      method: 'POST',
      path: '/v1/collections',
      description:
        'Creates a collection in the organization scope (default) or in the personal scope of the writing user. ' +
        'A signed-in user belonging to several organizations names one with `organization_id`. A name already ' +
        'used in the same organization, scope and owner is 409 with `extensions.metadata.collection.id`.',
      query: CollectionCreateQuery,
      body: CollectionCreateParams,
      status: 201,
      conflict: 'ResponseMetadataPostCollection',
      response: CollectionResponse,
      handler: async (ctx: RequestContext<Record<string, string>, { organization_id?: string }, CollectionCreateBody>) => ({
        status: 201,
        ...one(await service.create(accessOf(ctx), ctx.body, ctx.query.organization_id)),
      }),
    },
    {
      ...base,
      ...declared('getCollection'),
      summary: 'Read a collection',
      method: 'GET',
      path: '/v1/collections/{collection_id}',
      description: 'Reads a collection. A share link of the collection reaches it.',
      share: true,
      params: CollectionIdParams,
      response: CollectionResponse,
      handler: async (ctx: RequestContext<{ collection_id: string }>) =>
        one(await service.get(accessOf(ctx), ctx.params.collection_id)),
    },
    {
      ...base,
      ...declared('patchCollection'),
      summary: 'Update a collection (all fields optional)',
      method: 'PATCH',
      path: '/v1/collections/{collection_id}',
      description:
        'Partial update: every field optional, omitted fields keep their value. A name already used in the same ' +
        'organization, scope and owner is 409 with `extensions.metadata.collection.id`.',
      params: CollectionIdParams,
      body: CollectionPatchParams,
      conflict: 'ResponseMetadataPatchCollection',
      response: CollectionResponse,
      handler: async (ctx: RequestContext<{ collection_id: string }, Record<string, unknown>, CollectionPatchBody>) =>
        one(await service.patch(accessOf(ctx), ctx.params.collection_id, ctx.body)),
    },
    {
      ...base,
      ...declared('deleteCollection'),
      summary: 'Delete a collection (its itineraries and zones survive)',
      method: 'DELETE',
      path: '/v1/collections/{collection_id}',
      description: 'Deletes a collection (204). The itineraries and zones filed in it are kept.',
      params: CollectionIdParams,
      status: 204,
      handler: async (ctx: RequestContext<{ collection_id: string }>) => {
        await service.remove(accessOf(ctx), ctx.params.collection_id);
        return { status: 204, json: null };
      },
    },
    ...collectionItemRoutes(deps, service),
  ];
}
