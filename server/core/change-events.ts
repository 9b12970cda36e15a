// Typed change events and the pub/sub interface they travel on. The unit of work publishes them after the
// commit that holds the change (never before, never for a refused write). In memory today; the live
// channel, tile-cache invalidation and webhooks subscribe, and a Redis adapter carries them across nodes.

import type { LockPartType } from '../../data/model/lock.js';

/** A lock part as events carry it. */
export interface LockedPart {
  type: LockPartType;
  id: string;
}

export type ChangeEvent =
  | { type: 'itinerary.draft_changed'; organizationId: string; itineraryId: string; version: number }
  | { type: 'itinerary.published'; organizationId: string; itineraryId: string; version: number }
  | { type: 'itinerary.deleted'; organizationId: string; itineraryId: string }
  | { type: 'lock.taken'; itineraryId: string; holderId: string; parts: LockedPart[] }
  | { type: 'lock.released'; itineraryId: string; holderId: string; parts: LockedPart[] }
  | { type: 'lock.expired'; itineraryId: string; holderId: string; parts: LockedPart[] }
  | { type: 'collection.changed'; organizationId: string; collectionId: string; change: 'created' | 'updated' | 'deleted' | 'items' }
  | { type: 'zone.changed'; organizationId: string; zoneId: string; change: 'created' | 'updated' | 'deleted' }
  | { type: 'key.revoked'; organizationId: string; keyId: string }
  /** The resource's share link changed (minted anew, rotated or disabled): every other link of it is dead. */
  | {
      type: 'share.revoked';
      organizationId: string;
      resourceKind: 'collection' | 'itinerary';
      resourceId: string;
      keptLinkId: string | null;
    }
  | { type: 'membership.removed'; organizationId: string; userId: string }
  | { type: 'organization.settings_changed'; organizationId: string }
  /**
   * Not a stored change: who has an itinerary open on one node (the live channel's presence), told to the other
   * nodes of a scaled-out deployment, again every few seconds while anyone is there and once more when the last
   * one leaves (empty). Published by the live hub itself, never by a unit of work.
   */
  | { type: 'presence.node'; node: string; itineraryId: string; members: PresenceOfNode[]; anonymous: number };

/** One member's sockets on one node, as `presence.node` carries them. */
export interface PresenceOfNode {
  user: { id: string; name: string };
  colour: string;
  mode: 'viewing' | 'editing';
  connections: number;
}

export type ChangeEventType = ChangeEvent['type'];
export type ChangeListener = (event: ChangeEvent) => void;

/** Where committed changes are announced. `subscribe` returns the function that unsubscribes. */
export interface ChangeEventBus {
  publish(events: readonly ChangeEvent[]): void;
  subscribe(listener: ChangeListener): () => void;
}

/**
 * The in-process bus: listeners run synchronously, in publication order. A listener that throws is reported
 * and skipped; it never fails the write that was already committed and answered.
 */
export class MemoryChangeEventBus implements ChangeEventBus {
  readonly #listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  publish(events: readonly ChangeEvent[]): void {
    if (this.#listeners.size === 0) return;
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.onListenerError(error);
        }
      }
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
