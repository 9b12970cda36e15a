// Every Studio operation, built once at start from the shared dependencies: the REST bindings, seeding and
// (later) GraphQL, MCP and the agent all call these same objects.

import { collectionOperations } from './collections/collection-operations.js';
import { itineraryOperations } from './itineraries/itinerary-operations.js';
import { shareOperations } from './shares/share-operations.js';
import type { StudioDeps } from './studio-deps.js';
import { transferOperations } from './transfer/transfer-operations.js';
import { zoneOperations } from './zones/zone-operations.js';

export type StudioOperations = ReturnType<typeof createStudioOperations>;

export function createStudioOperations(deps: StudioDeps) {
  return {
    collections: collectionOperations(deps),
    itineraries: itineraryOperations(deps),
    zones: zoneOperations(deps),
    shares: shareOperations(deps),
    transfer: transferOperations(deps),
  };
}
