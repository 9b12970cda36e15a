// The itinerary chain in memory: waypoints W0..Wn, segments S1..Sn (Si from W(i-1) to Wi), flat groups.
// Operations build a new Chain from the current one; `sealChain` makes the joints exact and `saveChain`
// writes the difference.

import { randomUUID } from 'node:crypto';
import type { SegmentEngine, SegmentHazard } from '../../../data/model/segment.js';
import type { Repositories } from '../../../data/repositories.js';

/** The stores an itinerary's chain lives in. */
export type ChainStores = Pick<Repositories, 'segments' | 'waypoints' | 'segmentGroups'>;

/** lon, lat (degrees), ele (metres; NaN = unknown). */
export type Coord = [number, number, number];

export interface ChainWaypoint {
  id: string;
  name: string | null;
  kind: string | null;
  description: string | null;
  coord: Coord;
}

export interface ChainSegment {
  id: string;
  engine: SegmentEngine;
  geometry: Coord[];
  distance: number; // m
  ascent: number; // m
  descent: number; // m
  duration: number; // s
  name: string | null;
  description: string | null;
  groupId: string | null;
  /** Restrictions the line crosses for the itinerary's activity (toll, access-restricted), metres along it. */
  hazards: SegmentHazard[];
}

export interface ChainGroup {
  id: string;
  name: string;
  color: string;
  speed: number | null;
}

export interface Chain {
  waypoints: ChainWaypoint[];
  segments: ChainSegment[];
  groups: ChainGroup[];
}

/** A line with its measures (what routing or measuring a segment gives). */
export interface MeasuredGeometry {
  geometry: Coord[];
  distance: number;
  ascent: number;
  descent: number;
  duration: number;
  hazards: SegmentHazard[];
}

export const newId = (): string => randomUUID();

export function toCoord(p: readonly number[]): Coord {
  const ele = p.length > 2 && typeof p[2] === 'number' && Number.isFinite(p[2]) ? p[2] : Number.NaN;
  return [p[0] as number, p[1] as number, ele];
}

/** Same place (longitude and latitude, exactly). */
export function samePlace(a: readonly number[], b: readonly number[]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Joins two lines that meet at a shared vertex (the first of `b` is dropped). */
export function joinLines(a: readonly Coord[], b: readonly Coord[]): Coord[] {
  return [...a.map((c) => [...c] as Coord), ...b.slice(1).map((c) => [...c] as Coord)];
}

export function cloneChain(chain: Chain): Chain {
  return structuredClone(chain);
}

/** A new waypoint at `coord`, with the text a file gave it (import), else none. */
export function newWaypoint(coord: Coord, text: Partial<Pick<ChainWaypoint, 'name' | 'kind' | 'description'>> = {}): ChainWaypoint {
  return {
    id: newId(),
    name: text.name ?? null,
    kind: text.kind ?? null,
    description: text.description ?? null,
    coord: [...coord] as Coord,
  };
}

export function newSegment(engine: SegmentEngine, line: MeasuredGeometry): ChainSegment {
  return { id: newId(), engine, ...line, name: null, description: null, groupId: null };
}

/** The hazards of two consecutive lines joined into one: the second's shifted by the first's length. */
export function joinedHazards(a: { distance: number; hazards: SegmentHazard[] }, b: { hazards: SegmentHazard[] }): SegmentHazard[] {
  return [...a.hazards, ...b.hazards.map((h) => ({ ...h, from: h.from + a.distance, to: h.to + a.distance }))];
}

/** The hazards of a line cut `at` metres from its start: those of the head, and those of the tail from its own start. */
export function splitHazards(hazards: readonly SegmentHazard[], at: number): [SegmentHazard[], SegmentHazard[]] {
  const head: SegmentHazard[] = [];
  const tail: SegmentHazard[] = [];
  for (const h of hazards) {
    if (h.from < at) head.push({ ...h, to: Math.min(h.to, at) });
    if (h.to > at) tail.push({ ...h, from: Math.max(h.from, at) - at, to: h.to - at });
  }
  return [head, tail];
}

/** Replaces a segment's line and measures, keeping its identity and descriptive fields. */
export function withLine(segment: ChainSegment, line: MeasuredGeometry, engine = segment.engine): ChainSegment {
  return { ...segment, engine, ...line };
}

/**
 * Makes the chain exact: every joint vertex is the waypoint's coordinate to the last bit (longitude and
 * latitude from the waypoint, elevation from the segment end that reaches it), every line has two points,
 * groups without segments disappear and dangling group references are cleared.
 */
export function sealChain(chain: Chain): Chain {
  const { waypoints, segments } = chain;
  if (segments.length === 0) return { waypoints: [], segments: [], groups: [] };
  if (waypoints.length !== segments.length + 1) throw new Error('chain has mismatched waypoints and segments');
  for (const s of segments) if (s.geometry.length === 1) s.geometry.push([...s.geometry[0]!] as Coord);
  waypoints.forEach((w, j) => {
    const before = j > 0 ? segments[j - 1]! : undefined;
    const after = segments[j];
    const ele = before ? before.geometry[before.geometry.length - 1]![2] : after!.geometry[0]![2];
    const coord: Coord = [w.coord[0], w.coord[1], Number.isFinite(ele) ? ele : w.coord[2]];
    w.coord = coord;
    if (before) before.geometry[before.geometry.length - 1] = [...coord] as Coord;
    if (after) after.geometry[0] = [...coord] as Coord;
  });
  const used = new Set(segments.map((s) => s.groupId).filter((g): g is string => g !== null));
  const groups = chain.groups.filter((g) => used.has(g.id));
  const known = new Set(groups.map((g) => g.id));
  for (const s of segments) if (s.groupId !== null && !known.has(s.groupId)) s.groupId = null;
  return { waypoints, segments, groups };
}

/** Reads an itinerary's chain from the stores. */
export async function loadChain(stores: ChainStores, itineraryId: string): Promise<Chain> {
  const [waypoints, segments, groups] = await Promise.all([
    stores.waypoints.listByItinerary(itineraryId),
    stores.segments.listByItinerary(itineraryId),
    stores.segmentGroups.listByItinerary(itineraryId),
  ]);
  return {
    waypoints: waypoints.map((w) => ({
      id: w.id,
      name: w.name,
      kind: w.kind,
      description: w.description,
      coord: [w.lon, w.lat, w.ele ?? Number.NaN],
    })),
    segments: segments.map((s) => ({
      id: s.id,
      engine: s.engine,
      geometry: s.geometry.map(toCoord),
      distance: s.distance,
      ascent: s.ascent,
      descent: s.descent,
      duration: s.duration,
      name: s.name,
      description: s.description,
      groupId: s.groupId,
      hazards: s.hazards ?? [],
    })),
    groups: groups.map((g) => ({ id: g.id, name: g.name, color: g.color, speed: g.speed })),
  };
}

const key = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (Number.isNaN(v) ? 'NaN' : v));

