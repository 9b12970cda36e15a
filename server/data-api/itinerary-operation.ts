// The Data API's itinerary read: the Studio read operation (getItinerary) with the same access rules,
// asked for the published snapshot unless the draft is named. Failure paths are relative to the input.

import { defineOperation, type Operation } from '../core/operation.js';
import type { ItineraryView } from '../../contracts/itinerary-view.js';
import { ItineraryInput } from './data-inputs.js';
import { DATA_REACH } from './directions-operation.js';

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
    input: ItineraryInput,
    run(caller, input: ItineraryRequest, context): Promise<ItineraryView> {
      // A checked uuid and version are a valid Studio read: not checked again.
      return getItinerary.runValidated(caller, { itinerary_id: input.id.toLowerCase(), version: input.version }, context);
    },
  });
}
