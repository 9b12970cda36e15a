// GET /v1/itineraries: the caller's itineraries grouped by collection. Without `organization_id` the groups are
// the caller's personal collections (a key has no identity, so none); with it, that organization's
// collections as its listing shows them. Each itinerary appears once, in the first group holding it, and the
// ones in no group come last under `collection: null`.

import type { Collection } from '../../../data/model/collection.js';
import type { Repositories } from '../../../data/repositories.js';
import type { Access } from '../../auth/access.js';
import { listsPrivate, organizationOf } from '../../core/policy.js';
import { ApiError } from '../../errors.js';
import { draftSummary, type ItinerarySummaryView } from './itinerary-summary.js';
import type { Page } from './pagination.js';

/** SQLite's "no limit": every grouping collection takes part, whatever the page. */
const ALL = -1;

export interface ItineraryGroup {
  collection: { id: string; name: string; privacy: Collection['privacy'] } | null;
  itineraries: ItinerarySummaryView[];
}

export function createItineraryGrouping(deps: { stores: Repositories }) {
  const { collections, itineraries } = deps.stores;

  /** Which organizations, which grouping collections, and whether private itineraries are listed. */
  const scopeOf = async (access: Access, organizationId: string | undefined) => {
    if (organizationId !== undefined) {
      const org = organizationOf(access, organizationId);
      const publicOnly = !listsPrivate(access, org);
      const groups = (await collections.list(org, { scope: 'organization', publicOnly, limit: ALL })).items;
      return { organizationIds: [org], groups, publicOnly };
    }
    if (access.kind === 'key') {
      const org = access.organization.id;
      return { organizationIds: [org], groups: [], publicOnly: !listsPrivate(access, org) };
    }
    if (access.kind === 'user') {
      const organizationIds = [...access.memberships.keys()];
      const groups = (await collections.listPersonal(access.user.id, { limit: ALL })).items;
      return { organizationIds, groups, publicOnly: false };
    }
    throw new ApiError('FORBIDDEN');
  };

  return {
    /** A page of groups; `count` is the number of itineraries in it. */
    async list(access: Access, organizationId: string | undefined, page: Page) {
      const { organizationIds, groups, publicOnly } = await scopeOf(access, organizationId);
      const { items, total } = await itineraries.listGrouped({
        organizationIds,
        collectionIds: groups.map((g) => g.id),
        publicOnly,
        ...page,
      });
      const data: ItineraryGroup[] = [];
      let current: ItineraryGroup | undefined;
      let currentIndex: number | null | undefined;
      for (const { itinerary, group } of items) {
        if (!current || currentIndex !== group) {
          const c = group === null ? undefined : groups[group];
          current = { collection: c ? { id: c.id, name: c.name, privacy: c.privacy } : null, itineraries: [] };
          currentIndex = group;
          data.push(current);
        }
        current.itineraries.push(draftSummary(itinerary));
      }
      return { groups: data, count: items.length, total };
    },
  };
}
