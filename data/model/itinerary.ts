// Itineraries: the record and its draft/published bookkeeping.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../db.js';
import type { Privacy } from './collection.js';

export const ACTIVITIES = ['HIKING_AND_TRAIL', 'WALKING', 'TRAIL_RUNNING', 'MOUNTAIN_BIKING', 'ROAD_CYCLING'] as const;
export type Activity = (typeof ACTIVITIES)[number];

export interface Itinerary {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  activity: Activity;
  privacy: Privacy;
  createdBy: string | null;
  draftVersion: number;
  /** Version of the draft that was published; null when never published. */
  publishedVersion: number | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ItineraryCreate {
  organizationId: string;
  name: string;
  description?: string;
  activity?: Activity;
  privacy?: Privacy;
  createdBy?: string | null;
}

export interface ItineraryRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  activity: Activity;
  privacy: Privacy;
  created_by: string | null;
  draft_version: number;
  published_version: number | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The columns an itinerary is read from, in the order `fromValues` takes their values. */
const ITINERARY_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'activity',
  'privacy',
  'created_by',
  'draft_version',
  'published_version',
  'published_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ItineraryRow)[];

export const COLUMNS = ITINERARY_COLUMNS.join(', ');

/** The values of one row of COLUMNS, in their order: what the hot statements return (`raw` mode). */
export type ItineraryValues = {
  -readonly [I in keyof typeof ITINERARY_COLUMNS]: (typeof ITINERARY_COLUMNS)[I] extends keyof ItineraryRow
    ? ItineraryRow[(typeof ITINERARY_COLUMNS)[I]]
    : never;
};

/**
 * An itinerary from the values of COLUMNS. The hot statements (every edit, every read's access check) read rows
 * in `raw` mode: better-sqlite3 makes an array of values in ~60% of the time it takes to make a row object.
 */
export function fromValues(v: ItineraryValues): Itinerary {
  return {
    id: v[0],
    organizationId: v[1],
    name: v[2],
    description: v[3],
    activity: v[4],
    privacy: v[5],
    createdBy: v[6],
    draftVersion: v[7],
    publishedVersion: v[8],
    publishedAt: v[9],
    createdAt: v[10],
    updatedAt: v[11],
  };
}

/** An itinerary from a row object (the other statements, and the PostgreSQL adapter). */
export function toItinerary(row: ItineraryRow): Itinerary {
  return fromValues(ITINERARY_COLUMNS.map((column) => row[column]) as unknown as ItineraryValues);
}

/** Filters of one page of a collection's itineraries. */
export interface CollectionItineraryOptions {
  /** Only public itineraries (listing with a bare publishable key). */
  publicOnly: boolean;
  /** Only itineraries that have been published (share tokens). */
  publishedOnly: boolean;
  limit: number;
  offset: number;
}

/** Filters of `listGrouped` (GET /v1/itineraries). */
export interface GroupedListOptions {
  /** The organizations whose itineraries are listed. */
  organizationIds: string[];
  /** The grouping collections, in display order; an itinerary goes to the first one holding it. */
  collectionIds: string[];
  publicOnly: boolean;
  limit: number;
  offset: number;
}

/** One row of `listGrouped`: the itinerary and the index of its group in `collectionIds` (null: in none). */
export interface GroupedItinerary {
  itinerary: Itinerary;
  group: number | null;
}

/** The record's fields a PATCH may change (column names equal the field names). */
export const UPDATABLE = ['name', 'description', 'activity', 'privacy'] as const;

export const PREFIXED = ITINERARY_COLUMNS.map((c) => `i.${c}`).join(', ');

/** The row of a new itinerary: draft version 1, never published. */
export function newItineraryRow(input: ItineraryCreate, now = nowIso()): ItineraryRow {
  return {
    id: randomUUID(),
    organization_id: input.organizationId,
    name: input.name,
    description: input.description ?? '',
    activity: input.activity ?? 'HIKING_AND_TRAIL',
    privacy: input.privacy ?? 'private',
    created_by: input.createdBy ?? null,
    draft_version: 1,
    published_version: null,
    published_at: null,
    created_at: now,
    updated_at: now,
  };
}
