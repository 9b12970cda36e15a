// Share links of collections and itineraries, transport-free: mint, rotate, disable (signed-in members with
// a write role only; the policy decides). The link's URL points at the embed page of the app host.

import type { ShareResourceKind } from '../../../data/model/share-link.js';
import { Type } from '@sinclair/typebox';
import { defineOperation, inputObject, type Operation, SIGNED_IN_REACH } from '../../core/operation.js';
import { ApiError } from '../../errors.js';
import type { StudioDeps } from '../studio-deps.js';

export interface ShareLinkView {
  token: string;
  url: string;
}

type ShareOperations = [
  Operation<Record<string, string>, ShareLinkView>,
  Operation<Record<string, string>, ShareLinkView>,
  Operation<Record<string, string>, void>,
];

/** The shared resource's id, in the path. */
const ResourceParams = {
  collection: Type.Object({ collection_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
  itinerary: Type.Object({ itinerary_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
};

export function shareOperations(deps: StudioDeps) {
  const { shareLinks } = deps.stores;
  const { policy } = deps;
  const base = { scope: 'resources' as const, writes: true, reach: SIGNED_IN_REACH };

  const url = (origin: string, kind: ShareResourceKind, id: string, token: string) =>
    `${deps.config.publicAppUrl || origin}/studio/embed?${kind}_id=${id}&share_token=${token}`;

  const operationsFor = (kind: ShareResourceKind, ids: [string, string, string]): ShareOperations => {
    const idField = `${kind}_id`;
    const input = inputObject({ params: ResourceParams[kind] });
    return [
      defineOperation({
        id: ids[0],
        ...base,
        input,
        async run(caller, input: Record<string, string>, { origin }) {
          const id = input[idField] as string;
          const { organizationId, userId } = await policy.shareManager(caller, kind, id);
          const { token } = await deps.writes.write(async ({ emit }) => {
            const minted = await shareLinks.mint({ organizationId, resourceKind: kind, resourceId: id, createdBy: userId });
            emit({ type: 'share.revoked', organizationId, resourceKind: kind, resourceId: id, keptLinkId: minted.link.id });
            return minted;
          });
          return { token, url: url(origin, kind, id, token) };
        },
      }),
      defineOperation({
        id: ids[1],
        ...base,
        input,
        async run(caller, input: Record<string, string>, { origin }) {
          const id = input[idField] as string;
          const { userId } = await policy.shareManager(caller, kind, id);
          // The old token stops working in the same transaction that creates the new one.
          const rotated = await deps.writes.write(async ({ emit }) => {
            const next = await shareLinks.rotate(kind, id, userId);
            if (next)
              emit({
                type: 'share.revoked',
                organizationId: next.link.organizationId,
                resourceKind: kind,
                resourceId: id,
                keptLinkId: next.link.id,
              });
            return next;
          });
          if (!rotated) throw new ApiError('NOT_FOUND');
          return { token: rotated.token, url: url(origin, kind, id, rotated.token) };
        },
      }),
      defineOperation({
        id: ids[2],
        ...base,
        input,
        async run(caller, input: Record<string, string>) {
          const id = input[idField] as string;
          const { organizationId } = await policy.shareManager(caller, kind, id);
          const disabled = await deps.writes.write(async ({ emit }) => {
            const done = await shareLinks.disable(kind, id);
            if (done) emit({ type: 'share.revoked', organizationId, resourceKind: kind, resourceId: id, keptLinkId: null });
            return done;
          });
          if (!disabled) throw new ApiError('NOT_FOUND');
        },
      }),
    ];
  };

  return {
    collection: operationsFor('collection', ['postCollectionShare', 'postCollectionShareRotate', 'deleteCollectionShare']),
    itinerary: operationsFor('itinerary', ['postItineraryShare', 'postItineraryShareRotate', 'deleteItineraryShare']),
  };
}
