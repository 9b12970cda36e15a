// What a publication freezes, in the domain's shape: the itinerary's own fields as they were and its chain.
// The itinerary store keeps it as JSON (unknown elevations, NaN in the chain, are stored as null); every
// surface renders its own view from it. Snapshots written before this shape held the REST view itself;
// they are still read.

import type { Privacy } from '../../../data/model/collection.js';
import type { Activity, Itinerary } from '../../../data/model/itinerary.js';
import { type Chain, toCoord } from './chain.js';
import type { ItineraryView } from '../../../contracts/itinerary-view.js';
import { itineraryView } from './itinerary-view.js';

export interface PublishedSnapshot {
  name: string;
  description: string;
  activity: Activity;
  privacy: Privacy;
  /** The draft version that was published. */
  version: number;
  createdAt: string;
  updatedAt: string;
  chain: Chain;
}

/** Marks a stored snapshot as domain-shaped (older ones are REST views and carry no format). */
const FORMAT = 'domain-1';

/** The snapshot of `itinerary` with `chain`, as publishing freezes it. */
export function snapshotOf(itinerary: Itinerary, chain: Chain): PublishedSnapshot {
  return {
    name: itinerary.name,
    description: itinerary.description,
    activity: itinerary.activity,
    privacy: itinerary.privacy,
    version: itinerary.draftVersion,
    createdAt: itinerary.createdAt,
    updatedAt: itinerary.updatedAt,
    chain,
  };
}

/** The JSON value the store keeps (NaN elevations become null). */
export function encodeSnapshot(snapshot: PublishedSnapshot): unknown {
  return JSON.parse(JSON.stringify({ format: FORMAT, ...snapshot }, (_key, value: unknown) => (Number.isNaN(value) ? null : value)));
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const nullableText = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const position = (value: unknown) => toCoord((Array.isArray(value) ? value : []).map((n) => (typeof n === 'number' ? n : Number.NaN)));

/** A REST view stored by earlier versions, as a domain snapshot (fields it lacks come from the record). */
function fromView(view: Json, itinerary: Itinerary): PublishedSnapshot {
  return {
    name: text(view.name, itinerary.name),
    description: text(view.description, itinerary.description),
    activity: text(view.activity, itinerary.activity) as Activity,
    privacy: text(view.privacy, itinerary.privacy) as Privacy,
    version: typeof view.version === 'number' ? view.version : (itinerary.publishedVersion ?? itinerary.draftVersion),
    createdAt: text(view.created_at, itinerary.createdAt),
    updatedAt: text(view.updated_at, itinerary.updatedAt),
    chain: {
      waypoints: list(view.waypoints).map((w) => ({
        id: String(w.id),
        name: (w.name as string | null) ?? null,
        kind: (w.kind as string | null) ?? null,
        description: nullableText(w.description),
        coord: position(w.coordinates),
      })),
      segments: list(view.segments).map((s) => ({
        id: String(s.id),
        engine: s.engine as Chain['segments'][number]['engine'],
        geometry: (isObject(s.geometry) && Array.isArray(s.geometry.coordinates) ? s.geometry.coordinates : []).map(position),
        distance: Number(s.distance ?? 0),
        ascent: Number(s.ascent ?? 0),
        descent: Number(s.descent ?? 0),
        duration: Number(s.duration ?? 0),
        name: (s.name as string | null) ?? null,
        description: (s.description as string | null) ?? null,
        groupId: (s.groupId as string | null) ?? null,
        // Snapshots published before segments carried hazards have none.
        hazards: Array.isArray(s.hazards)
          ? (s.hazards as { kind: 'TOLLWAY' | 'RESTRICTED_ACCESS'; from_distance: number; to_distance: number }[]).map((h) => ({
              kind: h.kind,
              from: Number(h.from_distance),
              to: Number(h.to_distance),
            }))
          : [],
      })),
      groups: list(view.groups).map((g) => ({
        id: String(g.id),
        name: text(g.name, ''),
        color: text(g.color, ''),
        speed: typeof g.speed === 'number' ? g.speed : null,
      })),
    },
  };
}

/** The snapshot the store kept for `itinerary` (either shape); undefined when none. */
export function decodeSnapshot(stored: unknown, itinerary: Itinerary): PublishedSnapshot | undefined {
  if (!isObject(stored)) return undefined;
  if (stored.format !== FORMAT) return fromView(stored, itinerary);
  const snapshot = stored as unknown as PublishedSnapshot;
  const chain = snapshot.chain;
  return {
    ...snapshot,
    chain: {
      // Snapshots published before waypoints carried a description have none.
      waypoints: chain.waypoints.map((w) => ({ ...w, description: nullableText(w.description), coord: position(w.coord) })),
      segments: chain.segments.map((s) => ({ ...s, geometry: s.geometry.map(position) })),
      groups: chain.groups,
    },
  };
}

/** The published itinerary as the Studio API shows it: the snapshot, with the record's publication fields. */
export function publishedView(itinerary: Itinerary, snapshot: PublishedSnapshot): ItineraryView {
  const { chain, version, ...fields } = snapshot;
  return itineraryView({ ...itinerary, ...fields, draftVersion: version }, chain);
}