/** Writes what differs between `before` and `after` (call inside a unit of work). */
export async function saveChain(stores: ChainStores, itineraryId: string, before: Chain, after: Chain): Promise<void> {
  const beforeGroups = new Map(before.groups.map((g) => [g.id, key(g)]));
  for (const g of after.groups) {
    if (beforeGroups.get(g.id) !== key(g)) await stores.segmentGroups.upsert({ ...g, itineraryId });
  }
  const beforeSegments = new Map(before.segments.map((s, i) => [s.id, key({ s, i })]));
  for (const [i, s] of after.segments.entries()) {
    if (beforeSegments.get(s.id) !== key({ s, i })) await stores.segments.upsert({ ...s, itineraryId, position: i });
  }
  const beforeWaypoints = new Map(before.waypoints.map((w, i) => [w.id, key({ w, i })]));
  for (const [i, w] of after.waypoints.entries()) {
    if (beforeWaypoints.get(w.id) === key({ w, i })) continue;
    const [lon, lat, ele] = w.coord;
    await stores.waypoints.upsert({
      id: w.id,
      itineraryId,
      position: i,
      lon,
      lat,
      ele: Number.isFinite(ele) ? ele : null,
      name: w.name,
      kind: w.kind,
      description: w.description,
    });
  }
  const keepS = new Set(after.segments.map((s) => s.id));
  for (const s of before.segments) if (!keepS.has(s.id)) await stores.segments.delete(itineraryId, s.id);
  const keepW = new Set(after.waypoints.map((w) => w.id));
  for (const w of before.waypoints) if (!keepW.has(w.id)) await stores.waypoints.delete(itineraryId, w.id);
  const keepG = new Set(after.groups.map((g) => g.id));
  for (const g of before.groups) if (!keepG.has(g.id)) await stores.segmentGroups.delete(itineraryId, g.id);
}

/** Index of the segment / waypoint with `id`, or -1. */
export const segmentIndex = (chain: Chain, id: string): number => chain.segments.findIndex((s) => s.id === id);
export const waypointIndex = (chain: Chain, id: string): number => chain.waypoints.findIndex((w) => w.id === id);
