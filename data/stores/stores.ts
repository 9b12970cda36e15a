// Builds every store over one database connection (called once from the composition root).
import type { Database } from '../db.js';
import { ApiKeyStore } from './api-key-store.js';
import { CollectionStore } from './collection-store.js';
import { ItineraryStore } from './itinerary-store.js';
import { LockStore } from './lock-store.js';
import { MembershipStore } from './membership-store.js';
import { OAuthStore } from './oauth-store.js';
import { OrganizationStore } from './organization-store.js';
import { SegmentGroupStore } from './segment-group-store.js';
import { SegmentStore } from './segment-store.js';
import { SettingsStore } from './settings-store.js';
import { ShareLinkStore } from './share-link-store.js';
import { UsageStore } from './usage-store.js';
import { UserStore } from './user-store.js';
import { WaypointStore } from './waypoint-store.js';
import { ZoneStore } from './zone-store.js';

export interface Stores {
  organizations: OrganizationStore;
  users: UserStore;
  memberships: MembershipStore;
  apiKeys: ApiKeyStore;
  usage: UsageStore;
  settings: SettingsStore;
  collections: CollectionStore;
  itineraries: ItineraryStore;
  /** An itinerary's chain: its segments, waypoints and segment groups. */
  segments: SegmentStore;
  waypoints: WaypointStore;
  segmentGroups: SegmentGroupStore;
  zones: ZoneStore;
  shareLinks: ShareLinkStore;
  locks: LockStore;
  oauth: OAuthStore;
}

/** Prepares every store's statements once. Stores hold no caches: reads always reach SQLite. */
export function createStores(db: Database): Stores {
  return {
    organizations: new OrganizationStore(db),
    users: new UserStore(db),
    memberships: new MembershipStore(db),
    apiKeys: new ApiKeyStore(db),
    usage: new UsageStore(db),
    settings: new SettingsStore(db),
    collections: new CollectionStore(db),
    itineraries: new ItineraryStore(db),
    segments: new SegmentStore(db),
    waypoints: new WaypointStore(db),
    segmentGroups: new SegmentGroupStore(db),
    zones: new ZoneStore(db),
    shareLinks: new ShareLinkStore(db),
    locks: new LockStore(db),
    oauth: new OAuthStore(db),
  };
}
