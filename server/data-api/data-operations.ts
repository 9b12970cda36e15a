// Every Data API operation, built once at start from the shared dependencies (server/app.ts): the GraphQL
// resolvers call these, and later MCP's tools will too. Reads of Studio resources go through the Studio
// operations themselves, so the access rules stay in one place.

import type { ServedRegions } from '../regions/region-set.js';
import type { WorkerPool } from '../pool/pool.js';
import type { StudioOperations } from '../studio/studio-operations.js';
import { directionsOperation } from './directions-operation.js';
import { itineraryOperation } from './itinerary-operation.js';
import { regionOperations } from './region-operations.js';
import { zoneSearchOperation } from './zone-search-operation.js';

export type DataOperations = ReturnType<typeof createDataOperations>;

export function createDataOperations(deps: { pool: WorkerPool | undefined; regions?: ServedRegions; studio: StudioOperations }) {
  return {
    directions: directionsOperation({ pool: deps.pool }),
    itinerary: itineraryOperation(deps.studio.itineraries.getItinerary),
    zones: zoneSearchOperation({ pool: deps.pool, getZones: deps.studio.zones.getZones }),
    ...regionOperations({ pool: deps.pool, ...(deps.regions ? { regions: deps.regions } : {}) }),
  };
}
