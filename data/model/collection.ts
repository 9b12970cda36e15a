// Collections (organization or personal scope) and the itineraries and zones filed in them.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';

export const COLLECTION_SCOPES = ['organization', 'personal'] as const;
export type CollectionScope = (typeof COLLECTION_SCOPES)[number];
export const PRIVACIES = ['public', 'private'] as const;
export type Privacy = (typeof PRIVACIES)[number];

export interface Collection {
  id: string;
  organizationId: string;
  scope: CollectionScope;
  /** The owner of a personal collection; null for organization collections. */
  ownerUserId: string | null;
  name: string;
  description: string;
  privacy: Privacy;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionCreate {
  organizationId: string;
  scope?: CollectionScope;
  /** Required for scope 'personal', forbidden for 'organization'. */
  ownerUserId?: string | null;
  name: string;
  description?: string;
  privacy?: Privacy;
  createdBy?: string | null;
}

export interface CollectionListOptions {
  scope?: CollectionScope;
  ownerUserId?: string;
  /** Only public collections (listings with a bare publishable key). */
  publicOnly?: boolean;
  limit?: number;
  offset?: number;
}

export interface CollectionRow {
  id: string;
  organization_id: string;
  scope: CollectionScope;
  owner_user_id: string | null;
  name: string;
  description: string;
  privacy: Privacy;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    organizationId: row.organization_id,
    scope: row.scope,
    ownerUserId: row.owner_user_id,
    name: row.name,
    description: row.description,
    privacy: row.privacy,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const COLUMNS = 'id, organization_id, scope, owner_user_id, name, description, privacy, created_by, created_at, updated_at';

/** WHERE clause shared by list and count; NULL parameters switch a filter off. */
/** Fields a partial update may change (scope and owner never change). */
export interface CollectionPatch {
  name?: string;
  description?: string;
  privacy?: Privacy;
}

/** Which collections holding an item a caller may see (`getItineraryCollections`, `getZoneCollections`). */
export interface HoldingListOptions {
  /** Organization collections: only public ones (listing with a bare publishable key). */
  publicOnly: boolean;
  /** Personal collections are listed only for their owner; null lists none. */
  viewerUserId: string | null;
  limit: number;
  offset: number;
}

/** The row of a new collection: organization scope unless told; only a personal collection has an owner. */
export function newCollectionRow(input: CollectionCreate, now = nowIso()): CollectionRow {
  const scope = input.scope ?? 'organization';
  return {
    id: randomUUID(),
    organization_id: input.organizationId,
    scope,
    owner_user_id: scope === 'personal' ? (input.ownerUserId ?? null) : null,
    name: input.name,
    description: input.description ?? '',
    privacy: input.privacy ?? 'private',
    created_by: input.createdBy ?? input.ownerUserId ?? null,
    created_at: now,
    updated_at: now,
  };
}

export function toCollectionRow(collection: Collection): CollectionRow {
  return {
    id: collection.id,
    organization_id: collection.organizationId,
    scope: collection.scope,
    owner_user_id: collection.ownerUserId,
    name: collection.name,
    description: collection.description,
    privacy: collection.privacy,
    created_by: collection.createdBy,
    created_at: collection.createdAt,
    updated_at: collection.updatedAt,
  };
}
