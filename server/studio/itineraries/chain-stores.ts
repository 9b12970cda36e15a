// The chain's stores (segments, waypoints, groups), one set per database connection.

import type { Database } from '../../../data/db.js';
import { SegmentGroupStore } from '../../../data/stores/segment-group-store.js';
import { SegmentStore } from '../../../data/stores/segment-store.js';
import { WaypointStore } from '../../../data/stores/waypoint-store.js';

export interface ChainStores {
  segments: SegmentStore;
  waypoints: WaypointStore;
  groups: SegmentGroupStore;
}

// The shared `Stores` bundle (data/stores/stores.ts) does not carry these yet; they are prepared once per
// connection here so that statements are compiled only once.
const cache = new WeakMap<Database, ChainStores>();

export function chainStores(db: Database): ChainStores {
  let stores = cache.get(db);
  if (!stores) {
    stores = { segments: new SegmentStore(db), waypoints: new WaypointStore(db), groups: new SegmentGroupStore(db) };
    cache.set(db, stores);
  }
  return stores;
}
