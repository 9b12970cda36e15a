// The better-sqlite3 adapter of the repositories (./repositories.ts): the synchronous stores of ./stores/ on
// one connection, each result handed back as a settled promise. Statements run at once, in the caller's
// turn (so a unit of work's statements still land in its savepoint); only the interface is asynchronous.
// The credential path's reads (keys, organizations, members, users) are answered from memory when
// committed and unchanged (./committed-read-cache.ts).

import { CommittedReadCache, withCachedReads } from './committed-read-cache.js';
import type { Database } from './db.js';
import type { Repositories } from './repositories.js';
import { createStores, type Stores } from './stores/stores.js';

/** `T`'s methods, each resolving to what it returns (or rejecting with what it throws). */
export type Asynchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The asynchronous face of a synchronous store. */
export function asynchronous<T extends object>(store: T): Asynchronous<T> {
  const face: Record<string, unknown> = {};
  // A store's methods live on its class; a decorated store (./committed-read-cache.ts) has them as its own.
  const names =
    Object.getPrototypeOf(store) === Object.prototype ? Object.keys(store) : Object.getOwnPropertyNames(Object.getPrototypeOf(store));
  for (const name of names) {
    const method = (store as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    face[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method.apply(store, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return face as Asynchronous<T>;
}

/** Every repository over `db` (statements are prepared once, here). */
export function createSqliteRepositories(db: Database): Repositories {
  const stores: Stores = createStores(db);
  const cache = new CommittedReadCache(db);
  return {
    organizations: asynchronous(withCachedReads(stores.organizations, cache, 'organizations', ['get'])),
    users: asynchronous(withCachedReads(stores.users, cache, 'users', ['get'])),
    memberships: asynchronous(withCachedReads(stores.memberships, cache, 'memberships', ['get', 'listByUser'])),
    apiKeys: asynchronous(withCachedReads(stores.apiKeys, cache, 'apiKeys', ['get', 'findPublishable', 'findSecretByHash'])),
    usage: asynchronous(stores.usage),
    settings: asynchronous(stores.settings),
    collections: asynchronous(stores.collections),
    itineraries: asynchronous(stores.itineraries),
    segments: asynchronous(stores.segments),
    waypoints: asynchronous(stores.waypoints),
    segmentGroups: asynchronous(stores.segmentGroups),
    zones: asynchronous(stores.zones),
    shareLinks: asynchronous(stores.shareLinks),
    locks: asynchronous(stores.locks),
    oauth: asynchronous(stores.oauth),
  };
}
