// REST bindings of the share-link operations (DESIGN §6: 14–16, 27–29); the rules live in ./share-operations.ts.

import { Type } from '@sinclair/typebox';
import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import type { shareOperations } from './share-operations.js';

const CollectionParams = Type.Object({ collection_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const ItineraryParams = Type.Object({ itinerary_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export function shareRoutes(ops: ReturnType<typeof shareOperations>): RouteDef[] {
  const bind = (kind: 'collection' | 'itinerary') => {
    const [mint, rotate, disable] = ops[kind];
    const params = kind === 'collection' ? CollectionParams : ItineraryParams;
    // The spec's example answers the link in `data` with no `extensions`.
    const created = (data: unknown) => ({ status: 201, json: { data } });
    return [
      studioRest(mint, {
        params,
        status: 201,
        reply: created,
        summary: `Mint a read-only share link for the ${kind}`,
      }),
      studioRest(rotate, {
        params,
        status: 201,
        reply: created,
        summary: `Replace the ${kind}'s share link (the old URL stops working)`,
      }),
      studioRest(disable, { params, reply: 'empty', summary: `Disable the ${kind}'s share link` }),
    ];
  };
  return [...bind('collection'), ...bind('itinerary')];
}
