// The compact itinerary row of collection and grouped listings: the draft's bookkeeping for members and keys,
// the published snapshot's for share links (which never reach a draft).

import type { Itinerary } from '../../../data/model/itinerary.js';
import type { ItineraryRepository } from '../../../data/repositories.js';
import type { Privacy } from '../../../data/model/collection.js';
import { decodeSnapshot } from '../itineraries/published-snapshot.js';

export interface ItinerarySummaryView {
  id: string;
  name: string;
  description: string;
  activity: string;
  privacy: Privacy;
  /** The draft version, or the published one when read through a share link. */
  version: number;
  published_version: number | null;
  published_at: string | null;
}

/** The summary of the draft. */
export function draftSummary(itinerary: Itinerary): ItinerarySummaryView {
  return {
    id: itinerary.id,
    name: itinerary.name,
    description: itinerary.description,
    activity: itinerary.activity,
    privacy: itinerary.privacy,
    version: itinerary.draftVersion,
    published_version: itinerary.publishedVersion,
    published_at: itinerary.publishedAt,
  };
}

/**
 * The summary of the published snapshot: its name, description and activity when the snapshot records them
 * (a later draft rename must not leak through a link), the record's otherwise. Call only for published ones.
 */
export async function publishedSummary(itinerary: Itinerary, store: ItineraryRepository): Promise<ItinerarySummaryView> {
  const snapshot = decodeSnapshot(await store.publishedSnapshot(itinerary.id), itinerary);
  return {
    ...draftSummary(itinerary),
    name: snapshot?.name ?? itinerary.name,
    description: snapshot?.description ?? itinerary.description,
    activity: snapshot?.activity ?? itinerary.activity,
    version: itinerary.publishedVersion ?? itinerary.draftVersion,
  };
}
