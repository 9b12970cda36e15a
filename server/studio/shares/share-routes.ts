// Share links of collections and itineraries: mint, rotate, disable (signed-in members only).

import type { CollectionStore } from '../../../data/stores/collection-store.js';
import type { ItineraryStore } from '../../../data/stores/itinerary-store.js';
import type { MembershipStore } from '../../../data/stores/membership-store.js';
import type { ShareLinkStore, ShareResourceKind } from '../../../data/stores/share-link-store.js';
import type { Access } from '../../auth/access.js';
import { ApiError } from '../../errors.js';
import type { RequestContext, RouteDef } from '../../http/route.js';
import { Type } from '@sinclair/typebox';
import type { WriteBatcher } from '../../write-batcher.js';

export interface ShareRouteDeps {
  shareLinks: ShareLinkStore;
  collections: CollectionStore;
  itineraries: ItineraryStore;
  memberships: MembershipStore;
  /** Group commit, which every write on the shared connection goes through. */
  writes: WriteBatcher;
  /** Absolute origin of the embed host, or '' to use the request's Host. */
  publicAppUrl: string;
}

const CollectionParams = Type.Object({ collection_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const ItineraryParams = Type.Object({ itinerary_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export function shareRoutes(deps: ShareRouteDeps): RouteDef[] {
  /** The resource's organization, when the signed-in user may manage its link; 404 otherwise (never reveal it). */
  const authorize = (ctx: RequestContext, kind: ShareResourceKind, id: string): string => {
    const access = ctx.access as Access;
    if (access.kind !== 'user') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.signed_in_only');
    let organizationId: string | undefined;
    if (kind === 'collection') {
      const collection = deps.collections.get(id);
      // A personal collection's link is its creator's alone.
      if (collection && (collection.scope !== 'personal' || collection.ownerUserId === access.user.id)) {
        organizationId = collection.organizationId;
      }
    } else {
      organizationId = deps.itineraries.get(id)?.organizationId;
    }
    const membership = organizationId ? deps.memberships.get(organizationId, access.user.id) : undefined;
    if (!organizationId || !membership) throw new ApiError('NOT_FOUND');
    if (membership.role === 'viewer') throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.viewer');
    return organizationId;
  };

  const shareUrl = (ctx: RequestContext, kind: ShareResourceKind, id: string, token: string) => {
    const base = deps.publicAppUrl || `http://${ctx.headers.host ?? 'localhost'}`;
    return `${base}/studio/embed?${kind}_id=${id}&share_token=${token}`;
  };

  const routesFor = (kind: ShareResourceKind, prefix: string, param: string, ops: [string, string, string]): RouteDef[] => {
    const params = kind === 'collection' ? CollectionParams : ItineraryParams;
    const base = { scope: 'resources' as const, public: true, signedInOnly: true, params };
    const idOf = (ctx: RequestContext) => (ctx.params as Record<string, string>)[param] as string;
    const userIdOf = (ctx: RequestContext) => ((ctx.access as Access) as { user: { id: string } }).user.id;
    const answer = (ctx: RequestContext, id: string, token: string) => ({
      status: 201,
      json: { data: { token, url: shareUrl(ctx, kind, id, token) } },
    });
    return [
      {
        ...base,
        op: ops[0],
        summary: `Mint a read-only share link for the ${kind}`,
        method: 'POST',
        path: `${prefix}/{${param}}/share`,
        status: 201,
        handler: async (ctx) => {
          const id = idOf(ctx);
          const organizationId = authorize(ctx, kind, id);
          const { token } = await deps.writes.write(() =>
            deps.shareLinks.mint({ organizationId, resourceKind: kind, resourceId: id, createdBy: userIdOf(ctx) }),
          );
          return answer(ctx, id, token);
        },
      },
      {
        ...base,
        op: ops[1],
        summary: `Replace the ${kind}'s share link (the old URL stops working)`,
        method: 'POST',
        path: `${prefix}/{${param}}/share/rotate`,
        status: 201,
        handler: async (ctx) => {
          const id = idOf(ctx);
          authorize(ctx, kind, id);
          // The old token stops working in the same transaction that creates the new one.
          const rotated = await deps.writes.write(() => deps.shareLinks.rotate(kind, id, userIdOf(ctx)));
          if (!rotated) throw new ApiError('NOT_FOUND');
          return answer(ctx, id, rotated.token);
        },
      },
      {
        ...base,
        op: ops[2],
        summary: `Disable the ${kind}'s share link`,
        method: 'DELETE',
        path: `${prefix}/{${param}}/share`,
        status: 204,
        handler: async (ctx) => {
          const id = idOf(ctx);
          authorize(ctx, kind, id);
          if (!(await deps.writes.write(() => deps.shareLinks.disable(kind, id)))) throw new ApiError('NOT_FOUND');
          return { status: 204, json: null };
        },
      },
    ];
  };

  return [
    ...routesFor('collection', '/v1/collections', 'collection_id', [
      'postCollectionShare',
      'postCollectionShareRotate',
      'deleteCollectionShare',
    ]),
    ...routesFor('itinerary', '/v1/itineraries', 'itinerary_id', [
      'postItineraryShare',
      'postItineraryShareRotate',
      'deleteItineraryShare',
    ]),
  ];
}
