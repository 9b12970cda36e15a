// The Data API's itinerary read: the Studio read operation (getItinerary) with the same access rules,
// asked for the published snapshot unless the draft is named. Failure paths are relative to the input.

import type { Operation } from '../core/operation.js';
import { defineOperation } from '../core/operation.js';
import { ApiError } from '../errors.js';
import type { ItineraryView } from '../../contracts/itinerary-view.js';
import { DATA_REACH } from './directions-operation.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ItineraryRequest {
  id: string;
  version: 'draft' | 'published';
}

type StudioRead = Operation<{ itinerary_id: string; version?: 'draft' | 'published' }, ItineraryView>;

export function itineraryOperation(getItinerary: StudioRead) {
  return defineOperation({
    id: 'itinerary',
    scope: 'data',
    writes: false,
    reach: DATA_REACH,
    run(caller, input: ItineraryRequest, context): Promise<ItineraryView> {
      // Ids are uuids: anything else could never name an itinerary, and saying so helps more than a 404.
      if (!UUID.test(input.id)) throw ApiError.validation([{ path: ['id'], messageKey: 'VALIDATION_FAILED.format_uuid' }]);
      return getItinerary.run(caller, { itinerary_id: input.id.toLowerCase(), version: input.version }, context);
    },
  });
}
