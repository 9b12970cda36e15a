// REST bindings of the share-link operations (DESIGN §6: 14–16, 27–29); the rules live in ./share-operations.ts.

import type { RouteDef } from '../../http/route.js';
import { studioRest } from '../operations.js';
import type { shareOperations } from './share-operations.js';

export function shareRoutes(ops: ReturnType<typeof shareOperations>): RouteDef[] {
  const bind = (kind: 'collection' | 'itinerary') => {
    const [mint, rotate, disable] = ops[kind];
    // The spec's example answers the link in `data` with no `extensions`.
    const created = (data: unknown) => ({ status: 201, json: { data } });
    return [
      studioRest(mint, {
        status: 201,
        reply: created,
        summary: `Mint a read-only share link for the ${kind}`,
      }),
      studioRest(rotate, {
        status: 201,
        reply: created,
        summary: `Replace the ${kind}'s share link (the old URL stops working)`,
      }),
      studioRest(disable, { reply: 'empty', summary: `Disable the ${kind}'s share link` }),
    ];
  };
  return [...bind('collection'), ...bind('itinerary')];
}
